// Pooled MCP sessions to the servers of users' connections, for /v1/mcp: one session per
// connection (and version of its variables) per API process, opened on first use and shared by
// the calls that follow (MCP multiplexes requests on one session), instead of a connector start
// and an `initialize` per call. A session is confined like a run's (confinement.ts checks the
// targets at each open; a stdio connector holds one of TOOLS_MAX_PROCESSES while open), closes
// after MCP_SESSION_IDLE_SECONDS unused, and is replaced after SESSION_MAX_AGE_MS so addresses are
// checked again. At most MCP_CONNECTION_CONCURRENCY calls run on one session at once; up to
// MCP_CONNECTION_QUEUE more wait their turn (each running call is bounded by its timeout), and a
// call beyond that gets ConnectionBusy at once: never a hang. Listings are cached with the session
// for LISTING_TTL_MS. Nothing here is module state: the runtime builds one pool and closes it.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { catalogFor } from '../connectors/catalog.js';
import { decryptVariables } from '../connectors/connections.service.js';
import type { ToolConnection } from '../connectors/entities.js';
import { ConnectorFailure, openConnectorSession } from '../connectors/mcp-client.js';
import { launchOf } from '../connectors/tool-use.js';
import type { McpGatewayDeps, McpSessionPool, PooledSession } from './deps.js';

/** A pooled session is replaced after this long, so its connection's targets are checked again. */
const SESSION_MAX_AGE_MS = 10 * 60_000;
/** How long a session's tools/list answer is reused. */
const LISTING_TTL_MS = 30_000;

export type SessionPoolDeps = Pick<McpGatewayDeps, 'config' | 'orm' | 'secrets' | 'logger'>;

/** Too many calls on one connection's session already: retry after `retryAfterSeconds`. */
export class ConnectionBusy extends Error {
  readonly retryAfterSeconds = 1;
  constructor(limit: number, queue: number) {
    super(`the connection is busy (${limit} calls running and ${queue} waiting on this server); retry after 1 second`);
    this.name = 'ConnectionBusy';
  }
}

interface Entry {
  key: string;
  opened: Promise<PooledSession>;
  openedAt: number;
  running: number;
  waiting: Array<() => void>;
  idleTimer: NodeJS.Timeout | undefined;
  listing: { at: number; tools: Promise<Tool[]> } | undefined;
  retired: boolean;
}

export class ConnectorSessionPool implements McpSessionPool {
  private readonly entries = new Map<string, Entry>();
  private closing = false;

  constructor(private readonly deps: SessionPoolDeps) {}

  /** Runs `work` on the connection's pooled session, within the session's call limits. */
  async use<T>(connection: ToolConnection, work: (pooled: PooledSession) => Promise<T>): Promise<T> {
    const entry = this.entryFor(connection);
    await this.admit(entry);
    try {
      return await work(await entry.opened);
    } finally {
      this.release(entry);
    }
  }

  /** The server's tools (every page), from the session's cached listing while it is fresh. */
  async listTools(connection: ToolConnection, timeoutMs: number): Promise<Tool[]> {
    const entry = this.entryFor(connection);
    const now = Date.now();
    if (!entry.listing || now - entry.listing.at > LISTING_TTL_MS) {
      const tools = this.use(connection, ({ session }) => session.listTools(timeoutMs));
      entry.listing = { at: now, tools };
      // A failed listing is not kept: the next request asks again.
      tools.catch(() => {
        if (entry.listing?.tools === tools) entry.listing = undefined;
      });
    }
    return entry.listing.tools;
  }

  /** Open sessions (for tests and diagnostics). */
  get size(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    this.closing = true;
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map((entry) => this.shut(entry)));
  }

  private entryFor(connection: ToolConnection): Entry {
    if (this.closing) throw new ConnectorFailure('start', 'the service is shutting down');
    const key = `${connection.id}:${connection.updatedAt.getTime()}`;
    const existing = this.entries.get(connection.id);
    if (existing && existing.key === key && !existing.retired && Date.now() - existing.openedAt < SESSION_MAX_AGE_MS) return existing;
    if (existing) this.retire(existing);
    const entry: Entry = { key, opened: this.open(connection), openedAt: Date.now(), running: 0, waiting: [], idleTimer: undefined, listing: undefined, retired: false };
    this.entries.set(connection.id, entry);
    entry.opened.then(
      ({ session }) => {
        session.onclose = () => this.forget(connection.id, entry);
      },
      () => this.forget(connection.id, entry),
    );
    return entry;
  }

  private async open(connection: ToolConnection): Promise<PooledSession> {
    const catalogEntry = catalogFor(this.deps.config).find(connection.toolId);
    if (!catalogEntry) throw new ConnectorFailure('start', `connector ${connection.toolId} is no longer in the catalog`);
    const env = decryptVariables(this.deps, connection);
    const launch = await launchOf(this.deps, connection, catalogEntry, env);
    const session = await openConnectorSession(launch, {
      startTimeoutMs: this.deps.config.TOOLS_TEST_TIMEOUT_MS,
      // The process's CPU over its whole life: at most its wall-clock life on one core.
      cpuSeconds: Math.ceil(SESSION_MAX_AGE_MS / 1000) + this.deps.config.MCP_SESSION_IDLE_SECONDS,
    });
    return { session, env };
  }

  private async admit(entry: Entry): Promise<void> {
    clearTimeout(entry.idleTimer);
    const { MCP_CONNECTION_CONCURRENCY: limit, MCP_CONNECTION_QUEUE: queue } = this.deps.config;
    if (entry.running < limit) {
      entry.running += 1;
      return;
    }
    if (entry.waiting.length >= queue) throw new ConnectionBusy(limit, queue);
    // The releasing call hands its place over: `running` already counts this one.
    await new Promise<void>((resolve) => entry.waiting.push(resolve));
  }

  private release(entry: Entry): void {
    const next = entry.waiting.shift();
    if (next) {
      next();
      return;
    }
    entry.running -= 1;
    if (entry.running > 0) return;
    if (entry.retired) {
      void this.shut(entry);
      return;
    }
    entry.idleTimer = setTimeout(() => {
      if (entry.running > 0) return;
      this.retire(entry);
    }, this.deps.config.MCP_SESSION_IDLE_SECONDS * 1000);
    entry.idleTimer.unref();
  }

  /** No new calls: closes now when idle, else when its last call ends. */
  private retire(entry: Entry): void {
    entry.retired = true;
    for (const [id, current] of this.entries) if (current === entry) this.entries.delete(id);
    if (entry.running === 0) void this.shut(entry);
  }

  private forget(connectionId: string, entry: Entry): void {
    entry.retired = true;
    if (this.entries.get(connectionId) === entry) this.entries.delete(connectionId);
  }

  private async shut(entry: Entry): Promise<void> {
    clearTimeout(entry.idleTimer);
    const pooled = await entry.opened.catch(() => undefined);
    await pooled?.session.close().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'closing a pooled MCP session failed'));
  }
}
