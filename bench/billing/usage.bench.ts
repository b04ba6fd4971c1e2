// Usage aggregation over 1M usage records in PostgreSQL: the usage summary and each groupBy,
// through the billing service (SQL over the rollups: whole days from usage_daily, whole hours of
// the edge days from usage_hourly, the partial hours at the ends from usage_records), against a
// baseline measured in the same run: the same totals by scanning usage_records directly.
// Runs in a dedicated database it creates and drops. Usage: npm run bench:billing
//   env: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_ROWS (1000000),
//        BENCH_ITERATIONS (100), BENCH_KEEP_DATABASE (set: keep the database for EXPLAIN)
import { randomUUID } from 'node:crypto';
import { usageReport, type BillingDeps } from '../../src/billing/billing.service.js';
import { createBudgetLedger, leaseSettingsOf } from '../../src/billing/budget-ledger.js';
import type { UsageQuery } from '../../src/billing/billing.schemas.js';
import { billingPeriodOf } from '../../src/billing/period.js';
import { systemClock } from '../../src/clock.js';
import { openDatabase, type Orm } from '../../src/db/orm.js';
import { entities } from '../../src/orm-entities.js';
import type { Caller } from '../../src/identity/caller.js';
import { createLogger } from '../../src/logger.js';
import { openSharedState } from '../../src/redis.js';
import { databaseUrl, MODELS, seedUsage, USERS, withAdmin } from './seed.js';

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const iterations = Number(process.env.BENCH_ITERATIONS ?? 100);

interface Stats {
  p50: number;
  p99: number;
  mean: number;
}

async function measure(times: number, run: () => Promise<unknown>): Promise<Stats> {
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

/** The baseline: the month-to-date totals straight from usage_records (no rollup). */
async function scanTotals(orm: Orm, organizationId: string, from: Date, to: Date): Promise<unknown> {
  return orm.em.fork().execute(
    `select count(*), sum(input_tokens), sum(output_tokens), sum(cost) from usage_records
     where organization_id = ? and created_at >= ? and created_at < ?`,
    [organizationId, from.toISOString(), to.toISOString()],
  );
}

async function main(): Promise<void> {
  const name = `bench_billing_${Date.now()}`;
  await withAdmin((client) => client.query(`create database "${name}"`));
  const logger = createLogger({ level: 'warn' });
  let orm: Orm | undefined;
  try {
    const url = databaseUrl(name);
    orm = await openDatabase({ databaseUrl: url, poolMax: 4 }, { entities });
    const now = new Date();
    const { organizationId, seconds } = await seedUsage(url, now, rows);
    const shared = await openSharedState({ redisUrl: process.env.REDIS_URL, keyPrefix: `bench:${name}:` }, logger);
    const budget = createBudgetLedger({
      orm, shared, clock: systemClock, logger, reservationTtlMs: 600_000,
      leases: leaseSettingsOf({ BUDGET_LEASE_MAX_USD: 1, BUDGET_LEASE_SYNC_MS: 250, BUDGET_LEASE_TTL_SECONDS: 30, RATE_LIMIT_LEASE_DIVISOR: 20 }),
    });
    const deps: BillingDeps = { orm, clock: systemClock, budget };
    const caller: Caller = { organizationId, userId: randomUUID(), email: 'bench@bench.test', role: 'owner', via: 'api_key' };
    const thirtyDays = { from: new Date(now.getTime() - 30 * 86_400_000).toISOString(), to: now.toISOString() };

    const cases: Array<[string, UsageQuery]> = [
      ['summary, month to date (default range)', {}],
      ['groupBy=model, month to date', { groupBy: 'model' }],
      ['groupBy=user, month to date', { groupBy: 'user' }],
      ['groupBy=day, month to date', { groupBy: 'day' }],
      ['summary, last 30 days (all 1M rows)', thirtyDays],
      ['groupBy=user, last 30 days', { ...thirtyDays, groupBy: 'user' }],
    ];
    const results: Array<[string, Stats]> = [];
    const month = billingPeriodOf(now);
    results.push([
      'baseline: month-to-date totals scanned from usage_records',
      await measure(Math.max(5, Math.round(iterations / 20)), () => scanTotals(orm!, organizationId, month.start, now)),
    ]);
    for (const [label, query] of cases) {
      results.push([label, await measure(iterations, () => usageReport(deps, caller, query))]);
    }
    await budget.close();
    await shared.close();

    const baseline = results[0]![1];
    const monthRows = Math.round(rows * Math.min(1, (now.getTime() - month.start.getTime()) / (30 * 86_400_000)));
    process.stdout.write(`\n${rows.toLocaleString('en')} usage records (one organization, ${USERS} users, ${MODELS} models, 30 days; ~${monthRows.toLocaleString('en')} in the current month), ` +
      `inserted in one statement with the rollup trigger in ${seconds.toFixed(1)} s; ${iterations} iterations per case\n\n`);
    process.stdout.write('| query | p50 ms | p99 ms | mean ms | p99 vs baseline |\n| --- | ---: | ---: | ---: | ---: |\n');
    for (const [label, stats] of results) {
      const ratio = stats === baseline ? '1' : (stats.p99 / baseline.p99).toFixed(3);
      process.stdout.write(`| ${label} | ${stats.p50.toFixed(2)} | ${stats.p99.toFixed(2)} | ${stats.mean.toFixed(2)} | ${ratio} |\n`);
    }
  } finally {
    await orm?.close();
    if (process.env.BENCH_KEEP_DATABASE) process.stdout.write(`kept database ${name}\n`);
    else await withAdmin((client) => client.query(`drop database if exists "${name}" with (force)`));
  }
}

await main();
