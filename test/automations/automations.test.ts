// Automations on the real stack: the API, the entity workflow on the Temporal dev server, run
// child workflows through the gateway's dev provider, and the run history in the database.
// Seconds-level crons with a low minimum interval keep the schedule tests short; a low
// continue-as-new threshold makes every long-lived automation here continue-as-new repeatedly.
// With RECORD_HISTORIES=1 a scheduled run's history is written as a replay fixture of the
// `carried-plan` path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileAutomationWorkflows } from '../../src/automations/automation-workflows.js';
import { AutomationRun } from '../../src/automations/entities.js';
import { UsageRecord } from '../../src/billing/entities.js';
import { automationStateQuery } from '../../src/workflows/automation.contract.js';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { RECORDING, patchIds, writeHistoryFixture } from '../helpers/histories.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let other: TestOrganization;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startStack({
    env: { AUTOMATION_MIN_INTERVAL_SECONDS: '1', AUTOMATION_CONTINUE_AS_NEW_EVENTS: '60', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  [org, other] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.stop();
  await stack?.stop();
});

const api = (method: string, path: string, body?: unknown, key = org.member.key) => call(stack.baseUrl, method, path, { key, body });

async function createAutomation(overrides: Record<string, unknown> = {}) {
  const res = await api('POST', '/automations', {
    name: 'Daily digest',
    systemPrompt: 'Summarise the day in three bullet points.',
    schedule: '0 9 * * *',
    ...overrides,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function runs(id: string, query = '') {
  const res = await api('GET', `/automations/${id}/runs${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { runs: any[]; total: number };
}

function entityHandle(id: string) {
  return stack.runtime.temporal.client.workflow.getHandle(`automation/${id}`);
}

describe('validation', () => {
  it.each([
    [{ systemPrompt: 'x', schedule: '* * * * *' }, 'name'],
    [{ name: 'n', schedule: '* * * * *' }, 'systemPrompt'],
    [{ name: 'n', systemPrompt: 'x' }, 'schedule'],
    [{ name: 'n', systemPrompt: 'x', schedule: 'every morning' }, 'schedule'],
    [{ name: 'n', systemPrompt: 'x', schedule: '0 0 30 2 *' }, 'schedule'],
    [{ name: 'n', systemPrompt: 'x', schedule: '* * * * *', timezone: 'Mars/Olympus' }, 'timezone'],
    [{ name: 'n', systemPrompt: 'x', schedule: '* * * * *', channels: [{ type: 'fax', target: '123' }] }, 'channels[0].type'],
    [{ name: 'n', systemPrompt: 'x', schedule: '* * * * *', channels: [{ type: 'email', target: 'not-an-address' }] }, 'channels[0].target'],
    [{ name: 'n', systemPrompt: 'x', schedule: '* * * * *', channels: [{ type: 'webhook', target: 'ftp://example.com' }] }, 'channels[0].target'],
    [{ name: 'n', systemPrompt: 'x', schedule: '* * * * *', tools: ['ok', 'not an id!'] }, 'tools[1]'],
    [{ name: 'n', systemPrompt: 'x', schedule: '* * * * *', color: 'red' }, 'color'],
  ])('answers 400 bad_request naming the field for %j', async (body, param) => {
    const res = await api('POST', '/automations', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', param });
  });

  it('validates the schedule and time zone on update', async () => {
    const created = await createAutomation({ status: 'paused' });
    const res = await api('PUT', `/automations/${created.id}`, { schedule: '* * * * * *', timezone: 'UTC' });
    expect(res.status).toBe(200); // every second is allowed at a 1 s minimum
    const bad = await api('PUT', `/automations/${created.id}`, { timezone: 'Nowhere/Land' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('timezone');
  });

  it('answers 400 for bad run-list queries', async () => {
    const created = await createAutomation({ status: 'paused' });
    for (const [query, param] of [['?limit=0', 'limit'], ['?limit=101', 'limit'], ['?offset=-1', 'offset'], ['?limit=abc', 'limit'], ['?status=done', 'status']]) {
      const res = await api('GET', `/automations/${created.id}/runs${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', param });
    }
  });
});

describe('create, read, list', () => {
  it('creates an active automation with defaults and its next fire time', async () => {
    // Tools name connectors the automation's owner (here its creator) has a connection to.
    const connection = await api('POST', '/tools/connections', { toolId: 'github', name: 'GitHub', env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_example' } });
    expect(connection.status, connection.text).toBe(201);
    // A Slack channel carries the organization's own bot token, which the view never shows.
    const created = await createAutomation({ timezone: 'America/New_York', tools: ['github'], channels: [{ type: 'slack', target: '#reports', token: 'xoxb-organization-own-app' }] });
    expect(created).toMatchObject({
      name: 'Daily digest',
      description: '',
      status: 'active',
      model: 'standard',
      timezone: 'America/New_York',
      tools: ['github'],
      channels: [{ type: 'slack', target: '#reports' }],
      lastRunAt: null,
    });
    expect(new Date(created.nextRunAt).getTime()).toBeGreaterThan(Date.now());
    const description = await entityHandle(created.id).describe();
    expect(description.status.name).toBe('RUNNING');
    expect(description.searchAttributes).toMatchObject({ OrganizationId: [org.id], AutomationId: [created.id] });
  });

  it('lists the organization automations with the spec fields, served from the database', async () => {
    const created = await createAutomation({ name: 'Listed', status: 'paused' });
    const res = await api('GET', '/automations');
    expect(res.status).toBe(200);
    const item = res.body.automations.find((a: any) => a.id === created.id);
    expect(Object.keys(item).sort()).toEqual(
      ['createdAt', 'description', 'id', 'lastRunAt', 'model', 'name', 'nextRunAt', 'schedule', 'status', 'timezone'].sort(),
    );
    expect(item).toMatchObject({ status: 'paused', nextRunAt: null });
    expect(res.body.total).toBe(res.body.automations.length);
  });

  it('hides other organizations automations behind 404', async () => {
    const created = await createAutomation({ status: 'paused' });
    for (const [method, path] of [['GET', ''], ['PUT', ''], ['DELETE', ''], ['POST', '/run'], ['POST', '/activate'], ['GET', '/runs']] as const) {
      const res = await api(method, `/automations/${created.id}${path}`, method === 'PUT' ? { name: 'x' } : undefined, other.owner.key);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    const list = await api('GET', '/automations', undefined, other.owner.key);
    expect(list.body.automations.map((a: any) => a.id)).not.toContain(created.id);
    // A malformed id is 400 naming the parameter (docs/DESIGN-NOTES.md), a well-formed unknown one 404.
    const malformed = await api('GET', '/automations/not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'bad_request', param: 'id' });
  });
});

describe('schedule', () => {
  it('fires on a seconds-level cron and records the run with tokens, cost and output', async () => {
    const created = await createAutomation({ schedule: '*/2 * * * * *' });
    const done = await waitFor(async () => (await runs(created.id, '?status=success')).runs[0], { timeoutMs: 20_000, what: 'a successful scheduled run' });
    expect(done).toMatchObject({ automationId: created.id, trigger: 'schedule', status: 'success', error: null });
    expect(done.tokensInput).toBeGreaterThan(0);
    expect(done.tokensOutput).toBeGreaterThan(0);
    expect(done.estimatedCost).toBeGreaterThan(0);
    expect(done.output).toEqual(expect.any(String));
    expect(done.duration).toBeGreaterThanOrEqual(0);
    expect(new Date(done.completedAt).getTime()).toBeGreaterThanOrEqual(new Date(done.startedAt).getTime());
    const detail = (await api('GET', `/automations/${created.id}`)).body;
    expect(detail.lastRunAt).not.toBeNull();
    expect(detail.runSummary.counts.success).toBeGreaterThanOrEqual(1);
    expect(detail.runSummary.recentRuns.length).toBeGreaterThanOrEqual(1);
    const run = await stack.runtime.temporal.client.workflow.getHandle(`run/${done.id}`).describe();
    expect(run.searchAttributes).toMatchObject({ TriggerType: ['schedule'], AutomationId: [created.id], OrganizationId: [org.id] });
    // The gateway core meters the run's model call once, on the automation's account.
    const usage = await waitFor(async () => {
      const records = await stack.runtime.orm.em.fork().find(UsageRecord, { runId: done.id });
      return records.length > 0 ? records : undefined;
    }, { what: 'the usage record of the run' });
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ source: 'automation', organizationId: org.id, userId: org.member.id, inputTokens: done.tokensInput, outputTokens: done.tokensOutput });
    await api('DELETE', `/automations/${created.id}`);
  });

  it('starts a scheduled run in the fire\'s own workflow task; the run records itself from its start time', async () => {
    const created = await createAutomation({ schedule: '*/2 * * * * *' });
    const done = await waitFor(async () => (await runs(created.id, '?status=success')).runs[0], { timeoutMs: 20_000, what: 'a successful scheduled run' });
    await api('POST', `/automations/${created.id}/pause`);
    const client = stack.runtime.temporal.client;
    const run = await client.workflow.getHandle(`run/${done.id}`).describe();
    const events = async (workflowId: string) => (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    const runHistory = await events(`run/${done.id}`);
    const localActivityMarkers = runHistory.filter((event) => event.markerRecordedEventAttributes?.markerName === 'core_local_activity');
    // Started at its fire (AUTOMATION_ARM_LEAD_SECONDS=0, the default), the run did not wait, and
    // the row's startedAt is the moment Temporal started run/<id>, not when an activity wrote it.
    // (armed-fires.test.ts: runs started ahead of their fire record the start of the fire's task.)
    expect(runHistory.some((event) => event.timerStartedEventAttributes)).toBe(false);
    expect(new Date(done.startedAt).getTime()).toBe(run.startTime.getTime());
    // Fires outrank run work on the shared task queue, and a burst's backlog stays on the sticky
    // queue rather than timing out to the shared one after the SDK's 10 s.
    expect((await entityHandle(created.id).describe()).priority?.priorityKey).toBe(1);
    expect(run.priority?.priorityKey).toBe(3);
    expect(stack.worker?.worker.options.stickyQueueScheduleToStartTimeoutMs).toBe(30_000);
    const activityTypes = (history: Awaited<ReturnType<typeof events>>) =>
      history.flatMap((event) => (event.activityTaskScheduledEventAttributes ? [event.activityTaskScheduledEventAttributes.activityType?.name] : []));
    // The fire itself ran no activity: no run-row write before the child start.
    const entityHistory = await events(`automation/${created.id}`);
    expect(activityTypes(entityHistory)).not.toContain('recordRunStarted');
    // The fire took the `fire-starts-run` path because the state the API started the workflow
    // with says so (codeVersion), not by a patch call: no marker and no TemporalChangeVersion
    // upsert (a visibility write) at an execution's first fire.
    expect(entityHistory.some((event) => event.startChildWorkflowExecutionInitiatedEventAttributes)).toBe(true);
    expect(patchIds({ events: entityHistory })).toEqual([]);
    expect(entityHistory.some((event) => event.upsertWorkflowSearchAttributesEventAttributes)).toBe(false);
    if (RECORDING) writeHistoryFixture('automation-scheduled.code-2.history.bin', { events: entityHistory });
    // The run's bookkeeping ran as two local activities (its row with its plan and DLP scan, then
    // its result); only the model call went through the task queue: two workflow tasks in all,
    // and no signal back to the automation (it hears of its child's completion from Temporal).
    expect(activityTypes(runHistory)).toEqual(['generateRunOutput']);
    expect(localActivityMarkers).toHaveLength(2);
    expect(runHistory.filter((event) => event.workflowTaskCompletedEventAttributes)).toHaveLength(2);
    expect(runHistory.some((event) => event.signalExternalWorkflowExecutionInitiatedEventAttributes)).toBe(false);
    // Its first step made the plan, scanned it and returned what the model call was given (the
    // `carried-plan` path), chosen by the run's input (codeVersion) rather than by patch calls:
    // no patch marker and no TemporalChangeVersion upsert (a visibility write) per run.
    expect(patchIds({ events: runHistory })).toEqual([]);
    expect(runHistory.some((event) => event.upsertWorkflowSearchAttributesEventAttributes)).toBe(false);
    if (RECORDING) writeHistoryFixture('run-scheduled.code-2.history.bin', { events: runHistory });
    // Runs have a task queue of their own: a burst of runs never delays a fire.
    expect(run.taskQueue).toBe(`${stack.config.TEMPORAL_TASK_QUEUE}-runs`);
    const detail = (await api('GET', `/automations/${created.id}`)).body;
    expect(new Date(detail.lastRunAt).getTime()).toBeGreaterThanOrEqual(new Date(done.startedAt).getTime());
    await api('DELETE', `/automations/${created.id}`);
  });

  it('stops firing when paused, runs now while paused, and resumes on activate with nextRunAt', async () => {
    const created = await createAutomation({ schedule: '* * * * * *' });
    await waitFor(async () => (await runs(created.id)).total >= 1, { what: 'a first run' });
    const paused = await api('POST', `/automations/${created.id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body).toEqual({ id: created.id, status: 'paused' });
    expect((await api('GET', `/automations/${created.id}`)).body).toMatchObject({ status: 'paused', nextRunAt: null });
    // Pause is idempotent.
    expect((await api('POST', `/automations/${created.id}/pause`)).body).toEqual({ id: created.id, status: 'paused' });
    await waitFor(async () => (await runs(created.id, '?status=running')).total === 0, { what: 'runs in flight to finish' });
    const countAfterPause = (await runs(created.id)).total;

    // A control automation on the same cron proves several fire times passed meanwhile.
    const control = await createAutomation({ schedule: '* * * * * *' });
    await waitFor(async () => (await runs(control.id)).total >= 3, { timeoutMs: 20_000, what: 'the control automation to fire 3 times' });
    expect((await runs(created.id)).total).toBe(countAfterPause);
    await api('DELETE', `/automations/${control.id}`);

    const manual = await api('POST', `/automations/${created.id}/run`);
    expect(manual.status).toBe(202);
    expect(manual.body).toEqual({ runId: expect.any(String), automationId: created.id, status: 'running', startedAt: expect.any(String) });
    const listed = await runs(created.id);
    expect(listed.runs[0]).toMatchObject({ id: manual.body.runId, trigger: 'manual' });
    await waitFor(async () => (await runs(created.id, '?status=success')).runs.some((r) => r.id === manual.body.runId), { what: 'the manual run' });

    const activated = await api('POST', `/automations/${created.id}/activate`);
    expect(activated.status).toBe(200);
    expect(activated.body).toEqual({ id: created.id, status: 'active', nextRunAt: expect.any(String) });
    expect(new Date(activated.body.nextRunAt).getTime() - Date.now()).toBeLessThanOrEqual(1500);
    const before = (await runs(created.id)).total;
    await waitFor(async () => (await runs(created.id)).total > before, { what: 'a scheduled fire after activation' });
    await api('DELETE', `/automations/${created.id}`);
  });

  it('moves the next fire when the schedule is edited', async () => {
    const created = await createAutomation({ schedule: '0 9 * * *', timezone: 'UTC' });
    const res = await api('PUT', `/automations/${created.id}`, { schedule: '30 6 1 1 *', timezone: 'Europe/Paris', name: 'Yearly' });
    expect(res.status).toBe(200);
    const expected = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 1, 5, 30));
    expect(res.body).toMatchObject({ name: 'Yearly', schedule: '30 6 1 1 *', timezone: 'Europe/Paris', nextRunAt: expected.toISOString() });
    const state = await entityHandle(created.id).query(automationStateQuery);
    expect(state).toMatchObject({ schedule: '30 6 1 1 *', timezone: 'Europe/Paris', nextRunAt: expected.getTime() });
  });

  it('skips and counts a fire while a run is still running', async () => {
    receiver.hold();
    try {
      const created = await createAutomation({ schedule: '* * * * * *', channels: [{ type: 'webhook', target: receiver.url }] });
      await waitFor(async () => (await api('GET', `/automations/${created.id}`)).body.skippedFires >= 2, { timeoutMs: 20_000, what: 'two skipped fires' });
      const listed = await runs(created.id);
      expect(listed.total).toBe(1);
      expect(listed.runs[0].status).toBe('running');
      receiver.release();
      await waitFor(async () => (await runs(created.id, '?status=success')).total >= 1, { what: 'the held run to finish' });
      await waitFor(async () => (await runs(created.id)).total >= 2, { what: 'firing to resume after the run finished' });
      await api('DELETE', `/automations/${created.id}`);
    } finally {
      receiver.release();
    }
  });

  it('keeps the schedule across continue-as-new', async () => {
    const created = await createAutomation({ schedule: '* * * * * *' });
    const handle = entityHandle(created.id);
    const first = (await handle.describe()).runId;
    await waitFor(async () => (await handle.describe()).runId !== first, { timeoutMs: 30_000, what: 'a continue-as-new' });
    const countAtContinue = (await runs(created.id)).total;
    await waitFor(async () => (await runs(created.id, '?status=success')).total > countAtContinue, { timeoutMs: 15_000, what: 'fires after continue-as-new' });
    const state = await handle.query(automationStateQuery);
    expect(state.status).toBe('active');
    expect(state.nextRunAt).not.toBeNull();
    await api('DELETE', `/automations/${created.id}`);
  });
});

describe('delete', () => {
  it('cancels a running run, ends the workflow and removes the automation and its runs', async () => {
    receiver.hold();
    try {
      const created = await createAutomation({ status: 'paused', channels: [{ type: 'webhook', target: receiver.url }] });
      const arrivals = receiver.arrivals;
      const started = await api('POST', `/automations/${created.id}/run`);
      expect(started.status).toBe(202);
      await waitFor(async () => receiver.arrivals > arrivals, { what: 'the run to reach its delivery' });

      const res = await api('DELETE', `/automations/${created.id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const runHandle = stack.runtime.temporal.client.workflow.getHandle(`run/${started.body.runId}`);
      await waitFor(async () => (await runHandle.describe()).status.name === 'CANCELLED', { what: 'the run to be cancelled' });
      await waitFor(async () => (await entityHandle(created.id).describe()).status.name === 'COMPLETED', { what: 'the entity workflow to end' });
      expect((await api('GET', `/automations/${created.id}`)).status).toBe(404);
      expect(await stack.runtime.orm.em.fork().count(AutomationRun, { automationId: created.id })).toBe(0);
    } finally {
      receiver.release();
    }
  });
});

describe('runs list', () => {
  it('pages most recent first with a total and filters by status', async () => {
    const created = await createAutomation({ status: 'paused' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await api('POST', `/automations/${created.id}/run`)).body.runId);
    await waitFor(async () => (await runs(created.id, '?status=success')).total === 5, { what: 'five successful runs' });

    const page1 = await runs(created.id, '?limit=2');
    expect(page1.total).toBe(5);
    expect(page1.runs.map((r) => r.id)).toEqual([ids[4], ids[3]]);
    const page3 = await runs(created.id, '?limit=2&offset=4');
    expect(page3.runs.map((r) => r.id)).toEqual([ids[0]]);
    expect((await runs(created.id, '?offset=10')).runs).toEqual([]);
    expect(await runs(created.id, '?status=running')).toEqual({ runs: [], total: 0 });
    expect((await runs(created.id, '?status=failure')).total).toBe(0);
    const defaults = await runs(created.id);
    expect(defaults.runs).toHaveLength(5);
  });
});

describe('reconciliation', () => {
  it('restarts a missing entity workflow from the database', async () => {
    const created = await createAutomation({ schedule: '* * * * * *' });
    const handle = entityHandle(created.id);
    await handle.terminate('test: lose the workflow');
    const result = await reconcileAutomationWorkflows(stack.runtime);
    expect(result.started).toBeGreaterThanOrEqual(1);
    expect((await entityHandle(created.id).describe()).status.name).toBe('RUNNING');
    const before = (await runs(created.id)).total;
    await waitFor(async () => (await runs(created.id)).total > before, { what: 'fires after reconciliation' });
    await api('DELETE', `/automations/${created.id}`);
  });

  it('restarts the workflow when an update finds it missing', async () => {
    const created = await createAutomation({ status: 'paused' });
    await entityHandle(created.id).terminate('test: lose the workflow');
    const res = await api('POST', `/automations/${created.id}/run`);
    expect(res.status).toBe(202);
    await waitFor(async () => (await runs(created.id, '?status=success')).total === 1, { what: 'the run' });
  });
});

describe('DLP', () => {
  it('fails a run whose prompt the organization policy blocks, naming the detector only', async () => {
    const guarded = await createTestOrganization(stack.runtime.orm);
    const policy = await call(stack.baseUrl, 'PUT', '/dlp/policy', { key: guarded.owner.key, body: { detectors: { email: 'block' } } });
    expect(policy.status, policy.text).toBe(200);
    const created = await call(stack.baseUrl, 'POST', '/automations', {
      key: guarded.member.key,
      body: { name: 'Leaky', systemPrompt: 'Forward everything to alice.secret@example.com', schedule: '0 9 * * *', status: 'paused' },
    });
    const started = await call(stack.baseUrl, 'POST', `/automations/${created.body.id}/run`, { key: guarded.member.key });
    const run = await waitFor(async () => {
      const list = await call(stack.baseUrl, 'GET', `/automations/${created.body.id}/runs?status=failure`, { key: guarded.member.key });
      return list.body.runs.find((r: any) => r.id === started.body.runId);
    }, { what: 'the blocked run' });
    expect(run.error).toContain('email');
    expect(run.error).not.toContain('alice.secret@example.com');
    expect(run.tokensInput).toBe(0);
  });
});
