// The catch-up rule on the real stack: when the scheduler was down across fires (here: the entity
// workflow terminated, the row's pending fire moved into the past, the workflow restarted by
// reconciliation, as after an outage), a fire missed by less than the catch-up window runs once,
// however many fires were missed, and one missed by more is skipped and counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAutomationWorkflow } from '../../src/automations/automation-workflows.js';
import { Automation } from '../../src/automations/entities.js';
import { CATCH_UP_WINDOW_MS } from '../../src/workflows/automation.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ env: { AUTOMATION_MIN_INTERVAL_SECONDS: '1' } });
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

/** Simulates an outage: the scheduler is gone and, when it comes back, its pending fire is `missedBy` ms old. */
async function outage(automationId: string, missedBy: number): Promise<void> {
  await stack.runtime.temporal.client.workflow.getHandle(`automation/${automationId}`).terminate('test: scheduler outage');
  const em = stack.runtime.orm.em.fork();
  await em.nativeUpdate(Automation, { id: automationId }, { nextRunAt: new Date(Date.now() - missedBy) });
  const automation = await em.findOneOrFail(Automation, { id: automationId });
  await ensureAutomationWorkflow(stack.runtime, automation);
}

async function runsOf(automationId: string): Promise<any[]> {
  const res = await api('GET', `/automations/${automationId}/runs`);
  expect(res.status, res.text).toBe(200);
  return res.body.runs;
}

describe('catch-up after an outage', () => {
  it('runs a fire missed within the window once, although three fires were missed', async () => {
    const created = await api('POST', '/automations', { name: 'Quarter-hourly', systemPrompt: 'Say hi.', schedule: quarterHourlyScheduleAwayFromNow() });
    expect(created.status, created.text).toBe(201);
    // Down for 40 minutes: the pending fire (40 min ago) and two more (25 and 10 min ago) missed.
    await outage(created.body.id, 40 * 60 * 1000);

    await waitFor(async () => (await runsOf(created.body.id)).length === 1, { timeoutMs: 20_000, what: 'the catch-up run' });
    const [run] = await runsOf(created.body.id);
    expect(run.trigger).toBe('schedule');
    await waitFor(async () => (await runsOf(created.body.id))[0].status !== 'running', { timeoutMs: 20_000, what: 'the run to finish' });
    // No second catch-up: the next fire is the next cron instant after now.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await runsOf(created.body.id)).toHaveLength(1);
    const after = await api('GET', `/automations/${created.body.id}`);
    expect(Date.parse(after.body.nextRunAt)).toBeGreaterThan(Date.now());
    expect(Date.parse(after.body.nextRunAt) - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);
    expect(after.body.skippedFires).toBe(0);
  });

  it('skips and counts a fire missed by more than the catch-up window', async () => {
    const created = await api('POST', '/automations', { name: 'Long outage', systemPrompt: 'Say hi.', schedule: quarterHourlyScheduleAwayFromNow() });
    expect(created.status, created.text).toBe(201);
    await outage(created.body.id, CATCH_UP_WINDOW_MS + 10 * 60 * 1000);

    await waitFor(async () => (await api('GET', `/automations/${created.body.id}`)).body.skippedFires === 1, {
      timeoutMs: 20_000,
      what: 'the skipped fire to be counted',
    });
    const after = await api('GET', `/automations/${created.body.id}`);
    expect(Date.parse(after.body.nextRunAt)).toBeGreaterThan(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await runsOf(created.body.id)).toHaveLength(0);
  });
});
