// Lists at 1M rows in PostgreSQL (docs/design.md "Targets": runs page and usage aggregation p99 <= 50
// ms): GET /v1/automations/{id}/runs (first page, offsets 1,000 and 100,000, a status filter) over
// 1,000,000 runs of one automation, and GET /v1/billing/usage over 1,000,000 usage records (seeded
// by bench/billing's helper), all through the real HTTP API (API key, rate limit, validation,
// JSON), against a baseline measured in the same run: GET /v1/users/me, the same request path
// with a one-row read. Runs in a scratch database it creates and drops, with its own Temporal dev
// server (the runtime connects to one). Usage: npm run bench:lists
//   env: DATABASE_URL, REDIS_URL, BENCH_RUNS (1000000), BENCH_USAGE_ROWS (1000000),
//        BENCH_ITERATIONS (200), BENCH_KEEP_DATABASE (set: keep the database for EXPLAIN)
import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { startApi } from '../../src/api/server.js';
import { loadConfig } from '../../src/config.js';
import { freePort, startTemporalDevServer } from '../../src/dev/temporal-server.js';
import { generateApiKey, hashApiKey } from '../../src/identity/api-keys.js';
import { createLogger } from '../../src/logger.js';
import { openRuntime } from '../../src/runtime.js';
import { databaseUrl, seedUsage, withAdmin, withClient } from '../billing/seed.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 1_000_000);
const USAGE_ROWS = Number(process.env.BENCH_USAGE_ROWS ?? 1_000_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const TARGET_MS = 50;

interface Stats {
  p50: number;
  p99: number;
  mean: number;
}

/** One automation of the organization with `RUNS` runs over 90 days: 90% success, 8% failure, 2% running. */
async function seedRuns(url: string, organizationId: string, userId: string, now: Date): Promise<{ automationId: string; seconds: number }> {
  const automationId = randomUUID();
  return withClient(url, async (client) => {
    await client.query(
      `insert into automations (id, organization_id, created_by, name, system_prompt, model, schedule, timezone, status, created_at, updated_at)
       values ($1, $2, $3, 'Bench', 'x', 'standard', '0 * * * *', 'UTC', 'paused', now(), now())`,
      [automationId, organizationId, userId],
    );
    const started = performance.now();
    // The per-row counter trigger would update one counter row 1M times in one transaction;
    // off for the bulk load, then the counts are filled the way the migration backfills them.
    await client.query('alter table automation_runs disable trigger automation_run_counts_insert_delete');
    await client.query(
      `insert into automation_runs (id, automation_id, organization_id, trigger, status, started_at, completed_at, duration_ms,
                                    tokens_input, tokens_output, estimated_cost, output)
       select gen_random_uuid(), $1, $2, 'schedule',
              case when i % 50 = 0 then 'running' when i % 25 = 1 or i % 25 = 2 then 'failure' else 'success' end,
              $3::timestamptz - (i::float8 / $4) * interval '90 days',
              $3::timestamptz - (i::float8 / $4) * interval '90 days' + interval '2 seconds', 2000,
              100 + i % 900, 10 + i % 300, 0.0001, 'Run output ' || i
       from generate_series(1, $4::int) as i`,
      [automationId, organizationId, now.toISOString(), RUNS],
    );
    await client.query('alter table automation_runs enable trigger automation_run_counts_insert_delete');
    await client.query(
      `insert into automation_run_counts (automation_id, status, runs)
       select automation_id, status, count(*) from automation_runs where automation_id = $1 group by automation_id, status`,
      [automationId],
    );
    const seconds = (performance.now() - started) / 1000;
    await client.query('vacuum analyze automation_runs');
    return { automationId, seconds };
  });
}

async function measure(times: number, run: () => Promise<void>): Promise<Stats> {
  for (let i = 0; i < Math.min(10, times); i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

async function main(): Promise<void> {
  const name = `bench_lists_${Date.now()}`;
  await withAdmin((client) => client.query(`create database "${name}"`));
  const temporal = await startTemporalDevServer({ port: await freePort() });
  const url = databaseUrl(name);
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: `bench-lists-${randomBytes(4).toString('hex')}`,
    REDIS_KEY_PREFIX: `bench:${name}:`,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_KEY_PER_MINUTE: '10000000',
    RATE_LIMIT_PER_ORG_PER_MINUTE: '10000000',
    SECRET_KEY: randomBytes(32).toString('base64'),
    AUTOMATION_RECONCILE_ON_START: 'false',
  });
  const runtime = await openRuntime(config, createLogger({ level: 'warn' }));
  const api = await startApi(runtime, { port: 0, host: '127.0.0.1' });
  const agent = new Agent({ connections: 1, keepAliveTimeout: 30_000 });
  try {
    const now = new Date();
    const usage = await seedUsage(url, now, USAGE_ROWS);
    const ownerId = usage.userIds[0]!;
    const key = generateApiKey();
    await withClient(url, async (client) => {
      await client.query(`update users set role = 'owner' where id = $1`, [ownerId]);
      await client.query(
        `insert into api_keys (id, organization_id, user_id, name, key_hash, prefix, created_at) values ($1, $2, $3, 'bench', $4, $5, now())`,
        [randomUUID(), usage.organizationId, ownerId, hashApiKey(key), key.slice(0, 12)],
      );
    });
    const runs = await seedRuns(url, usage.organizationId, ownerId, now);

    const get = (path: string) => async () => {
      const response = await request(`${api.url}${path}`, { dispatcher: agent, headers: { authorization: `Bearer ${key}` } });
      const body = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`GET ${path}: ${response.statusCode} ${body.slice(0, 300)}`);
    };
    const runsPath = `/v1/automations/${runs.automationId}/runs`;
    const cases: Array<[string, string, number]> = [
      ['baseline: GET /v1/users/me', '/v1/users/me', ITERATIONS],
      ['runs: first page (limit 20)', `${runsPath}`, ITERATIONS],
      ['runs: first page, limit 100', `${runsPath}?limit=100`, ITERATIONS],
      ['runs: offset 1,000', `${runsPath}?offset=1000`, ITERATIONS],
      ['runs: deep offset 100,000', `${runsPath}?offset=100000`, Math.max(20, ITERATIONS / 10)],
      ['runs: status=failure, first page', `${runsPath}?status=failure`, ITERATIONS],
      ['runs: status=running, offset 1,000', `${runsPath}?status=running&offset=1000`, ITERATIONS],
      ['usage: summary, month to date', '/v1/billing/usage', ITERATIONS],
      ['usage: groupBy=model, month to date', '/v1/billing/usage?groupBy=model', ITERATIONS],
      ['usage: groupBy=day, last 30 days', `/v1/billing/usage?groupBy=day&from=${new Date(now.getTime() - 30 * 86_400_000).toISOString()}&to=${now.toISOString()}`, ITERATIONS],
    ];
    const results: Array<[string, Stats]> = [];
    for (const [label, path, times] of cases) results.push([label, await measure(times, get(path))]);

    const baseline = results[0]![1];
    process.stdout.write(`\n${RUNS.toLocaleString('en')} runs of one automation (inserted in ${runs.seconds.toFixed(1)} s) and ` +
      `${USAGE_ROWS.toLocaleString('en')} usage records (inserted in ${usage.seconds.toFixed(1)} s) in PostgreSQL; ` +
      `sequential requests through the HTTP API on one keep-alive connection; ${ITERATIONS} iterations per case (deep offset: fewer)\n\n`);
    process.stdout.write(`| request | p50 ms | p99 ms | mean ms | p99 vs baseline | p99 <= ${TARGET_MS} ms |\n| --- | ---: | ---: | ---: | ---: | :---: |\n`);
    for (const [label, stats] of results) {
      const ratio = stats === baseline ? '1' : (stats.p99 / baseline.p99).toFixed(2);
      process.stdout.write(`| ${label} | ${stats.p50.toFixed(2)} | ${stats.p99.toFixed(2)} | ${stats.mean.toFixed(2)} | ${ratio} | ${stats.p99 <= TARGET_MS ? 'yes' : 'no'} |\n`);
    }
  } finally {
    await agent.close();
    await api.stop(2000);
    await runtime.close();
    await temporal.stop();
    if (process.env.BENCH_KEEP_DATABASE) process.stdout.write(`kept database ${name}\n`);
    else await withAdmin((client) => client.query(`drop database if exists "${name}" with (force)`));
  }
}

await main();
