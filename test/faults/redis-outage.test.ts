// Redis SIGKILLed during a burst of gateway calls against a small monthly budget and started again
// empty 3 s later, on the production build (a private redis-server, test/fixtures/redis-server.ts).
// 8 senders call chat completions (max_tokens 7: a call's worst case is about twice its real cost)
// until the budget refuses them all; Redis goes away at ~60% of the cap, with calls in flight whose
// holds vanish with it. Asserts: while Redis is away paid calls answer 503 (never unchecked), each
// answered upstream call is recorded once (usage records = upstream answers), the recorded spend
// stays within the cap plus the calls that were in flight when Redis went away, and the budget's
// spend counter after the reload agrees with the usage records (nothing counted twice or lost).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../src/db/orm.js';
import { entities } from '../../src/orm-entities.js';
import { startRedisServer, type RedisProcess } from '../fixtures/redis-server.js';
import { call, waitFor } from '../helpers/http.js';
import { buildProduction } from '../helpers/production.js';
import { startFaultStack, type FaultStack } from './scenarios.js';

const CAP_USD = 0.01;
/** 11 input tokens at $2/1M and 7 output tokens at $8/1M (fake upstream's usage, FAKE_PRICES). */
const CALL_COST_USD = (11 * 2 + 7 * 8) / 1e6;
const LANES = 8;
/** The calls' prompt, unique to this run, to tell them apart at the fake upstream. */
const PROMPT = `Say hello (${randomUUID()})`;

describe.skipIf(!inject('databaseUrl'))('Redis restart during a burst against a small budget (production build)', () => {
  let buildDir: string;
  let redis: RedisProcess | undefined;
  let stack: FaultStack | undefined;

  beforeAll(async () => {
    [buildDir, redis] = await Promise.all([buildProduction(`redis-outage-${process.pid}`), startRedisServer()]);
  }, 600_000); // tsc of the whole tree: minutes on a busy machine
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
    if (buildDir) fs.rmSync(buildDir, { recursive: true, force: true });
  });

  it('refuses paid calls while Redis is away, records each call once, and never spends past the cap plus the calls in flight', { timeout: 300_000 }, async () => {
    stack = await startFaultStack({
      buildDir,
      databaseUrl: inject('databaseUrl')!,
      redisUrl: redis!.url,
      temporalAddress: inject('temporalAddress'),
      bundlePath: inject('workflowBundlePath'),
      upstreamLatencyMs: 300,
    });
    const key = stack.org.owner.key;
    const budget = await call(stack.baseUrl, 'PUT', '/billing/budget', { key, body: { monthlyCap: CAP_USD } });
    expect(budget.status, budget.text).toBe(200);

    const statuses: Array<{ status: number; during: boolean }> = [];
    let answered = 0;
    let outage: Promise<void> | undefined;
    let redisAway = false;
    let inFlightAtKill = 0;
    let inFlight = 0;
    const lane = async () => {
      let refusedInARow = 0;
      while (refusedInARow < 5) {
        inFlight += 1;
        const res = await call(stack!.baseUrl, 'POST', '/chat/completions', {
          key, body: { model: 'standard', max_tokens: 7, messages: [{ role: 'user', content: PROMPT }] },
        }).catch(() => ({ status: 0 }));
        inFlight -= 1;
        statuses.push({ status: res.status, during: redisAway });
        if (res.status === 200) answered += 1;
        // 402 after Redis came back: the budget is spent. Before the outage or during it, go on.
        refusedInARow = res.status === 402 && outage && !redisAway ? refusedInARow + 1 : 0;
        if (!outage && answered * CALL_COST_USD >= CAP_USD * 0.6) {
          outage = (async () => {
            inFlightAtKill = inFlight;
            redisAway = true;
            await redis!.kill();
            await new Promise((resolve) => setTimeout(resolve, 3_000)); // the outage itself, not a wait for a condition
            await redis!.restart();
            redisAway = false;
          })();
        }
        if (res.status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));
    await outage;

    // This test's calls only: on the suite's shared Temporal server and database, another test's
    // leftover activity retrying against a port the fake upstream now holds reaches it too.
    const upstreamAnswers = stack.upstream.requests.filter((request) => !request.closedEarly && JSON.stringify(request.body).includes(PROMPT)).length;
    // The recorder flushes every 200 ms (later after a failed write): wait until it caught up.
    const recorded = await waitFor(async () => {
      const found = await usageOf(inject('databaseUrl')!, stack!.org.id);
      return found.count >= upstreamAnswers ? found : undefined;
    }, { timeoutMs: 20_000, intervalMs: 500, what: 'the usage records' }).catch(() => usageOf(inject('databaseUrl')!, stack!.org.id));
    // Setting the same cap answers with the budget's spend counter as Redis holds it now.
    const after = await call(stack.baseUrl, 'PUT', '/billing/budget', { key, body: { monthlyCap: CAP_USD } });
    const summary = {
      answered, upstreamAnswers, records: recorded.count, recordedUsd: recorded.cost, counterUsd: after.body.spent, capUsd: CAP_USD,
      inFlightAtKill, statuses: countBy(statuses.map((s) => `${s.during ? 'during' : 'outside'} ${s.status}`)),
    };
    process.stdout.write(`[faults] Redis restart against a budget: ${JSON.stringify(summary)}\n`);
    const foreign = stack.upstream.requests.filter((request) => !JSON.stringify(request.body).includes(PROMPT));
    if (foreign.length > 0) process.stdout.write(`[faults] ${foreign.length} requests at the fake upstream were not this test's: ${JSON.stringify(foreign[0]!.body).slice(0, 300)}\n`);
    if (recorded.count !== upstreamAnswers) {
      // What the gateway recorded of every call, to tell which answered upstream calls went unbilled.
      process.stdout.write(`[faults] request records by outcome: ${JSON.stringify(await recordsByOutcome(inject('databaseUrl')!, stack.org.id))}\n`);
    }

    // Paid calls while Redis was away: refused with 503, never sent upstream unchecked (a call decided just before the kill may still answer).
    expect(statuses.filter((s) => s.during && ![200, 402, 503].includes(s.status))).toEqual([]);
    expect(statuses.filter((s) => !s.during && ![200, 402, 503].includes(s.status))).toEqual([]);
    // Each answered call recorded once.
    expect(recorded.count).toBe(upstreamAnswers);
    // Within the cap, plus at most the calls whose holds vanished with Redis.
    expect(recorded.cost).toBeLessThanOrEqual(CAP_USD + inFlightAtKill * CALL_COST_USD + 1e-9);
    // The reloaded counter agrees with the records: nothing counted twice, nothing lost.
    expect(after.body.spent).toBeCloseTo(recorded.cost, 6);
  });
});

async function usageOf(databaseUrl: string, organizationId: string): Promise<{ count: number; cost: number }> {
  const orm = await openDatabase({ databaseUrl }, { entities });
  try {
    const [row] = await orm.em.getConnection().execute<Array<{ n: string; cost: string | null }>>(
      `select count(*) as n, sum("cost") as cost from "usage_records" where "organization_id" = ?`, [organizationId]);
    return { count: Number(row!.n), cost: Number(row!.cost ?? 0) };
  } finally {
    await orm.close();
  }
}

async function recordsByOutcome(databaseUrl: string, organizationId: string): Promise<unknown[]> {
  const orm = await openDatabase({ databaseUrl }, { entities });
  try {
    return await orm.em.getConnection().execute(
      `select "outcome", "status", "error_code", "attempts", count(*) as n from "gateway_requests" where "organization_id" = ? group by 1, 2, 3, 4 order by 5 desc`,
      [organizationId],
    );
  } finally {
    await orm.close();
  }
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
