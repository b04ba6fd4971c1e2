// Everything a stack keeps, as text, for tests that prove a secret (API key, session or
// invitation token, password) is stored nowhere in the clear: every row of every table of the
// database schema, and every key and value under the stack's Redis prefix.
import type { Orm } from '../../src/db/orm.js';
import type { SharedState } from '../../src/redis.js';

/** Table name -> its rows, one JSON text per line. */
export async function dumpDatabase(orm: Orm): Promise<Map<string, string>> {
  const connection = orm.em.getConnection();
  const tables = await connection.execute<Array<{ table_name: string }>>(
    "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name",
  );
  const dump = new Map<string, string>();
  for (const { table_name: table } of tables) {
    const rows = await connection.execute<Array<{ row: string }>>(`select row_to_json(t)::text as row from "${table.replaceAll('"', '""')}" t`);
    dump.set(table, rows.map((r) => r.row).join('\n'));
  }
  return dump;
}

/** Every key under the stack's prefix with its value, one per line; undefined without Redis. */
export async function dumpRedis(shared: SharedState): Promise<string | undefined> {
  const redis = shared.redis;
  if (shared.kind !== 'redis' || !redis) return undefined;
  const lines: string[] = [];
  let cursor = '0';
  do {
    // SCAN does not add the client's keyPrefix; every other command does.
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${shared.keyPrefix}*`, 'COUNT', 500);
    cursor = next;
    for (const prefixed of keys) {
      const key = prefixed.slice(shared.keyPrefix.length);
      const type = await redis.type(key);
      const value =
        type === 'string' ? await redis.get(key)
        : type === 'hash' ? await redis.hgetall(key)
        : type === 'zset' ? await redis.zrange(key, 0, -1, 'WITHSCORES')
        : type === 'list' ? await redis.lrange(key, 0, -1)
        : type === 'set' ? await redis.smembers(key)
        : `(${type})`;
      lines.push(`${prefixed} ${JSON.stringify(value)}`);
    }
  } while (cursor !== '0');
  return lines.join('\n');
}

/** The secret and the encodings a careless store would keep it in. */
export function encodingsOf(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [secret, bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')];
}
