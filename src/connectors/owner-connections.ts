// A user's connections, with whether the user is an active member, in one prepared statement: what
// every /v1/mcp tools/call and tools/list reads before anything else. Plain rows, not ORM entities
// (no unit of work, identity map or hydration for a read that is never written back), and one round
// trip for both the owner check and the connections (the two queries were two of the three
// round trips a call made to PostgreSQL). Only the user's own rows in their own organization are
// read: another organization's or another member's connection never is. With the API process's
// cache (identity/credential-cache.ts), a repeated read costs nothing until the user's connections
// or the user change, which evicts it on every instance before the change answers.
import type { Orm } from '../db/orm.js';
import type { CredentialCache } from '../identity/credential-cache.js';
import { runPrepared } from '../db/prepared.js';
import type { ToolConnection } from './entities.js';

export interface OwnerConnections {
  /** The user exists in the organization and is active. */
  ownerActive: boolean;
  /** Ordered by connector id, newest first within one. */
  connections: ToolConnection[];
}

interface Row {
  owner_status: string;
  id: string | null;
  organization_id: string;
  user_id: string;
  tool_id: string;
  name: string;
  env_ciphertext: string;
  env_names: unknown;
  status: ToolConnection['status'];
  connected_at: Date | string | null;
  last_tested_at: Date | string | null;
  test_result: string | null;
  tool_names: unknown;
  tool_approvals: unknown;
  created_at: Date | string;
  updated_at: Date | string;
}

// The user's row always comes back (left join): no row means no such member.
const SQL = `
select u."status" as "owner_status", c."id", c."organization_id", c."user_id", c."tool_id", c."name", c."env_ciphertext",
  c."env_names", c."status", c."connected_at", c."last_tested_at", c."test_result", c."tool_names", c."tool_approvals",
  c."created_at", c."updated_at"
from "users" u
left join "tool_connections" c on c."organization_id" = u."organization_id" and c."user_id" = u."id"
where u."id" = ? and u."organization_id" = ?
order by c."tool_id" asc, c."created_at" desc`;

/** Read-only for callers: with a cache, the same objects answer every call until evicted. */
export async function ownerConnections(orm: Orm, organizationId: string, userId: string, cache?: CredentialCache): Promise<OwnerConnections> {
  const cached = cache?.getConnections<{ userId: string; owner: OwnerConnections }>(organizationId, userId);
  if (cached) return cached.owner;
  // Taken before the read: an eviction during it means the rows may predate the change.
  const generation = cache?.generation ?? 0;
  const rows = await runPrepared<Row>(orm, 'owner-connections', SQL, [userId, organizationId]);
  const owner: OwnerConnections = {
    ownerActive: rows[0]?.owner_status === 'active',
    connections: rows.filter((row) => row.id !== null).map(connectionOf),
  };
  cache?.setConnections(organizationId, { userId, owner }, generation);
  return owner;
}

function connectionOf(row: Row): ToolConnection {
  return {
    id: row.id!,
    organizationId: row.organization_id,
    userId: row.user_id,
    toolId: row.tool_id,
    name: row.name,
    envCiphertext: row.env_ciphertext,
    envNames: json(row.env_names) as string[],
    status: row.status,
    connectedAt: dateOrNull(row.connected_at),
    lastTestedAt: dateOrNull(row.last_tested_at),
    testResult: row.test_result,
    toolNames: json(row.tool_names) as string[] | null,
    toolApprovals: (json(row.tool_approvals) ?? {}) as ToolConnection['toolApprovals'],
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** json/jsonb columns: parsed by node-pg and PGlite alike; text if a driver left them so. */
function json(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

function dateOrNull(value: Date | string | null): Date | null {
  return value === null ? null : new Date(value);
}
