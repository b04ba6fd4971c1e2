// A constant statement on the hot path, run as a named prepared statement: on PostgreSQL, node-pg
// parses it once per connection and afterwards sends only its parameters, so the server skips the
// parse and plan that were half its time for a one-row insert (pgbench on this machine: 115 µs
// with the simple protocol, 57 µs prepared). The name must always go with the same text. PGlite
// (one in-process session) runs it as an ordinary bound statement. A pooler in front of
// PostgreSQL must keep prepared statements per server connection (PgBouncer 1.21+ with
// `max_prepared_statements`, or session pooling).
import type { Orm } from './orm.js';

/** Runs the statement; the rows it returns (RETURNING or a select), as both drivers give them. */
export async function runPrepared<Row = Record<string, unknown>>(orm: Orm, name: string, sql: string, bindings: readonly string[]): Promise<Row[]> {
  const result: { rows?: Row[] } | undefined = await orm.em.getConnection().getKnex().raw(sql, bindings).options({ name });
  return result?.rows ?? [];
}
