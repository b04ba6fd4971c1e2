// Request schemas and response shapes of the Tools API. Responses are built from whitelists:
// a connection's variables are never part of any view (only their names), and a catalog entry's
// operator-set env and header templates are not shown.
import { z } from 'zod';
import { toolApprovalsSchema, type ToolApprovals } from '../approval-policy/policy.js';
import { badRequest } from '../errors.js';
import type { CatalogEntry } from './catalog.js';
import type { ConnectionStatus, ToolConnection } from './entities.js';

export const createConnectionBody = z.object({
  toolId: z.string().min(1).max(100),
  name: z.string().trim().min(1).max(200),
  env: z
    .record(
      z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'names must be upper-case environment variable names'),
      z.string().max(8192).refine((value) => !value.includes('\0'), 'must not contain NUL characters'),
    )
    .default({}),
  /** The default approval policy of this connection's tools; entries name this connector (`<toolId>__<toolName>`, `<toolId>__*`). */
  toolApprovals: toolApprovalsSchema.default({}),
});

export type CreateConnectionInput = z.infer<typeof createConnectionBody>;

/**
 * `GET /tools/connections?status=`: the spec's "active connections of the caller" are the ones
 * not deleted (DELETE removes a connection outright), so the default `all` lists every one the
 * caller owns, including those whose last check failed (so they can be fixed or deleted);
 * `connected` or `error` narrows to one status. See docs/DESIGN-NOTES.md.
 */
export const listConnectionsQuery = z.object({
  status: z
    .enum(['connected', 'error', 'all'], { error: 'must be connected, error or all' })
    .default('all')
    .describe('`all` (default): every connection of the caller; `connected`: last check passed; `error`: last check failed'),
});
export type ListConnectionsQuery = z.infer<typeof listConnectionsQuery>;

/** Parses `value` or throws 400 bad_request naming the first bad field (`param`). */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = (issue?.path ?? []).map(String).join('.');
  const message = issue?.message ?? 'is invalid';
  throw badRequest(field ? `${field}: ${message}` : message, field || null);
}

export interface ConnectorView {
  id: string;
  name: string;
  category: string;
  transport: CatalogEntry['transport'];
  command: string;
  args?: string[];
  url?: string;
  requiredEnvVars: string[];
  optionalEnvVars: string[];
  description: string;
}

export function connectorView(entry: CatalogEntry): ConnectorView {
  const base = {
    id: entry.id,
    name: entry.name,
    category: entry.category,
    transport: entry.transport,
    command: entry.command,
  };
  const launch = entry.transport === 'stdio' ? { args: entry.args } : { url: entry.url };
  return {
    ...base,
    ...launch,
    requiredEnvVars: entry.requiredEnvVars,
    optionalEnvVars: entry.optionalEnvVars,
    description: entry.description,
  };
}

export interface ConnectionSummary {
  id: string;
  toolId: string;
  name: string;
  status: ConnectionStatus;
  connectedAt: string | null;
  lastTestedAt: string | null;
}

export interface ConnectionDetail extends ConnectionSummary {
  testResult: string | null;
  /** Tool names the last successful test listed. */
  tools: string[];
  /** Names of the variables set on the connection; values are never returned. */
  envVars: string[];
  /** The default approval policy of this connection's tools. */
  toolApprovals: ToolApprovals;
  createdAt: string;
  updatedAt: string;
}

export interface ConnectionTestResult {
  id: string;
  toolId: string;
  status: ConnectionStatus;
  lastTestedAt: string;
  testResult: string;
  tools: string[];
}

export function connectionSummary(connection: ToolConnection): ConnectionSummary {
  return {
    id: connection.id,
    toolId: connection.toolId,
    name: connection.name,
    status: connection.status,
    connectedAt: iso(connection.connectedAt),
    lastTestedAt: iso(connection.lastTestedAt),
  };
}

export function connectionDetail(connection: ToolConnection): ConnectionDetail {
  return {
    ...connectionSummary(connection),
    testResult: connection.testResult,
    tools: connection.toolNames ?? [],
    envVars: connection.envNames,
    toolApprovals: connection.toolApprovals,
    createdAt: connection.createdAt.toISOString(),
    updatedAt: connection.updatedAt.toISOString(),
  };
}

/** The spec's test result, from a connection the test just updated. */
export function connectionTestResult(connection: ToolConnection & { lastTestedAt: Date; testResult: string }): ConnectionTestResult {
  return {
    id: connection.id,
    toolId: connection.toolId,
    status: connection.status,
    lastTestedAt: connection.lastTestedAt.toISOString(),
    testResult: connection.testResult,
    tools: connection.toolNames ?? [],
  };
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
