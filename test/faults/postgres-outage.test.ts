// The application's PostgreSQL server crashed (`pg_ctl stop -m immediate`: every backend killed,
// so the API's and the worker's connections all break) 5 s into a burst of webhook events with an
// automation firing every 2 s, started again 5 s later (crash recovery first: "the database
// system is starting up"), on the production build (test/faults/outages.ts). Asserts outcomes:
// every acknowledged event and every fired run ends `success`, delivered once; a sender meanwhile
// gets 503 service_unavailable with Retry-After, never a hang; and the gateway's buffered records
// are written exactly once: one request audit row (`gateway_requests`, success) and one usage
// record per upstream call that was answered.
// A PostgreSQL server of its own (test/fixtures/postgres-server.ts), never the machine's shared one;
// runs where the run's database is PostgreSQL (the API and worker processes share one database).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Orm } from '../../src/db/orm.js';
import { entities } from '../../src/orm-entities.js';
import { postgresBinaries, startPostgresServer, type PostgresServer } from '../fixtures/postgres-server.js';
import { waitFor } from '../helpers/http.js';
import { buildProduction } from '../helpers/production.js';
import { outageBurst } from './outages.js';
import { startFaultStack, type FaultStack } from './scenarios.js';

describe.skipIf(!inject('databaseUrl') || !postgresBinaries())('PostgreSQL crash during a burst (production build)', () => {
  let buildDir: string;
  let postgres: PostgresServer | undefined;
  let stack: FaultStack | undefined;

  beforeAll(async () => {
    [buildDir, postgres] = await Promise.all([buildProduction(`postgres-outage-${process.pid}`), startPostgresServer()]);
  }, 600_000); // tsc of the whole tree: minutes on a busy machine
  afterAll(async () => {
    await stack?.stop();
    await postgres?.remove();
    if (buildDir) fs.rmSync(buildDir, { recursive: true, force: true });
  });

  it('ends every acknowledged event and fired run in success once, answers 503 meanwhile, and writes each gateway record once', { timeout: 480_000 }, async () => {
    stack = await startFaultStack({
      buildDir,
      databaseUrl: postgres!.url,
      redisUrl: inject('redisUrl'),
      temporalAddress: inject('temporalAddress'),
      bundlePath: inject('workflowBundlePath'),
      upstreamLatencyMs: 300,
      env: { AUTOMATION_MIN_INTERVAL_SECONDS: '1' },
    });
    const report = await outageBurst(stack, {
      durationMs: 30_000,
      lanes: 4,
      intervalMs: 400,
      faultAtMs: 5_000,
      fault: async () => {
        await postgres!.crash();
        await new Promise((resolve) => setTimeout(resolve, 5_000)); // the outage itself, not a wait for a condition
        await postgres!.start();
      },
      firingSchedule: '*/2 * * * * *',
      databaseUrl: () => postgres!.url,
    });
    const answered = stack.upstream.requests.filter((request) => !request.closedEarly).length;
    // The recorder flushes every 200 ms (later after a failed write): wait for it to catch up, then compare exactly.
    const records = await waitFor(async () => {
      const counted = await countGatewayRecords(postgres!.url, stack!.org.id);
      return counted.requestRecords >= answered && counted.usageRecords >= answered ? counted : undefined;
    }, { timeoutMs: 20_000, intervalMs: 500, what: 'the gateway records' }).catch(() => countGatewayRecords(postgres!.url, stack!.org.id));
    process.stdout.write(`[faults] PostgreSQL crash: ${JSON.stringify({
      ...report.burst, refusals: report.refusals.length, slowestAnswerMs: report.slowestAnswerMs, secondsWithoutAck: report.secondsWithoutAck,
      secondsToDrain: report.secondsToDrain, secondsAfterBurst: report.secondsAfterBurst, runs: report.runs, upstreamCalls: answered, ...records,
    })}\n`);

    expect(report.burst.failures).toEqual([]);
    expect(report.burst).toMatchObject({ failure: 0, undelivered: 0, duplicates: 0 });
    expect(report.burst.success).toBe(report.burst.events);
    expect(report.runs.failed).toEqual([]);
    expect(report.runs.fired).toBeGreaterThan(0);
    expect(report.runs).toMatchObject({ success: report.runs.fired, delivered: report.runs.fired, duplicates: 0 });
    for (const refusal of report.refusals) {
      expect(refusal).toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: expect.stringMatching(/^\d+$/) });
      expect(refusal.ms).toBeLessThan(8_000);
    }
    // Buffered records: none lost while the database was away, none written twice after.
    expect(records).toEqual({ requestRecords: answered, usageRecords: answered });
  });
});

async function countGatewayRecords(databaseUrl: string, organizationId: string): Promise<{ requestRecords: number; usageRecords: number }> {
  const orm: Orm = await openDatabase({ databaseUrl }, { entities });
  try {
    const count = async (sql: string) => Number((await orm.em.getConnection().execute<Array<{ n: string }>>(sql, [organizationId]))[0]!.n);
    return {
      requestRecords: await count(`select count(*) as n from "gateway_requests" where "organization_id" = ? and "outcome" = 'success'`),
      usageRecords: await count(`select count(*) as n from "usage_records" where "organization_id" = ?`),
    };
  } finally {
    await orm.close();
  }
}
