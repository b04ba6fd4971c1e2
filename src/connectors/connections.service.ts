// A caller's connections to catalog connectors: create (variables checked against the entry
// and encrypted), list, show, remove, and the health test that really starts the connector.
// Connections belong to one user: anyone else, admins included, gets 404 for them.
import type { EntityManager } from '@mikro-orm/core';
import type { AppDeps } from '../runtime-deps.js';
import { AppError, badRequest, notFound } from '../errors.js';
import type { Caller } from '../identity/caller.js';
import { assertQuota } from '../quotas/quota.js';
import { catalogFor, type Catalog, type CatalogEntry } from './catalog.js';
import { confinedLaunch, confineValues } from './confinement.js';
import {
  connectionDetail,
  connectionSummary,
  connectionTestResult,
  connectorView,
  type ConnectionDetail,
  type ConnectionSummary,
  type ListConnectionsQuery,
  type ConnectionTestResult,
  type ConnectorView,
  type CreateConnectionInput,
} from './connections.schemas.js';
import { ToolConnection } from './entities.js';
import { ConnectorFailure, withConnectorSession } from './mcp-client.js';

export type ConnectionDeps = Pick<AppDeps, 'config' | 'orm' | 'secrets' | 'clock' | 'logger' | 'credentials'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function listCatalog(catalog: Catalog): { tools: ConnectorView[]; total: number } {
  const tools = catalog.entries.map(connectorView);
  return { tools, total: tools.length };
}

export async function createConnection(deps: ConnectionDeps, caller: Caller, input: CreateConnectionInput): Promise<ConnectionDetail> {
  const entry = catalogEntryFor(catalogFor(deps.config), input.toolId);
  const env = acceptedVariables(entry, input.env);
  assertPolicyOfConnector(entry, input.toolApprovals);
  // Refused values never get stored; the originals are kept and checked again at every start.
  await confineValues(deps.config, caller.organizationId, entry, env);
  const now = deps.clock.now();
  const connection = await deps.orm.em.fork().transactional(async (em) => {
    await assertQuota(em, deps.config, 'connections', caller);
    return em.create(ToolConnection, {
      organizationId: caller.organizationId,
      userId: caller.userId,
      toolId: entry.id,
      name: input.name,
      envCiphertext: deps.secrets.encrypt(JSON.stringify(env)),
      envNames: Object.keys(env).sort(),
      toolApprovals: input.toolApprovals,
      status: 'connected',
      connectedAt: now,
      createdAt: now,
      updatedAt: now,
    });
  });
  await connectionsChanged(deps, caller);
  deps.logger.info({ connectionId: connection.id, toolId: entry.id, organizationId: caller.organizationId }, 'tool connection created');
  return connectionDetail(connection);
}

/** The caller's own connections (never another user's, admins included), newest first. */
export async function listConnections(deps: ConnectionDeps, caller: Caller, query: ListConnectionsQuery = { status: 'all' }): Promise<{ connections: ConnectionSummary[] }> {
  const where = { organizationId: caller.organizationId, userId: caller.userId, ...(query.status === 'all' ? {} : { status: query.status }) };
  const connections = await deps.orm.em.fork().find(ToolConnection, where, { orderBy: { createdAt: 'desc', id: 'asc' } });
  return { connections: connections.map(connectionSummary) };
}

export async function getConnection(deps: ConnectionDeps, caller: Caller, id: string): Promise<ConnectionDetail> {
  return connectionDetail(await findOwnConnection(deps.orm.em.fork(), caller, id));
}

export async function deleteConnection(deps: ConnectionDeps, caller: Caller, id: string): Promise<void> {
  const em = deps.orm.em.fork();
  const connection = await findOwnConnection(em, caller, id);
  await em.remove(connection).flush();
  await connectionsChanged(deps, caller);
  deps.logger.info({ connectionId: id, organizationId: caller.organizationId }, 'tool connection deleted');
}

/** Starts the connector, runs initialize and tools/list, and records the outcome on the connection. */
export async function testConnection(deps: ConnectionDeps, caller: Caller, id: string): Promise<ConnectionTestResult> {
  const em = deps.orm.em.fork();
  const connection = await findOwnConnection(em, caller, id);
  const started = Date.now();
  const outcome = await withTestSlot(deps.config.TOOLS_TEST_CONCURRENCY, () => probeConnector(deps, connection));
  const tested = recordOutcome(connection, outcome, deps.clock.now());
  await em.flush();
  await connectionsChanged(deps, caller);
  deps.logger.info(
    { connectionId: id, toolId: connection.toolId, status: connection.status, stage: outcome.ok ? undefined : outcome.stage, ms: Date.now() - started },
    'tool connection tested',
  );
  return connectionTestResult(tested);
}

/**
 * After a change is committed: /v1/mcp's cached view of the caller's connections is evicted on
 * every API instance before the change answers, so a removed connection is not called again.
 */
async function connectionsChanged(deps: ConnectionDeps, caller: Caller): Promise<void> {
  await deps.credentials.invalidate({ connectionsOfUserId: caller.userId });
}

/** Health tests running in this process: each starts a connector, so a burst must not exhaust the host. */
let testsRunning = 0;

async function withTestSlot<T>(limit: number, probe: () => Promise<T>): Promise<T> {
  if (testsRunning >= limit) {
    throw new AppError('rate_limited', 'Too many connection tests are running on this server; retry shortly', { headers: { 'Retry-After': '2' } });
  }
  testsRunning += 1;
  try {
    return await probe();
  } finally {
    testsRunning -= 1;
  }
}

type ProbeOutcome = { ok: true; toolNames: string[] } | { ok: false; stage: string; message: string };

async function probeConnector(deps: ConnectionDeps, connection: ToolConnection): Promise<ProbeOutcome> {
  const entry = catalogFor(deps.config).find(connection.toolId);
  if (!entry) return { ok: false, stage: 'catalog', message: `connector ${connection.toolId} is no longer in the catalog` };
  try {
    const env = decryptVariables(deps, connection);
    // A value refused now (DNS changed, operator narrowed the allow list) is a 400, as at create.
    const launch = await confinedLaunch(deps, connection.organizationId, entry, env);
    const tools = await withConnectorSession(launch, deps.config.TOOLS_TEST_TIMEOUT_MS, (session) => session.listTools());
    return { ok: true, toolNames: tools.map((tool) => tool.name) };
  } catch (error) {
    if (error instanceof ConnectorFailure) return { ok: false, stage: error.stage, message: error.message };
    throw error;
  }
}

function recordOutcome(connection: ToolConnection, outcome: ProbeOutcome, now: Date): ToolConnection & { lastTestedAt: Date; testResult: string } {
  if (outcome.ok) {
    if (connection.status !== 'connected' || !connection.connectedAt) connection.connectedAt = now;
    connection.status = 'connected';
    connection.toolNames = outcome.toolNames;
  } else {
    connection.status = 'error';
  }
  return Object.assign(connection, { lastTestedAt: now, testResult: outcome.ok ? 'ok' : outcome.message });
}

/** The connection's variables in clear, for starting its connector. Never log or return them. */
export function decryptVariables(deps: Pick<AppDeps, 'secrets'>, connection: ToolConnection): Record<string, string> {
  try {
    return JSON.parse(deps.secrets.decrypt(connection.envCiphertext)) as Record<string, string>;
  } catch (error) {
    // A rotated SECRET_KEY or a tampered row: the stored secret is unusable, not the request.
    throw new ConnectorFailure('start', 'the stored credentials cannot be decrypted; recreate the connection', false, { cause: error });
  }
}

export async function findOwnConnection(em: EntityManager, caller: Pick<Caller, 'organizationId' | 'userId'>, id: string): Promise<ToolConnection> {
  const connection = UUID.test(id)
    ? await em.findOne(ToolConnection, { id, organizationId: caller.organizationId, userId: caller.userId })
    : null;
  if (!connection) throw notFound('Connection');
  return connection;
}

function catalogEntryFor(catalog: Catalog, toolId: string): CatalogEntry {
  const entry = catalog.find(toolId);
  if (!entry) throw badRequest(`toolId ${JSON.stringify(toolId)} is not a connector in the catalog (see GET /tools)`, 'toolId');
  return entry;
}

/**
 * Only the variables the entry declares are accepted: anything else (NODE_OPTIONS, LD_PRELOAD,
 * PATH) would let a caller change what the service executes.
 */
function acceptedVariables(entry: CatalogEntry, env: Record<string, string>): Record<string, string> {
  const declared = new Set([...entry.requiredEnvVars, ...entry.optionalEnvVars]);
  const unknown = Object.keys(env).find((name) => !declared.has(name));
  if (unknown) {
    const accepted = [...declared].join(', ') || 'none';
    throw badRequest(`env.${unknown} is not a variable of connector ${entry.id} (accepted: ${accepted})`, `env.${unknown}`);
  }
  const missing = entry.requiredEnvVars.filter((name) => !env[name]);
  if (missing.length > 0) {
    throw new AppError('bad_request', `Missing required environment variables for ${entry.id}: ${missing.join(', ')}`, {
      param: 'env',
      details: { missingEnvVars: missing },
    });
  }
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
}

/** A connection's approval defaults name its own connector only: 400 naming the first other entry. */
function assertPolicyOfConnector(entry: CatalogEntry, policy: Record<string, unknown>): void {
  const other = Object.keys(policy).find((key) => !key.startsWith(`${entry.id}__`));
  if (other !== undefined) throw badRequest(`toolApprovals.${other}: must name a tool of ${entry.id} (${entry.id}__<toolName> or ${entry.id}__*)`, `toolApprovals.${other}`);
}
