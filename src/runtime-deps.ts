// The runtime type: what the API and the activities are built from (src/runtime.ts opens it).
// Everything is passed in, so tests build the app and the worker on the real stack with their own
// clock, task queue and key prefix. It sits below the features: a feature takes `Pick<AppDeps, ...>`
// of what it uses; it only names types, and the gateway and billing cores it names never import it.
import type { BudgetControl, BudgetGuard } from './billing/budget.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { ToolCallLog } from './audit/tool-calls.js';
import type { SecretBox } from './crypto/secrets.js';
import type { Orm } from './db/orm.js';
import type { Gateway } from './gateway/index.js';
import type { ResponsesStore } from './gateway/responses.service.js';
import type { CredentialCache } from './identity/credential-cache.js';
import type { Logger } from './logger.js';
import type { Mailer } from './mail/mailer.js';
import type { McpSessionPool } from './mcp-gateway/deps.js';
import type { SharedState } from './redis.js';
import type { TemporalHandle } from './temporal.js';

export interface AppDeps {
  config: Config;
  logger: Logger;
  orm: Orm;
  shared: SharedState;
  temporal: TemporalHandle;
  clock: Clock;
  gateway: Gateway;
  /** Stored responses of POST /v1/responses (`store`), shared by its routes on both paths. */
  responses: ResponsesStore;
  budget: BudgetGuard & BudgetControl;
  /** API key lookups cached in this process, evicted on every instance when a credential changes. */
  credentials: CredentialCache;
  mailer: Mailer;
  secrets: SecretBox;
  /** Pooled MCP sessions to connections' servers, for /v1/mcp (opened on first use). */
  mcpSessions: McpSessionPool;
  /** `tool.called` audit events and metrics of every tool call (runs and /v1/mcp), written by group commit. */
  toolCalls: ToolCallLog;
}
