// Both kinds of agent run, an automation run (`run/<runId>`) and an assistant's webhook execution
// (`webhook/<executionId>`), pass the same behaviour tests on the real stack (API, Temporal,
// worker, database, fake upstream model, webhook receiver): they retry what may pass and fail at
// once on what cannot, merge a skill the same way, heartbeat during the model call and stop it
// when cancelled, and record each delivery in `channel_deliveries` (once, across retries).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { seedUsage } from '../billing/seed.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { activityAttempts } from '../helpers/histories.js';

let stack: Stack;
let upstream: FakeUpstream;
let receiver: WebhookReceiver;
let org: TestOrganization;

beforeAll(async () => {
  [upstream, receiver] = await Promise.all([startFakeUpstream(), startWebhookReceiver()]);
  const gatewayConfig = fakeGatewayConfig({ primary: upstream });
  // A model of its own upstream name, to tell the subject's model from its skill's tier (standard: gpt-fake-mini).
  (gatewayConfig.models as Record<string, unknown>[]).push({ id: 'fake-own', targets: [{ provider: 'primary', upstreamModel: 'gpt-fake-own' }], inputPricePer1M: 2, outputPricePer1M: 8 });
  stack = await startStack({ env: { GATEWAY_CONFIG: writeGatewayConfig(gatewayConfig), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([upstream?.close(), receiver?.stop()]);
});

interface Subject {
  systemPrompt: string;
  model?: string;
  skillId?: string;
  channels?: Array<{ type: 'webhook'; target: string }>;
}

interface Ended {
  status: 'success' | 'failure';
  error: string | null;
  output: string | null;
}

/** What each kind of run brings: how to create its subject, trigger a run, read its end and its records. */
interface RunKind {
  name: string;
  /** The activity of the kind's model step, as its workflow schedules it. */
  modelActivity: string;
  create(owner: TestOrganization, subject: Subject): Promise<string>;
  /** Starts a run; its id (run id or execution id). */
  trigger(owner: TestOrganization, subjectId: string): Promise<string>;
  workflowId(id: string): string;
  ended(owner: TestOrganization, subjectId: string, id: string): Promise<Ended | undefined>;
  /** The column of `channel_deliveries` that names this kind's run. */
  deliveryColumn: 'run_id' | 'execution_id';
}

const api = (owner: TestOrganization, method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key: owner.member.key, body });

const automationRuns: RunKind = {
  name: 'an automation run',
  modelActivity: 'generateRunOutput',
  async create(owner, subject) {
    const created = await api(owner, 'POST', '/automations', { name: 'Digest', schedule: '0 9 * * *', status: 'paused', model: 'fake-model', ...subject });
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  },
  async trigger(owner, automationId) {
    const started = await api(owner, 'POST', `/automations/${automationId}/run`);
    expect(started.status, started.text).toBe(202);
    return started.body.runId;
  },
  workflowId: (runId) => `run/${runId}`,
  async ended(owner, automationId, runId) {
    const list = await api(owner, 'GET', `/automations/${automationId}/runs`);
    const run = list.body.runs.find((r: { id: string }) => r.id === runId);
    return run && run.status !== 'running' ? { status: run.status, error: run.error, output: run.output } : undefined;
  },
  deliveryColumn: 'run_id',
};

/** Webhook paths of the assistants created here, by assistant id. */
const webhookPaths = new Map<string, string>();

const assistantExecutions: RunKind = {
  name: "an assistant's webhook execution",
  modelActivity: 'runAssistantForWebhook',
  async create(owner, subject) {
    const created = await api(owner, 'POST', '/assistants', { name: 'Notifier', model: 'fake-model', trigger: { type: 'webhook' }, ...subject });
    expect(created.status, created.text).toBe(201);
    webhookPaths.set(created.body.id, new URL(created.body.webhookUrl).pathname.replace(/^\/v1/, ''));
    return created.body.id;
  },
  async trigger(_owner, assistantId) {
    const ack = await call(stack.baseUrl, 'POST', webhookPaths.get(assistantId)!, { body: { event: 'run-kinds' } });
    expect(ack.status, ack.text).toBe(202);
    return ack.body.executionId;
  },
  workflowId: (executionId) => `webhook/${executionId}`,
  async ended(owner, _assistantId, executionId) {
    const execution = await api(owner, 'GET', `/webhooks/executions/${executionId}`);
    const { status } = execution.body;
    return status === 'success' || status === 'failure' ? { status, error: execution.body.error ?? null, output: execution.body.output ?? null } : undefined;
  },
  deliveryColumn: 'execution_id',
};

async function runToEnd(kind: RunKind, owner: TestOrganization, subjectId: string): Promise<{ id: string; ended: Ended }> {
  const id = await kind.trigger(owner, subjectId);
  const ended = await waitFor(() => kind.ended(owner, subjectId, id), { timeoutMs: 60_000, what: `${kind.name} ${id} to end` });
  return { id, ended };
}

/** Attempts of each activity of a workflow, from its history. */
const attemptsOf = async (workflowId: string) => activityAttempts(await stack.runtime.temporal.client.workflow.getHandle(workflowId).fetchHistory());

async function deliveryRows(kind: RunKind, id: string): Promise<Array<{ id: string; channel_type: string; run_id: string | null; execution_id: string | null }>> {
  return stack.runtime.orm.em.fork().getConnection().execute(
    `select "id", "channel_type", "run_id", "execution_id" from "channel_deliveries" where "${kind.deliveryColumn}" = ? order by "id"`,
    [id],
  );
}

describe.each([automationRuns, assistantExecutions])('$name', (kind) => {
  it('retries a model call whose upstream failed (5xx) and succeeds on the next attempt', async () => {
    const subjectId = await kind.create(org, { systemPrompt: 'Summarise.' });
    upstream.enqueue({ status: 500, errorBody: { error: { message: 'upstream hiccup' } } });
    const { id, ended } = await runToEnd(kind, org, subjectId);
    expect(ended.status, ended.error ?? '').toBe('success');
    expect((await attemptsOf(kind.workflowId(id)))[kind.modelActivity]).toEqual([2]);
  }, 90_000);

  it('fails at once, after one attempt and without calling the upstream, when the budget is spent (budget_exceeded)', async () => {
    const capped = await createTestOrganization(stack.runtime.orm);
    await seedUsage(stack.runtime.orm, capped.id, [{ at: new Date().toISOString(), userId: capped.owner.id, model: 'fake-model', inputTokens: 100, outputTokens: 100, cost: 1 }]);
    const cap = await call(stack.baseUrl, 'PUT', '/billing/budget', { key: capped.owner.key, body: { monthlyCap: 1 } });
    expect(cap.status, cap.text).toBe(200);
    const subjectId = await kind.create(capped, { systemPrompt: 'Summarise.' });
    const before = upstream.requests.length;
    const { id, ended } = await runToEnd(kind, capped, subjectId);
    expect(ended.status).toBe('failure');
    // The same failure text for both kinds: the code, then the reason.
    expect(ended.error).toMatch(/^budget_exceeded: /);
    expect((await attemptsOf(kind.workflowId(id)))[kind.modelActivity]).toEqual([1]);
    expect(upstream.requests.length).toBe(before);
  }, 90_000);

  it("merges its skill the one way: the skill's prompt then its own in one system message, on the skill's tier", async () => {
    const skill = await api(org, 'POST', '/skills', {
      name: `Tone ${kind.modelActivity}`, description: 'House tone', category: 'productivity', systemPrompt: 'Answer formally.', modelTier: 'standard', visibility: 'team',
    });
    expect(skill.status, skill.text).toBe(201);
    const subjectId = await kind.create(org, { systemPrompt: 'Summarise the payload.', model: 'fake-own', skillId: skill.body.id });
    const before = upstream.requests.length;
    const { ended } = await runToEnd(kind, org, subjectId);
    expect(ended.status, ended.error ?? '').toBe('success');
    const sent = upstream.requests.slice(before);
    expect(sent).toHaveLength(1);
    const messages = sent[0]!.body.messages as Array<{ role: string; content: string }>;
    expect(messages[0]).toEqual({ role: 'system', content: 'Answer formally.\n\nSummarise the payload.' });
    expect(messages.filter((message) => message.role === 'system')).toHaveLength(1);
    // The skill's tier (standard -> fake-model -> gpt-fake-mini), not the subject's own model.
    expect(sent[0]!.body.model).toBe('gpt-fake-mini');
  }, 90_000);

  it('heartbeats while the model call runs, and a cancel stops the upstream call', async () => {
    const subjectId = await kind.create(org, { systemPrompt: 'Take your time.' });
    upstream.enqueue({ hang: true });
    const before = upstream.requests.length;
    const id = await kind.trigger(org, subjectId);
    const handle = stack.runtime.temporal.client.workflow.getHandle(kind.workflowId(id));
    await waitFor(async () => upstream.requests.length > before, { timeoutMs: 30_000, what: 'the model call upstream' });
    const heartbeat = await waitFor(async () => {
      const pending = (await handle.describe()).raw.pendingActivities ?? [];
      return pending.find((activity) => activity.activityType?.name === kind.modelActivity && activity.lastHeartbeatTime);
    }, { timeoutMs: 15_000, what: 'a heartbeat of the model call' });
    expect(heartbeat.activityType?.name).toBe(kind.modelActivity);

    await handle.cancel();
    const request = upstream.requests[before]!;
    await waitFor(async () => request.closedEarly, { timeoutMs: 15_000, what: 'the upstream call to be abandoned' });
    const ended = await waitFor(() => kind.ended(org, subjectId, id), { timeoutMs: 30_000, what: `${kind.name} to record its end` });
    expect(ended).toMatchObject({ status: 'failure', error: 'cancelled' });
  }, 90_000);

  it('records each delivery once in channel_deliveries, though the channel failed the first attempt', async () => {
    const subjectId = await kind.create(org, { systemPrompt: 'Report.', channels: [{ type: 'webhook', target: receiver.url }] });
    receiver.failNext(1);
    const arrivalsBefore = receiver.arrivals;
    const { id, ended } = await runToEnd(kind, org, subjectId);
    expect(ended.status, ended.error ?? '').toBe('success');
    const rows = await deliveryRows(kind, id);
    expect(rows).toEqual([{
      id: `${id}:0`, channel_type: 'webhook', run_id: kind.deliveryColumn === 'run_id' ? id : null, execution_id: kind.deliveryColumn === 'execution_id' ? id : null,
    }]);
    // Two attempts reached the channel (the first answered 500), with the same delivery id.
    expect(receiver.arrivals - arrivalsBefore).toBe(2);
    expect(receiver.deliveries.filter((delivery) => delivery.deliveryId === `${id}:0`)).toHaveLength(2);
  }, 90_000);
});
