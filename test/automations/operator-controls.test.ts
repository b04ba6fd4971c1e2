// Operator controls on the real stack: the signals (`pause`, `activate`, `schedule`) sent to
// `automation/<id>` from a Temporal client, as the Web UI or `temporal workflow signal` sends them,
// reach the API's view; cancel and retry of a run (through the API, and a cancel from a Temporal
// client); and the references an automation names (model, tools, skill) checked when it is saved.
// With RECORD_HISTORIES=1 the cancelled run's history and those of a scenario on a fast-firing stack
// (a run carried over a continue-as-new, a lean scheduled run, the signals) are written as replay
// fixtures for test/workflows/replay.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextFireTime } from '../../src/schedule/schedule.js';
import { automationStateQuery } from '../../src/workflows/automation.contract.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { RECORDING, patchIds, writeHistoryFixture } from '../helpers/histories.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let other: TestOrganization;
let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  stack = await startStack({ env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })) } });
  [org, other] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
});
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

const api = (method: string, path: string, body?: unknown, key = org.member.key) => call(stack.baseUrl, method, path, { key, body });

async function createAutomation(overrides: Record<string, unknown> = {}) {
  const res = await api('POST', '/automations', { name: 'Operated', systemPrompt: 'Say hi.', schedule: '0 9 * * *', model: 'fake-model', ...overrides });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; status: string; schedule: string; timezone: string; nextRunAt: string | null };
}

const entity = (id: string) => stack.runtime.temporal.client.workflow.getHandle(`automation/${id}`);
const view = async (id: string) => (await api('GET', `/automations/${id}`)).body;

describe('signals from a Temporal client', () => {
  it('pause: the API shows the automation paused', async () => {
    const created = await createAutomation();
    expect(created.status).toBe('active');
    await entity(created.id).signal('pause');
    const paused = await waitFor(async () => {
      const current = await view(created.id);
      return current.status === 'paused' && current;
    }, { timeoutMs: 10_000, what: 'the pause signal to reach the database' });
    expect(paused.nextRunAt).toBeNull();
    expect((await entity(created.id).query(automationStateQuery)).status).toBe('paused');
  });

  it('activate: the API shows the automation active with its next fire', async () => {
    const created = await createAutomation({ status: 'paused' });
    await entity(created.id).signal('activate');
    const active = await waitFor(async () => {
      const current = await view(created.id);
      return current.status === 'active' && current;
    }, { timeoutMs: 10_000, what: 'the activate signal to reach the database' });
    expect(Date.parse(active.nextRunAt)).toBeGreaterThan(Date.now());
  });

  it('schedule: the API shows the new schedule, time zone and next fire', async () => {
    const created = await createAutomation();
    await entity(created.id).signal('schedule', { schedule: '30 6 * * 1', timezone: 'Europe/Paris' });
    const changed = await waitFor(async () => {
      const current = await view(created.id);
      return current.schedule === '30 6 * * 1' && current;
    }, { timeoutMs: 10_000, what: 'the schedule signal to reach the database' });
    expect(changed.timezone).toBe('Europe/Paris');
    const expected = nextFireTime('30 6 * * 1', 'Europe/Paris', new Date())!.toISOString();
    expect(changed.nextRunAt).toBe(expected);
    const list = await api('GET', '/automations');
    expect(list.body.automations.find((item: { id: string }) => item.id === created.id)).toMatchObject({ schedule: '30 6 * * 1', nextRunAt: expected });
  });

  it('an invalid schedule signal is rejected and changes nothing', async () => {
    const created = await createAutomation({ timezone: 'America/New_York' });
    const before = await view(created.id);
    const handle = entity(created.id);
    await handle.signal('schedule', { schedule: 'every morning', timezone: 'UTC' });
    await handle.signal('schedule', { schedule: '0 7 * * *', timezone: 'Mars/Olympus' });
    await handle.signal('schedule', { schedule: '*/30 * * * * *' }); // a seconds field, below the 60 s minimum
    await handle.signal('schedule', { timezone: 'UTC' } as never);
    // Signals are applied in order: once this one shows, the ones before it were handled.
    await handle.signal('pause');
    const after = await waitFor(async () => {
      const current = await view(created.id);
      return current.status === 'paused' && current;
    }, { timeoutMs: 10_000, what: 'the pause signal after the rejected ones' });
    expect(after).toMatchObject({ schedule: before.schedule, timezone: before.timezone });
    const state = await handle.query(automationStateQuery);
    expect(state).toMatchObject({ schedule: '0 9 * * *', timezone: 'America/New_York', status: 'paused' });
  });

  it('the API still edits the schedule after signals, and a schedule the workflow refuses never reaches the row', async () => {
    const created = await createAutomation();
    await entity(created.id).signal('schedule', { schedule: '15 8 * * *', timezone: 'UTC' });
    await waitFor(async () => (await view(created.id)).schedule === '15 8 * * *', { timeoutMs: 10_000, what: 'the signal' });
    const edited = await api('PUT', `/automations/${created.id}`, { schedule: '45 10 * * *' });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ schedule: '45 10 * * *', timezone: 'UTC', nextRunAt: nextFireTime('45 10 * * *', 'UTC', new Date())!.toISOString() });
    const refused = await api('PUT', `/automations/${created.id}`, { schedule: '61 * * * *' });
    expect(refused.status).toBe(400);
    expect((await view(created.id)).schedule).toBe('45 10 * * *');
  });
});

describe('cancel and retry of a run', () => {
  async function startHangingRun(automationId: string) {
    const requestsBefore = upstream.requests.length;
    upstream.enqueue({ hang: true });
    const started = await api('POST', `/automations/${automationId}/run`);
    expect(started.status, started.text).toBe(202);
    await waitFor(async () => upstream.requests.length > requestsBefore, { timeoutMs: 30_000, what: 'the model call to reach the upstream' });
    return started.body.runId as string;
  }
  const runOf = async (automationId: string, runId: string) =>
    (await api('GET', `/automations/${automationId}/runs?limit=100`)).body.runs.find((run: { id: string }) => run.id === runId);

  it('cancels a running run through the API: failure, error "cancelled", the run workflow cancelled', async () => {
    const automation = await createAutomation({ status: 'paused' });
    const runId = await startHangingRun(automation.id);
    const cancelled = await api('POST', `/automations/${automation.id}/runs/${runId}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ id: runId, status: 'failure', error: 'cancelled', retryOf: null });
    expect(await runOf(automation.id, runId)).toMatchObject({ status: 'failure', error: 'cancelled' });
    const description = await stack.runtime.temporal.client.workflow.getHandle(`run/${runId}`).describe();
    expect(description.status.name).toBe('CANCELLED');
    // An ended run cannot be cancelled again.
    const again = await api('POST', `/automations/${automation.id}/runs/${runId}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'conflict', param: 'runId' });
  }, 60_000);

  it('records a cancel sent from a Temporal client (Web UI, temporal workflow cancel) the same way', async () => {
    const automation = await createAutomation({ status: 'paused' });
    const runId = await startHangingRun(automation.id);
    await stack.runtime.temporal.client.workflow.getHandle(`run/${runId}`).cancel();
    const run = await waitFor(async () => {
      const current = await runOf(automation.id, runId);
      return current?.status !== 'running' && current;
    }, { timeoutMs: 15_000, what: 'the cancelled run to record its end' });
    expect(run).toMatchObject({ status: 'failure', error: 'cancelled' });
    // The automation hears that the run ended (no scheduled fire is skipped as overlapping).
    await waitFor(async () => (await entity(automation.id).query(automationStateQuery)).running.length === 0, { timeoutMs: 10_000, what: 'the run to report back' });
    if (RECORDING) {
      const handle = stack.runtime.temporal.client.workflow.getHandle(`run/${runId}`);
      await waitFor(async () => (await handle.describe()).status.name === 'CANCELLED', { what: 'the run workflow to close' });
      const history = await handle.fetchHistory();
      // The run's input (codeVersion) chose the `lean-run` path: no patch marker.
      expect(patchIds(history)).toEqual([]);
      writeHistoryFixture('run-manual-cancelled.code-2.history.bin', history);
    }
  }, 60_000);

  it('records a run terminated from a Temporal client (Web UI, temporal workflow terminate) as failure "terminated"', async () => {
    const automation = await createAutomation({ status: 'paused' });
    const runId = await startHangingRun(automation.id);
    // Terminate gives the run no chance to record its end: its automation's workflow records it.
    await stack.runtime.temporal.client.workflow.getHandle(`run/${runId}`).terminate('operator: stuck model call');
    const run = await waitFor(async () => {
      const current = await runOf(automation.id, runId);
      return current?.status !== 'running' && current;
    }, { timeoutMs: 15_000, what: 'the terminated run to be recorded as ended' });
    expect(run).toMatchObject({ status: 'failure', error: 'terminated' });
    expect(run.completedAt).not.toBeNull();
    await waitFor(async () => (await entity(automation.id).query(automationStateQuery)).running.length === 0, { timeoutMs: 10_000, what: 'the run to be forgotten' });
    // Ended: no cancel, and a retry starts a new run.
    expect((await api('POST', `/automations/${automation.id}/runs/${runId}/cancel`)).status).toBe(409);
    upstream.enqueue({ content: 'retried' });
    const retried = await api('POST', `/automations/${automation.id}/runs/${runId}/retry`);
    expect(retried.status, retried.text).toBe(202);
  }, 60_000);

  it('retries an ended run as a new manual run with retryOf and the same context', async () => {
    const automation = await createAutomation({ status: 'paused' });
    const runId = await startHangingRun(automation.id);
    expect((await api('POST', `/automations/${automation.id}/runs/${runId}/retry`)).status).toBe(409); // still running
    expect((await api('POST', `/automations/${automation.id}/runs/${runId}/cancel`)).status).toBe(200);

    const retried = await api('POST', `/automations/${automation.id}/runs/${runId}/retry`);
    expect(retried.status, retried.text).toBe(202);
    expect(retried.body).toMatchObject({ automationId: automation.id, status: 'running', retryOf: runId });
    expect(retried.body.runId).not.toBe(runId);
    const run = await waitFor(async () => {
      const current = await runOf(automation.id, retried.body.runId);
      return current?.status === 'success' && current;
    }, { timeoutMs: 30_000, what: 'the retry to succeed' });
    expect(run).toMatchObject({ trigger: 'manual', retryOf: runId, error: null });
    const detail = await view(automation.id);
    expect(detail.runSummary.recentRuns.find((recent: { id: string }) => recent.id === retried.body.runId).retryOf).toBe(runId);
  }, 60_000);

  it('answers 404 for an unknown run, a run of another automation, and another organization', async () => {
    const first = await createAutomation({ status: 'paused' });
    const second = await createAutomation({ status: 'paused' });
    const started = await api('POST', `/automations/${first.id}/run`);
    expect(started.status).toBe(202);
    const runId = started.body.runId as string;
    for (const action of ['cancel', 'retry']) {
      // A malformed id is 400 naming the parameter (docs/DESIGN-NOTES.md); a well-formed unknown one 404.
      const malformed = await api('POST', `/automations/${first.id}/runs/not-a-uuid/${action}`);
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toMatchObject({ code: 'bad_request', param: 'runId' });
      expect((await api('POST', `/automations/${first.id}/runs/${crypto.randomUUID()}/${action}`)).status).toBe(404);
      expect((await api('POST', `/automations/${second.id}/runs/${runId}/${action}`)).status).toBe(404);
      expect((await api('POST', `/automations/${first.id}/runs/${runId}/${action}`, undefined, other.owner.key)).status).toBe(404);
    }
  }, 60_000);
});

describe('references checked at create and edit', () => {
  const base = { name: 'Checked', systemPrompt: 'x', schedule: '0 9 * * *', status: 'paused' };

  it.each([
    [{ model: 'no-such-model' }, 'model'],
    [{ tools: ['no-such-connector'] }, 'tools[0]'],
    [{ tools: [] as string[], skillId: '00000000-0000-4000-8000-000000000000' }, 'skillId'],
  ])('create with %j answers 400 naming %s', async (overrides, param) => {
    const res = await api('POST', '/automations', { ...base, ...overrides });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', param });
  });

  it('accepts the gateway models and tiers', async () => {
    for (const model of ['fake-model', 'standard', 'premium']) {
      const res = await api('POST', '/automations', { ...base, model });
      expect(res.status, `${model}: ${res.text}`).toBe(201);
    }
  });

  it('needs a connection of the owner for each tool; another user or organization does not count', async () => {
    const organization = await createTestOrganization(stack.runtime.orm);
    const as = (key: string) => (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key, body });
    const connect = (key: string) => as(key)('POST', '/tools/connections', { toolId: 'github', name: 'GitHub', env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_example' } });
    // Another organization's and another user's connections are not the member's.
    expect((await connect(other.member.key)).status).toBe(201);
    expect((await connect(organization.admin.key)).status).toBe(201);
    const refused = await as(organization.member.key)('POST', '/automations', { ...base, tools: ['github'] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'bad_request', param: 'tools[0]' });

    const created = await as(organization.member.key)('POST', '/automations', { ...base });
    expect(created.status).toBe(201);
    // Only the owner changes what it runs: an admin (who has a connection) cannot give it tools.
    const adminEdit = await as(organization.admin.key)('PUT', `/automations/${created.body.id}`, { tools: ['github'] });
    expect(adminEdit.status).toBe(403);
    expect(adminEdit.body.error).toMatchObject({ code: 'forbidden', param: 'tools' });
    // The owner without a connection of their own: the admin's connection does not count.
    const ownerEdit = await as(organization.member.key)('PUT', `/automations/${created.body.id}`, { tools: ['github'] });
    expect(ownerEdit.status).toBe(400);
    expect(ownerEdit.body.error.param).toBe('tools[0]');

    expect((await connect(organization.member.key)).status).toBe(201);
    const accepted = await as(organization.member.key)('PUT', `/automations/${created.body.id}`, { tools: ['github'] });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.tools).toEqual(['github']);
    const unknownSecond = await as(organization.member.key)('PUT', `/automations/${created.body.id}`, { tools: ['github', 'nope'] });
    expect(unknownSecond.body.error).toMatchObject({ code: 'bad_request', param: 'tools[1]' });
  });

  it('checks model and skill version on edit', async () => {
    const created = await createAutomation({ status: 'paused' });
    const badModel = await api('PUT', `/automations/${created.id}`, { model: 'gpt-nonexistent' });
    expect(badModel.status).toBe(400);
    expect(badModel.body.error.param).toBe('model');
    const skill = await api('POST', '/skills', { name: `Skill ${crypto.randomUUID()}`, description: 'd', category: 'development', systemPrompt: 'Be brief.', visibility: 'team' });
    expect(skill.status, skill.text).toBe(201);
    const badVersion = await api('PUT', `/automations/${created.id}`, { skillId: skill.body.id, skillVersion: 99 });
    expect(badVersion.status).toBe(400);
    expect(badVersion.body.error.param).toBe('skillVersion');
    expect((await view(created.id)).model).toBe('fake-model');
  });
});

// Only with RECORD_HISTORIES=1: one automation on a stack that fires every second and continues
// as new after a few skipped fires, so a run started by the first execution is carried into the
// second. Its histories become replay fixtures of the `carried-runs` and `lean-run` paths and of
// the operator signals.
describe.runIf(RECORDING)('histories recorded for the replay test', () => {
  let fast: Stack;
  beforeAll(async () => {
    fast = await startStack({
      env: {
        // The hanging model call holds until it is cancelled (no upstream timeout and retry meanwhile).
        GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream, timeoutMs: 120_000 })),
        AUTOMATION_MIN_INTERVAL_SECONDS: '1',
        // Skipped fires (about 11 events each) reach this in some 14 s; the second execution's whole scenario stays below it.
        AUTOMATION_CONTINUE_AS_NEW_EVENTS: '150',
      },
    });
  });
  afterAll(async () => {
    await fast?.stop();
  });

  it('a run carried over a continue-as-new and cancelled, a fire that starts a lean run, pause, schedule (refused and applied), activate', async () => {
    const owner = await createTestOrganization(fast.runtime.orm);
    const fastApi = (method: string, path: string, body?: unknown) => call(fast.baseUrl, method, path, { key: owner.member.key, body });
    const client = fast.runtime.temporal.client;
    const requestsBefore = upstream.requests.length;
    upstream.enqueue({ hang: true }); // the first fire's run hangs at its model call until cancelled
    const created = await fastApi('POST', '/automations', { name: 'Recorded', systemPrompt: 'Say hi.', schedule: '* * * * * *', model: 'fake-model' });
    expect(created.status, created.text).toBe(201);
    const automationId = created.body.id as string;
    const handle = client.workflow.getHandle(`automation/${automationId}`);
    const firstExecution = (await handle.describe()).runId;
    await waitFor(async () => upstream.requests.length > requestsBefore, { timeoutMs: 20_000, what: 'the first run to reach the upstream' });
    const carriedRunId = (await handle.query(automationStateQuery)).running[0]!.runId;

    // The fires meanwhile are skipped (a run is running) until the history is long enough to continue as new.
    const secondExecution = await waitFor(async () => {
      const { runId } = await handle.describe();
      return runId !== firstExecution && runId;
    }, { timeoutMs: 60_000, intervalMs: 50, what: 'the continue-as-new' });
    await client.workflow.getHandle(`run/${carriedRunId}`).cancel();
    // A fire of the second execution learns from the database that the carried run ended and starts the next one.
    const listRuns = async () => (await fastApi('GET', `/automations/${automationId}/runs?limit=100`)).body.runs as { id: string; status: string }[];
    const nextRunId = await waitFor(async () => (await listRuns()).find((run) => run.id !== carriedRunId)?.id, {
      timeoutMs: 15_000, intervalMs: 50, what: 'a fire of the second execution to start a run',
    });
    const second = client.workflow.getHandle(`automation/${automationId}`, secondExecution);
    await second.signal('pause');
    await second.signal('schedule', { schedule: 'every morning', timezone: 'UTC' });
    await second.signal('schedule', { schedule: '30 6 * * 1', timezone: 'Europe/Paris' });
    await second.signal('activate');
    await waitFor(async () => {
      const current = (await fastApi('GET', `/automations/${automationId}`)).body;
      return current.status === 'active' && current.schedule === '30 6 * * 1';
    }, { what: 'the signals to reach the database' });
    await waitFor(async () => (await listRuns()).every((run) => run.status !== 'running'), { timeoutMs: 20_000, what: 'the runs to end' });
    await waitFor(async () => (await second.query(automationStateQuery)).running.length === 0, { what: 'the automation to hear the run ended' });

    const history = await second.fetchHistory();
    const events = history.events ?? [];
    expect(events[0]!.workflowExecutionStartedEventAttributes?.continuedExecutionRunId).toBe(firstExecution);
    // The state carried by the continue-as-new (codeVersion) chose `carried-runs` and
    // `fire-starts-run`: no patch marker.
    expect(patchIds(history)).toEqual([]);
    const localActivities = events.flatMap((event) => event.markerRecordedEventAttributes?.markerName === 'core_local_activity'
      ? [JSON.parse(Buffer.from(event.markerRecordedEventAttributes.details!.data!.payloads![0]!.data!).toString('utf8')).activity_type as string]
      : []);
    expect(localActivities).toContain('endedRuns');
    expect(events.filter((event) => event.startChildWorkflowExecutionInitiatedEventAttributes).length).toBeGreaterThanOrEqual(1);
    expect(events.flatMap((event) => event.workflowExecutionSignaledEventAttributes?.signalName ?? []))
      .toEqual(['pause', 'schedule', 'schedule', 'activate']);
    expect(events.some((event) => event.workflowExecutionContinuedAsNewEventAttributes)).toBe(false);
    expect(await second.query(automationStateQuery)).toMatchObject({ status: 'active', schedule: '30 6 * * 1', timezone: 'Europe/Paris' });

    const runHistory = async (runId: string, status: string) => {
      const run = client.workflow.getHandle(`run/${runId}`);
      await waitFor(async () => (await run.describe()).status.name === status, { what: `run/${runId} to be ${status}` });
      const recorded = await run.fetchHistory();
      expect(patchIds(recorded)).toEqual([]);
      return recorded;
    };
    writeHistoryFixture('run-scheduled-cancelled.code-2.history.bin', await runHistory(carriedRunId, 'CANCELLED'));
    // The completed scheduled run's path is recorded by automations.test.ts (run-scheduled.code-2).
    await runHistory(nextRunId, 'COMPLETED');
    writeHistoryFixture('automation-operated.code-2.history.bin', history);
    await fastApi('DELETE', `/automations/${automationId}`);
  }, 120_000);
});
