// Scheduled runs started ahead of their fire (AUTOMATION_CODE 2, AUTOMATION_ARM_LEAD_SECONDS=60) on
// the real stack: the entity starts `run/<id>` up to the arm lead before the fire and the run waits on its own
// timer, so it has no row until the fire and begins at it; a pause before the fire disarms it (no
// row, no run), a delete cancels it (no row); a fire while another run of the automation is still
// running is skipped and counted. With RECORD_HISTORIES=1 the histories are written as replay
// fixtures for test/workflows/replay.test.ts.
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { automationStateQuery, type ArmedRun } from '../../src/workflows/automation.contract.js';
import type { RunWorkflowResult } from '../../src/workflows/run.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { RECORDING, writeHistoryFixture } from '../helpers/histories.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, startStackWorker, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  stack = await startStack({
    env: {
      AUTOMATION_MIN_INTERVAL_SECONDS: '1',
      AUTOMATION_ARM_LEAD_SECONDS: '60',
      // A hanging model call holds until its run is cancelled (no upstream timeout and retry meanwhile).
      GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream, timeoutMs: 120_000 })),
    },
  });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key: org.member.key, body });
const workflow = (id: string) => stack.runtime.temporal.client.workflow.getHandle(id);

/** Every 20 seconds: the first fire is armed at once (it is within the 60 s lead), the next ones 5-10 s ahead. */
async function createEvery20Seconds(): Promise<string> {
  const res = await api('POST', '/automations', { name: 'Armed', systemPrompt: 'Say hi.', schedule: '*/20 * * * * *', model: 'fake-model' });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

/**
 * The run the entity started ahead of a fire at least `margin` ms away. The entity's state names
 * the run as soon as it commands the start, so this also waits for the server to have started it.
 */
async function armedRun(automationId: string, margin: number): Promise<ArmedRun> {
  return waitFor(async () => {
    const { armed } = await workflow(`automation/${automationId}`).query(automationStateQuery);
    if (!armed || armed.fireAt <= Date.now() + margin) return null;
    return await workflow(`run/${armed.runId}`).describe().then(() => armed, (error: unknown) => {
      if (error instanceof WorkflowNotFoundError) return null;
      throw error;
    });
  }, { timeoutMs: 30_000, intervalMs: 200, what: 'a run started ahead of its fire' });
}

async function runsOf(automationId: string): Promise<{ id: string; status: string; startedAt: string; trigger: string }[]> {
  const res = await api('GET', `/automations/${automationId}/runs?limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.body.runs;
}

/** The local activities a history ran (the run's row writes are its local activities). */
function localActivities(history: Awaited<ReturnType<ReturnType<typeof workflow>['fetchHistory']>>): string[] {
  return (history.events ?? []).flatMap((event) => event.markerRecordedEventAttributes?.markerName === 'core_local_activity'
    ? [JSON.parse(Buffer.from(event.markerRecordedEventAttributes.details!.data!.payloads![0]!.data!).toString('utf8')).activity_type as string]
    : []);
}

describe('scheduled runs started ahead of their fire', () => {
  it('waits for its fire without a row, then records itself and begins at the fire', async () => {
    const automationId = await createEvery20Seconds();
    const armed = await armedRun(automationId, 1500);
    const run = workflow(`run/${armed.runId}`);
    expect((await run.describe()).status.name).toBe('RUNNING');
    expect((await runsOf(automationId)).map((each) => each.id)).not.toContain(armed.runId);
    // The API shows the fire the run waits for as the next one.
    expect(Date.parse((await api('GET', `/automations/${automationId}`)).body.nextRunAt)).toBe(armed.fireAt);

    expect(await run.result()).toMatchObject({ status: 'success' } satisfies Partial<RunWorkflowResult>);
    const row = (await runsOf(automationId)).find((each) => each.id === armed.runId);
    expect(row).toMatchObject({ status: 'success', trigger: 'schedule' });
    // Begun at the fire (its workflow task's time), not when its workflow was started.
    expect(Date.parse(row!.startedAt)).toBeGreaterThanOrEqual(armed.fireAt);
    expect(Date.parse(row!.startedAt)).toBeLessThan(armed.fireAt + 10_000);
    expect((await run.describe()).startTime.getTime()).toBeLessThan(armed.fireAt);
    // The row's next fire moved on from the one the run waited for.
    const view = (await api('GET', `/automations/${automationId}`)).body;
    expect(Date.parse(view.nextRunAt)).toBeGreaterThan(armed.fireAt);
    expect(Date.parse(view.lastRunAt)).toBe(Date.parse(row!.startedAt));
    if (RECORDING) writeHistoryFixture('run-armed.code-2.history.bin', await run.fetchHistory());
    await api('POST', `/automations/${automationId}/pause`);
  }, 90_000);

  it('a pause before the fire disarms the run (no row, no run), and a delete cancels the one armed after activate', async () => {
    const automationId = await createEvery20Seconds();
    const first = await armedRun(automationId, 3000);
    const paused = await api('POST', `/automations/${automationId}/pause`);
    expect(paused.status, paused.text).toBe(200);
    const disarmed = workflow(`run/${first.runId}`);
    expect(await disarmed.result()).toMatchObject({ status: 'disarmed' });
    expect(localActivities(await disarmed.fetchHistory())).toEqual([]);
    expect((await api('GET', `/automations/${automationId}`)).body).toMatchObject({ status: 'paused', nextRunAt: null });

    const activated = await api('POST', `/automations/${automationId}/activate`);
    expect(activated.status, activated.text).toBe(200);
    const second = await armedRun(automationId, 2000);
    expect(second.runId).not.toBe(first.runId);
    const deleted = await api('DELETE', `/automations/${automationId}`);
    expect(deleted.status, deleted.text).toBe(204);
    const cancelled = workflow(`run/${second.runId}`);
    await waitFor(async () => (await cancelled.describe()).status.name === 'CANCELLED', { timeoutMs: 20_000, what: 'the armed run to be cancelled' });
    expect(localActivities(await cancelled.fetchHistory())).toEqual([]);
    // Past both fires: neither run ever wrote a row (the automation's rows are gone with it too).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, second.fireAt - Date.now()) + 1000));
    const rows = await stack.runtime.orm.em.getConnection().execute<{ n: number }[]>(
      'select count(*)::int as n from "automation_runs" where "id" in (?, ?)', [first.runId, second.runId],
    );
    expect(rows[0]!.n).toBe(0);
    if (RECORDING) {
      writeHistoryFixture('run-disarmed.code-2.history.bin', await disarmed.fetchHistory());
      writeHistoryFixture('automation-armed.code-2.history.bin', await workflow(`automation/${automationId}`).fetchHistory());
    }
  }, 90_000);

  it('skips and counts a fire while a manual run is still running', async () => {
    const automationId = await createEvery20Seconds();
    const armed = await armedRun(automationId, 3000);
    // The manual run's model call hangs past the fire (until the run is cancelled).
    const requestsBefore = upstream.requests.length;
    upstream.enqueue({ hang: true });
    const manual = await api('POST', `/automations/${automationId}/run`);
    expect(manual.status, manual.text).toBe(202);
    await waitFor(async () => upstream.requests.length > requestsBefore, { what: 'the manual run to reach the upstream' });

    expect(await workflow(`run/${armed.runId}`).result()).toMatchObject({ status: 'skipped' });
    const view = await waitFor(async () => {
      const body = (await api('GET', `/automations/${automationId}`)).body;
      return body.skippedFires === 1 ? body : null;
    }, { timeoutMs: 20_000, what: 'the skipped fire to be counted' });
    expect(Date.parse(view.nextRunAt)).toBeGreaterThan(armed.fireAt);
    const runs = await runsOf(automationId);
    expect(runs.map((each) => each.id)).not.toContain(armed.runId);
    expect(runs.find((each) => each.id === manual.body.runId)).toMatchObject({ status: 'running', trigger: 'manual' });
    await api('POST', `/automations/${automationId}/pause`);
    expect((await api('POST', `/automations/${automationId}/runs/${manual.body.runId}/cancel`)).status).toBe(200);
    if (RECORDING) {
      writeHistoryFixture('run-skipped.code-2.history.bin', await workflow(`run/${armed.runId}`).fetchHistory());
      writeHistoryFixture('automation-skipped.code-2.history.bin', await workflow(`automation/${automationId}`).fetchHistory());
    }
  }, 90_000);
});

describe('a run started ahead of a fire the workers missed', () => {
  // A stack of its own with a 2 s catch-up window: the run's timer comes later than that after the
  // fire when the worker is away across it, and the run skips the fire (the default window is an hour).
  let windowed: Stack | undefined;
  afterAll(async () => {
    await windowed?.stop();
  });

  it('skips the fire when its timer comes later than the automation\'s catch-up window after it', async () => {
    windowed = await startStack({ env: { AUTOMATION_MIN_INTERVAL_SECONDS: '1', AUTOMATION_ARM_LEAD_SECONDS: '60', AUTOMATION_CATCHUP_WINDOW_SECONDS: '2' } });
    const owner = await createTestOrganization(windowed.runtime.orm);
    const client = windowed.runtime.temporal.client;
    const created = await call(windowed.baseUrl, 'POST', '/automations', {
      key: owner.member.key, body: { name: 'Armed, short window', systemPrompt: 'Say hi.', schedule: '*/20 * * * * *' },
    });
    expect(created.status, created.text).toBe(201);
    const armed = await waitFor(async () => {
      const { armed: run } = await client.workflow.getHandle(`automation/${created.body.id}`).query(automationStateQuery);
      return run && run.fireAt > Date.now() + 4000 ? run : null;
    }, { timeoutMs: 30_000, intervalMs: 200, what: 'a run started ahead of its fire' });
    await client.workflow.getHandle(`run/${armed.runId}`).describe();

    // The worker is away from before the fire until well past the window after it.
    await windowed.worker!.stop();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, armed.fireAt + 5000 - Date.now()))); // the outage itself
    windowed.worker = await startStackWorker(windowed);

    const result = await client.workflow.getHandle(`run/${armed.runId}`).result() as RunWorkflowResult;
    expect(result.status).toBe('skipped');
    const runs = await call(windowed.baseUrl, 'GET', `/automations/${created.body.id}/runs?limit=100`, { key: owner.member.key });
    expect(runs.body.runs.map((run: { id: string }) => run.id)).not.toContain(armed.runId);
    await call(windowed.baseUrl, 'POST', `/automations/${created.body.id}/pause`, { key: owner.member.key });
  }, 120_000);
});
