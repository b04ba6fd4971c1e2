// Missed fires with real outages (docs/design.md "Missed fires"): an automation on a seconds-level cron
// (every 2 s; AUTOMATION_MIN_INTERVAL_SECONDS=1) while (1) the worker is stopped for a few
// intervals and started again, and (2) the Temporal server (a dev server on a file of its own) is
// stopped and started again. Each time exactly one `catch-up` run comes for the latest fire missed
// (its `scheduledFor` within the outage), every other fire of the outage is counted in
// `missedFires`, and scheduled runs go on after it. test/automations/catch-up.test.ts covers the
// window itself (a fire older than it does not run).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startTemporalDevServer, type DevServer } from '../../src/dev/temporal-server.js';
import { nextFireTime } from '../../src/schedule/schedule.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, startStackWorker, type Stack } from '../helpers/stack.js';

const SCHEDULE = '*/2 * * * * *';
const OUTAGE_MS = 9_000;

interface RunSummary {
  id: string;
  trigger: string;
  status: string;
  scheduledFor: string | null;
  startedAt: string;
}

async function runsOf(stack: Stack, org: TestOrganization, automationId: string): Promise<RunSummary[]> {
  const res = await call(stack.baseUrl, 'GET', `/automations/${automationId}/runs?limit=100`, { key: org.member.key });
  if (res.status !== 200) throw new Error(`runs: ${res.status} ${res.text}`);
  return res.body.runs;
}

/** Cron instants strictly between `after` and `before`. */
function instantsBetween(after: number, before: number): number {
  let count = 0;
  for (let next = nextFireTime(SCHEDULE, 'UTC', new Date(after)); next && next.getTime() < before; next = nextFireTime(SCHEDULE, 'UTC', next)) count += 1;
  return count;
}

/**
 * Creates the automation, lets it fire, runs `outage` between two fires (no run in flight; it
 * returns when the outage began and lasts at least OUTAGE_MS), then
 * waits for the catch-up and two scheduled runs after it, pauses, and checks the outcome.
 */
async function expectOneCatchUp(stack: Stack, org: TestOrganization, outage: () => Promise<number>): Promise<void> {
  const api = (method: string, route: string) => call(stack.baseUrl, method, route, { key: org.member.key });
  const created = await call(stack.baseUrl, 'POST', '/automations', { key: org.member.key, body: { name: 'Every 2 s', systemPrompt: 'Tick.', schedule: SCHEDULE } });
  expect(created.status, created.text).toBe(201);
  const id: string = created.body.id;
  // Two scheduled runs done and none running: the outage starts between fires.
  await waitFor(async () => {
    const runs = await runsOf(stack, org, id);
    return runs.filter((run) => run.status === 'success').length >= 2 && runs.every((run) => run.status !== 'running');
  }, { timeoutMs: 60_000, intervalMs: 100, what: 'two scheduled runs before the outage' });

  const from = await outage();

  const runs = await waitFor(async () => {
    const all = await runsOf(stack, org, id);
    const catchUp = all.find((run) => run.trigger === 'catch-up');
    const after = catchUp ? all.filter((run) => run.trigger === 'schedule' && Date.parse(run.scheduledFor!) > Date.parse(catchUp.scheduledFor!)) : [];
    return after.length >= 2 ? all : undefined;
  }, { timeoutMs: 90_000, intervalMs: 250, what: 'the catch-up run and scheduled runs after it' });
  expect((await api('POST', `/automations/${id}/pause`)).status).toBe(200);

  const catchUps = runs.filter((run) => run.trigger === 'catch-up');
  expect(catchUps).toHaveLength(1);
  const catchUp = catchUps[0]!;
  const dueAt = Date.parse(catchUp.scheduledFor!);
  // The latest fire that came due while nothing could run it: after the outage began, and the last
  // instant before the workflow woke and started the catch-up (at most one more instant may fall
  // within that run's own start). The wake follows the restart by the worker's reconnection, a few
  // seconds on a loaded machine, so the test's clock at the restart does not bound it.
  const catchUpStarted = Date.parse(catchUp.startedAt);
  expect(dueAt).toBeGreaterThan(from);
  expect(dueAt).toBeLessThanOrEqual(catchUpStarted);
  expect(instantsBetween(dueAt, catchUpStarted)).toBeLessThanOrEqual(1);
  // Nothing ran it while the worker or the server was down.
  expect(catchUpStarted).toBeGreaterThanOrEqual(from + OUTAGE_MS);
  // Every instant between the last run before the outage and the catch-up's is counted.
  const before = runs.filter((run) => run.trigger === 'schedule' && Date.parse(run.scheduledFor!) < dueAt).map((run) => Date.parse(run.scheduledFor!));
  const lastBefore = Math.max(...before);
  const detail = await api('GET', `/automations/${id}`);
  // (Overlap's skippedFires may count a fire on a busy machine; missed fires are never counted there.)
  expect(detail.body.missedFires).toBe(instantsBetween(lastBefore, dueAt));
  expect(detail.body.missedFires).toBeGreaterThanOrEqual(2);
  await waitFor(async () => (await runsOf(stack, org, id)).every((run) => run.status !== 'running'), { timeoutMs: 30_000, what: 'runs to end' });
  expect((await runsOf(stack, org, id)).filter((run) => run.status !== 'success')).toEqual([]);
}

describe('missed fires in real outages', () => {
  /** How each stack is stopped (one whose worker was replaced: the replacement, then its API and runtime). */
  const cleanups: Array<() => Promise<void>> = [];
  let server: DevServer | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'missed-fires-'));
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs one catch-up run and counts the other fires when the worker was down for a few intervals', { timeout: 180_000 }, async () => {
    const stack = await startStack({ env: { AUTOMATION_MIN_INTERVAL_SECONDS: '1' } });
    cleanups.push(() => stack.stop());
    const org = await createTestOrganization(stack.runtime.orm);
    await expectOneCatchUp(stack, org, async () => {
      const from = Date.now();
      await stack.worker!.stop();
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS)); // the outage itself, not a wait for a condition
      stack.worker = await startStackWorker(stack);
      return from;
    });
  });

  it('runs one catch-up run and counts the other fires when the Temporal server was down for a few intervals', { timeout: 180_000 }, async () => {
    const port = await freePort();
    const dbFile = path.join(dir, 'temporal.sqlite');
    server = await startTemporalDevServer({ port, dbFile });
    const stack = await startStack({ env: { TEMPORAL_ADDRESS: server.address, AUTOMATION_MIN_INTERVAL_SECONDS: '1' } });
    cleanups.push(() => stack.stop());
    const org = await createTestOrganization(stack.runtime.orm);
    await expectOneCatchUp(stack, org, async () => {
      const from = Date.now();
      await server!.stop();
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS)); // the outage itself, not a wait for a condition
      server = await startTemporalDevServer({ port, dbFile });
      return from;
    });
  });
});
