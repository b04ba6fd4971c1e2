// The catch-up rule on the real stack: when the scheduler was down across fires (here: the entity
// workflow terminated, the row's pending fire moved into the past, the workflow restarted by
// reconciliation, as after an outage), the latest fire missed runs once as a `catch-up` run with its
// `scheduledFor` if it is younger than the catch-up window (AUTOMATION_CATCHUP_WINDOW_SECONDS, 20
// minutes here), and every other fire missed is counted in `missedFires`, apart from overlap's
// `skippedFires`. test/faults/missed-fires.test.ts shows the same with real outages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAutomationWorkflow } from '../../src/automations/automation-workflows.js';
import { Automation } from '../../src/automations/entities.js';
import { nextFireTime } from '../../src/schedule/schedule.js';
import { RECORDING, writeHistoryFixture } from '../helpers/histories.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ env: { AUTOMATION_MIN_INTERVAL_SECONDS: '1', AUTOMATION_CATCHUP_WINDOW_SECONDS: '1200' } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
});

const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key: org.member.key, body });

/** Every 15 minutes, the next fire 6-7 minutes from now: no natural fire happens during the test. */
function quarterHourlyScheduleAwayFromNow(): string {
  const offset = (new Date().getUTCMinutes() + 7) % 15;
  return `0 ${[0, 15, 30, 45].map((m) => m + offset).join(',')} * * * *`;
}

/** Hourly, its last fire 35 minutes ago (older than the 20-minute window), the next 25 minutes from now. */
function hourlyScheduleLastFiredLongAgo(): string {
  return `0 ${(new Date().getUTCMinutes() + 25) % 60} * * * *`;
}

/** The cron instants of `schedule` (UTC) after `from` up to now. */
function firesBetween(schedule: string, from: number): number[] {
  const fires: number[] = [];
  for (let next = nextFireTime(schedule, 'UTC', new Date(from)); next && next.getTime() <= Date.now(); next = nextFireTime(schedule, 'UTC', next)) fires.push(next.getTime());
  return fires;
}

/**
 * Simulates an outage: the scheduler is gone and, when it comes back, its pending fire is the
 * first cron instant of the last `downFor` ms. Returns the fires that came due meanwhile.
 */
async function outage(automationId: string, schedule: string, downFor: number): Promise<number[]> {
  const missed = firesBetween(schedule, Date.now() - downFor);
  await stack.runtime.temporal.client.workflow.getHandle(`automation/${automationId}`).terminate('test: scheduler outage');
  const em = stack.runtime.orm.em.fork();
  await em.nativeUpdate(Automation, { id: automationId }, { nextRunAt: new Date(missed[0]!) });
  const automation = await em.findOneOrFail(Automation, { id: automationId });
  await ensureAutomationWorkflow(stack.runtime, automation);
  return missed;
}

async function runsOf(automationId: string): Promise<any[]> {
  const res = await api('GET', `/automations/${automationId}/runs`);
  expect(res.status, res.text).toBe(200);
  return res.body.runs;
}

describe('catch-up after an outage', () => {
  it('runs the latest fire missed within the window once as a catch-up run, and counts the other missed fires', async () => {
    const schedule = quarterHourlyScheduleAwayFromNow();
    const created = await api('POST', '/automations', { name: 'Quarter-hourly', systemPrompt: 'Say hi.', schedule });
    expect(created.status, created.text).toBe(201);
    // Down for 40 minutes: three fires missed (about 38, 23 and 8 minutes ago).
    const missed = await outage(created.body.id, schedule, 40 * 60 * 1000);
    expect(missed).toHaveLength(3);

    await waitFor(async () => (await runsOf(created.body.id)).length === 1, { timeoutMs: 20_000, what: 'the catch-up run' });
    const [run] = await runsOf(created.body.id);
    expect(run.trigger).toBe('catch-up');
    expect(run.scheduledFor).toBe(new Date(missed.at(-1)!).toISOString());
    await waitFor(async () => (await runsOf(created.body.id))[0].status !== 'running', { timeoutMs: 20_000, what: 'the run to finish' });
    // No second catch-up: the next fire is the next cron instant after now.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await runsOf(created.body.id)).toHaveLength(1);
    const after = await api('GET', `/automations/${created.body.id}`);
    expect(Date.parse(after.body.nextRunAt)).toBeGreaterThan(Date.now());
    expect(Date.parse(after.body.nextRunAt) - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);
    expect(after.body).toMatchObject({ missedFires: 2, skippedFires: 0 });
    if (RECORDING) {
      const history = await stack.runtime.temporal.client.workflow.getHandle(`automation/${created.body.id}`).fetchHistory();
      writeHistoryFixture('automation-catch-up.code-3.history.bin', history);
    }
  });

  it('runs nothing and counts every missed fire when the latest is older than the catch-up window', async () => {
    const schedule = hourlyScheduleLastFiredLongAgo();
    const created = await api('POST', '/automations', { name: 'Long outage', systemPrompt: 'Say hi.', schedule });
    expect(created.status, created.text).toBe(201);
    // Down for 100 minutes: fires about 95 and 35 minutes ago, both older than the 20-minute window.
    const missed = await outage(created.body.id, schedule, 100 * 60 * 1000);
    expect(missed).toHaveLength(2);

    await waitFor(async () => (await api('GET', `/automations/${created.body.id}`)).body.missedFires === 2, {
      timeoutMs: 20_000,
      what: 'the missed fires to be counted',
    });
    const after = await api('GET', `/automations/${created.body.id}`);
    expect(Date.parse(after.body.nextRunAt)).toBeGreaterThan(Date.now());
    expect(after.body.skippedFires).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await runsOf(created.body.id)).toHaveLength(0);
  });
});
