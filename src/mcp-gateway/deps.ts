// What the MCP gateway is built from, and the shapes its modules share: the runtime's parts it
// uses (named here rather than picked from AppDeps, which names this folder's pool), the pooled
// sessions' interface (session-pool.ts implements it), and one call's context.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { ToolConnection } from '../connectors/entities.js';
import type { ToolCallLog } from '../audit/tool-calls.js';
import type { OpenConnectorSession } from '../connectors/mcp-client.js';
import type { SecretBox } from '../crypto/secrets.js';
import type { Orm } from '../db/orm.js';
import type { DlpPolicies } from '../gateway/dlp/policy.js';
import type { Caller } from '../identity/caller.js';
import type { CredentialCache } from '../identity/credential-cache.js';
import type { Logger } from '../logger.js';
import type { Mailer } from '../mail/mailer.js';
import type { TemporalHandle } from '../temporal.js';

export interface PooledSession {
  session: OpenConnectorSession;
  /** The connection's decrypted variables: redacted from what the server answers. */
  env: Record<string, string>;
}

/** Pooled MCP sessions to connections' servers (session-pool.ts). */
export interface McpSessionPool {
  /** Runs `work` on the connection's pooled session, within the session's call limits. */
  use<T>(connection: ToolConnection, work: (pooled: PooledSession) => Promise<T>): Promise<T>;
  /** The server's tools (every page), from the session's cached listing while it is fresh. */
  listTools(connection: ToolConnection, timeoutMs: number): Promise<Tool[]>;
  /** Sessions open or opening. */
  readonly size: number;
  close(): Promise<void>;
}

export interface McpGatewayDeps {
  config: Config;
  logger: Logger;
  orm: Orm;
  /** Caches each user's connections (read on every call), evicted on every instance when they change. */
  credentials: CredentialCache;
  clock: Clock;
  secrets: SecretBox;
  temporal: TemporalHandle;
  gateway: { dlpPolicies: DlpPolicies };
  mcpSessions: McpSessionPool;
  /** Approval requests go to the key's user by e-mail, with signed links. */
  mailer: Mailer;
  /** `tool.called` events and metrics. */
  toolCalls: ToolCallLog;
}

/** Reports progress to the client while a call waits (notifications/progress). */
export type ApprovalProgress = (progress: { elapsedMs: number; totalMs: number; message: string }) => Promise<void>;

export interface CallContext {
  caller: Caller;
  requestId?: string | undefined;
  /** Absent when the client asked for no progress. */
  progress?: ApprovalProgress | undefined;
  /** The client went away or cancelled. */
  signal?: AbortSignal | undefined;
  /** Whether the key's user is an active member, read with the tool (tool-catalog.ts). */
  ownerActive: boolean;
}
