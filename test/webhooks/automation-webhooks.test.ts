// Automation webhooks on the real stack: issued, listed and revoked by the automation's managers;
// a POST to one creates a run of the automation with trigger `webhook` and the body as context,
// and the execution reports the run's outcome.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AutomationRun } from '../../src/automations/entities.js';
import { createRunActivities } from '../../src/automations/run-activities.js';
import { createWebhookRunActivities } from '../../src/automations/webhook-runs.js';
import { randomExecutionId, webhookRunId } from '../../src/webhooks/webhook-ids.js';
import { automationStateQuery, runNowUpdate } from '../../src/workflows/automation.contract.js';
import type { WebhookExecutionInput } from '../../src/workflows/webhook-execution.contract.js';
import { RECORDING, patchIds, writeHistoryFixture } from '../helpers/histories.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization, type TestUser } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let otherOrg: TestOrganization;
let secondMember: TestUser;

beforeAll(async () => {
  stack = await startStack();
  [org, otherOrg] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
  secondMember = await createTestUser(stack.runtime.orm, org.id, 'member');
});
afterAll(async () => stack?.stop());

async function createAutomation(key = org.member.key): Promise<string> {
  const res = await call(stack.baseUrl, 'POST', '/automations', {
    key,
    // Paused with a yearly schedule: only the webhook starts runs during the test.
    body: { name: 'Inbound orders', systemPrompt: 'Summarize the order.', schedule: '0 0 1 1 *', status: 'paused' },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** Waits for an execution to finish, so no run is mid-flight when the worker stops. */
async function finishedExecution(executionId: string) {
  return waitFor(async () => {
    const res = await call(stack.baseUrl, 'GET', `/webhooks/executions/${executionId}`, { key: org.admin.key });
    return ['success', 'failure'].includes(res.body.status) ? res : undefined;
  }, { timeoutMs: 30_000, what: 'execution to finish' });
}

function pathOf(url: string): string {
  return new URL(url).pathname.replace(/^\/v1/, '');
}

describe('automation webhooks', () => {
  it('creates a webhook whose POST produces a run with trigger webhook, reported by the execution', async () => {
    const automationId = await createAutomation();
    const created = await call(stack.baseUrl, 'POST', `/automations/${automationId}/webhooks`, { key: org.member.key });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(String), automationId, url: expect.stringMatching(/\/v1\/webhooks\/wh_[A-Za-z0-9_-]{32}$/) });

    const ack = await call(stack.baseUrl, 'POST', pathOf(created.body.url), { body: { event: 'order.created', data: { orderId: 'Z-991' } } });
    expect(ack.status).toBe(202);
    expect(ack.body.status).toBe('queued');

    const finished = await finishedExecution(ack.body.executionId);
    expect(finished.body).toMatchObject({ status: 'success', target: { type: 'automation', automationId }, runId: expect.any(String) });

    const run = await waitFor(async () => {
      const runs = await call(stack.baseUrl, 'GET', `/automations/${automationId}/runs`, { key: org.member.key });
      const found = runs.body.runs.find((r: { id: string }) => r.id === finished.body.runId);
      return found?.status === 'success' ? found : undefined;
    }, { what: 'the run to show success in the runs list' });
    expect(run.trigger).toBe('webhook');
    expect(finished.body.output).toBe(run.output);

    const description = await stack.runtime.temporal.client.workflow.getHandle(`webhook/${ack.body.executionId}`).describe();
    expect(description.searchAttributes.AutomationId).toEqual([automationId]);
  });

  it("learns the run's end from the run's signal, without polling the run's row", async () => {
    const automationId = await createAutomation();
    const created = await call(stack.baseUrl, 'POST', `/automations/${automationId}/webhooks`, { key: org.member.key });
    const ack = await call(stack.baseUrl, 'POST', pathOf(created.body.url), { body: { event: 'signal.check' } });
    expect(ack.status).toBe(202);
    const finished = await finishedExecution(ack.body.executionId);
    expect(finished.body.status).toBe('success');

    const history = await stack.runtime.temporal.client.workflow.getHandle(`webhook/${ack.body.executionId}`).fetchHistory();
    const events = history.events ?? [];
    const signals = events.filter((event) => event.workflowExecutionSignaledEventAttributes?.signalName === 'automationRunEnded');
    expect(signals).toHaveLength(1);
    const activities = events.flatMap((event) => event.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
    expect(activities).toContain('startAutomationRunForWebhook');
    expect(activities).not.toContain('readAutomationRunProgress');
    expect(patchIds(history)).toEqual(['run-signals-execution']);
    if (RECORDING) writeHistoryFixture('webhook-execution-automation.run-signal.history.bin', history);
  });

  it("fails the execution with the run's error when the run fails", async () => {
    const automationId = await createAutomation();
    const created = await call(stack.baseUrl, 'POST', `/automations/${automationId}/webhooks`, { key: org.member.key });
    // The budget is spent: the run fails with budget_exceeded, and the execution with it.
    expect((await call(stack.baseUrl, 'PUT', '/billing/budget', { key: org.owner.key, body: { monthlyCap: 0 } })).status).toBe(200);
    try {
      const ack = await call(stack.baseUrl, 'POST', pathOf(created.body.url), { body: { event: 'over.budget' } });
      const finished = await finishedExecution(ack.body.executionId);
      expect(finished.body.status).toBe('failure');
      expect(finished.body.error).toContain('budget_exceeded');
      const run = await stack.runtime.orm.em.fork().findOneOrFail(AutomationRun, { id: webhookRunId(ack.body.executionId) });
      expect(run.status).toBe('failure');
      expect(finished.body.error).toBe(run.error);
    } finally {
      await call(stack.baseUrl, 'PUT', '/billing/budget', { key: org.owner.key, body: { monthlyCap: null } });
    }
  });

  it('lists active webhooks and revokes one: its URL answers 404 at once, the other keeps working', async () => {
    const automationId = await createAutomation();
    const first = await call(stack.baseUrl, 'POST', `/automations/${automationId}/webhooks`, { key: org.member.key });
    const second = await call(stack.baseUrl, 'POST', `/automations/${automationId}/webhooks`, { key: org.member.key });
    const listed = await call(stack.baseUrl, 'GET', `/automations/${automationId}/webhooks`, { key: org.member.key });
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(2);
    expect(listed.body.webhooks.map((w: { id: string }) => w.id).sort()).toEqual([first.body.id, second.body.id].sort());

    const revoked = await call(stack.baseUrl, 'DELETE', `/automations/${automationId}/webhooks/${first.body.id}`, { key: org.member.key });
    expect(revoked.status).toBe(204);
    expect((await call(stack.baseUrl, 'POST', pathOf(first.body.url), { body: {} })).status).toBe(404);
    const accepted = await call(stack.baseUrl, 'POST', pathOf(second.body.url), { body: {} });
    expect(accepted.status).toBe(202);
    expect((await finishedExecution(accepted.body.executionId)).body.status).toBe('success');
    const after = await call(stack.baseUrl, 'GET', `/automations/${automationId}/webhooks`, { key: org.member.key });
    expect(after.body.webhooks.map((w: { id: string }) => w.id)).toEqual([second.body.id]);
    const again = await call(stack.baseUrl, 'DELETE', `/automations/${automationId}/webhooks/${first.body.id}`, { key: org.member.key });
    expect(again.status).toBe(404);
  });

  it('returns 403 to a member who did not create the automation and 404 to another organization', async () => {
    const automationId = await createAutomation();
    const forbidden = await Promise.all([
      call(stack.baseUrl, 'POST', `/automations/${automationId}/webhooks`, { key: secondMember.key }),
      call(stack.baseUrl, 'GET', `/automations/${automationId}/webhooks`, { key: secondMember.key }),
    ]);
    for (const res of forbidden) expect(res.status).toBe(403);
    const hidden = await Promise.all([
      call(stack.baseUrl, 'POST', `/automations/${automationId}/webhooks`, { key: otherOrg.owner.key }),
      call(stack.baseUrl, 'GET', `/automations/${automationId}/webhooks`, { key: otherOrg.owner.key }),
      call(stack.baseUrl, 'POST', `/automations/${randomUUID()}/webhooks`, { key: otherOrg.owner.key }),
    ]);
    for (const res of hidden) expect(res.status).toBe(404);
    const malformed = await call(stack.baseUrl, 'POST', '/automations/not-a-uuid/webhooks', { key: otherOrg.owner.key });
    expect(malformed.body.error).toMatchObject({ code: 'bad_request', param: 'id' });
  });

  it('revokes the webhooks of a deleted automation: their URLs answer 404', async () => {
    const automationId = await createAutomation();
    const webhook = await call(stack.baseUrl, 'POST', `/automations/${automationId}/webhooks`, { key: org.member.key });
    const accepted = await call(stack.baseUrl, 'POST', pathOf(webhook.body.url), { body: { before: 'delete' } });
    expect(accepted.status).toBe(202);
    await finishedExecution(accepted.body.executionId);

    expect((await call(stack.baseUrl, 'DELETE', `/automations/${automationId}`, { key: org.member.key })).status).toBe(204);
    const after = await call(stack.baseUrl, 'POST', pathOf(webhook.body.url), { body: { after: 'delete' } });
    expect(after.status).toBe(404);
    expect(after.body.error.code).toBe('not_found');
  });
});

describe('starting the automation run of a webhook execution', () => {
  const runsOf = (automationId: string) => stack.runtime.orm.em.fork().find(AutomationRun, { automationId, organizationId: org.id });

  async function finishedRun(automationId: string, runId: string) {
    return waitFor(async () => {
      const run = await stack.runtime.orm.em.fork().findOne(AutomationRun, { id: runId, automationId });
      return run && run.status !== 'running' ? run : undefined;
    }, { timeoutMs: 30_000, what: 'the run to finish' });
  }

  it('starts one run however often, and however concurrently, the start activity is repeated', async () => {
    const automationId = await createAutomation();
    const activities = createWebhookRunActivities(stack.runtime);
    const input: WebhookExecutionInput = {
      executionId: randomExecutionId(),
      organizationId: org.id,
      webhookRecordId: randomUUID(),
      target: { kind: 'automation', automationId },
      body: { event: 'retried' },
      receivedAt: new Date().toISOString(),
    };
    const concurrent = await Promise.all([activities.startAutomationRunForWebhook(input), activities.startAutomationRunForWebhook(input)]);
    const runId = concurrent[0].runId;
    expect(concurrent[1].runId).toBe(runId);
    expect((await finishedRun(automationId, runId)).status).toBe('success');
    // A retry after the run finished returns it too, and does not run it again.
    expect((await activities.startAutomationRunForWebhook(input)).runId).toBe(runId);
    const runs = await runsOf(automationId);
    expect(runs.map((run) => run.id)).toEqual([runId]);
    expect(runs[0]).toMatchObject({ trigger: 'webhook', context: { event: 'retried' } });
    // Another execution is another run.
    const other = await activities.startAutomationRunForWebhook({ ...input, executionId: randomExecutionId() });
    expect(other.runId).not.toBe(runId);
    await finishedRun(automationId, other.runId);
    expect(await runsOf(automationId)).toHaveLength(2);
  });

  it('lets the automation workflow itself start a requested run id once (repeats without the server-side update id)', async () => {
    const automationId = await createAutomation();
    const handle = stack.runtime.temporal.client.workflow.getHandle(`automation/${automationId}`);
    const runId = randomUUID();
    const request = { args: [{ trigger: 'webhook' as const, context: { n: 1 }, runId }] as [{ trigger: 'webhook'; context: unknown; runId: string }] };
    const [first, second] = await Promise.all([handle.executeUpdate(runNowUpdate, request), handle.executeUpdate(runNowUpdate, request)]);
    expect(first).toEqual(second);
    expect(first.runId).toBe(runId);
    await finishedRun(automationId, runId);
    await waitFor(async () => (await handle.query(automationStateQuery)).running.length === 0, { what: 'the run to report back' });

    expect(await handle.executeUpdate(runNowUpdate, request)).toEqual(first);
    expect((await runsOf(automationId)).map((run) => run.id)).toEqual([runId]);
    // Nothing was started again: no run in flight that would make scheduled fires skip.
    expect((await handle.query(automationStateQuery)).running).toEqual([]);
    const runWorkflows = [];
    for await (const execution of stack.runtime.temporal.client.workflow.list({ query: `WorkflowId = "run/${runId}"` })) runWorkflows.push(execution);
    expect(runWorkflows.length).toBeLessThanOrEqual(1);
  });
});

describe("reading a run's progress for a waiting execution", () => {
  it('reads a run whose workflow was terminated before it recorded its end as a failure, naming why', async () => {
    const automationId = await createAutomation();
    const runId = randomUUID();
    const recorded = await createRunActivities(stack.runtime).recordRunStarted({
      runId, automationId, organizationId: org.id, trigger: 'webhook', context: null,
      schedule: { status: 'paused', nextRunAt: null, skippedFires: 0, version: 0 },
    });
    expect(recorded).not.toBeNull();
    const activities = createWebhookRunActivities(stack.runtime);
    // No workflow yet: the row is all there is, and it is running.
    expect((await activities.readAutomationRunProgress({ organizationId: org.id, runId })).status).toBe('running');
    // A run workflow on a queue nobody polls, terminated by an operator before it could record anything.
    const handle = await stack.runtime.temporal.clientFor(org.id).workflow.start('runWorkflow', {
      workflowId: `run/${runId}`, taskQueue: `nobody-${randomUUID()}`,
      args: [{ runId, automationId, organizationId: org.id, trigger: 'webhook', parentWorkflowId: `automation/${automationId}` }],
    });
    expect((await activities.readAutomationRunProgress({ organizationId: org.id, runId })).status).toBe('running');
    await handle.terminate('operator');
    expect(await activities.readAutomationRunProgress({ organizationId: org.id, runId })).toMatchObject({
      status: 'failure', error: expect.stringContaining('TERMINATED'),
    });
  });
});
