// Seeding shared by the benchmarks that need 1M usage records in a scratch PostgreSQL database
// (bench/billing, bench/lists): the admin connection, the database URL and the usage seed.
import { randomUUID } from 'node:crypto';
import pg from 'pg';

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const USERS = 50;
export const MODELS = 8;

export async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export function databaseUrl(name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * One organization, 50 users (members), `rows` usage records spread evenly over the 30 days
 * before `now`, inserted in one statement (the rollup triggers fill usage_hourly/usage_daily).
 */
export async function seedUsage(url: string, now: Date, rows: number): Promise<{ organizationId: string; userIds: string[]; seconds: number }> {
  const organizationId = randomUUID();
  const userIds = Array.from({ length: USERS }, () => randomUUID());
  return withClient(url, async (client) => {
    await client.query('insert into organizations (id, name, created_at, updated_at) values ($1, $2, now(), now())', [organizationId, 'Bench']);
    await client.query(
      `insert into users (id, organization_id, email, role, status, created_at, updated_at)
       select u, $1, 'user' || ordinality || '@bench.test', 'member', 'active', now(), now()
       from unnest($2::uuid[]) with ordinality as u`,
      [organizationId, userIds],
    );
    const started = performance.now();
    await client.query(
      `insert into usage_records (id, organization_id, user_id, source, model, provider, upstream_model,
                                  input_tokens, output_tokens, cost, estimated, created_at)
       select gen_random_uuid(), $1, ($2::uuid[])[1 + i % ${USERS}], 'gateway', 'model-' || (i % ${MODELS}), 'fake', 'upstream',
              100 + i % 900, 10 + i % 300, ((100 + i % 900) * 0.15 + (10 + i % 300) * 0.6) / 1e6, false,
              $3::timestamptz - interval '30 days' + (i::float8 / $4) * interval '30 days'
       from generate_series(1, $4::int) as i`,
      [organizationId, userIds, now.toISOString(), rows],
    );
    const seconds = (performance.now() - started) / 1000;
    await client.query('vacuum analyze usage_records');
    await client.query('vacuum analyze usage_daily');
    await client.query('vacuum analyze usage_hourly');
    return { organizationId, userIds, seconds };
  });
}

export async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

