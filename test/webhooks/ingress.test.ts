// The webhook endpoint on the real stack: the acknowledgment is sent only after the execution
// workflow is recorded in Temporal; unknown ids, non-JSON and oversized bodies, and floods are
// refused; Idempotency-Key repeats converge on one execution; an assistant execution reaches
// success through the gateway with the body visible to the model; ids never reach the logs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook, WebhookExecution } from '../../src/webhooks/entities.js';
import { receiveWebhook } from '../../src/webhooks/ingress.service.js';
import { idempotentExecutionId } from '../../src/webhooks/webhook-ids.js';
import { createWebhookRateLimiter } from '../../src/webhooks/webhook-rate-limit.js';
import type { TemporalHandle } from '../../src/temporal.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let otherOrg: TestOrganization;

const PER_WEBHOOK_LIMIT = 15;

beforeAll(async () => {
  stack = await startStack({
    env: { BODY_LIMIT_BYTES: '4096', WEBHOOK_RATE_LIMIT_PER_WEBHOOK: String(PER_WEBHOOK_LIMIT), WEBHOOK_RATE_LIMIT_PER_IP: '1000' },
  });
  [org, otherOrg] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
});
afterAll(async () => stack?.stop());

/** A fresh assistant with a webhook trigger; returns the webhook path under /v1 and its id. */
async function webhookAssistant(systemPrompt = 'Summarize the event.') {
  const res = await call(stack.baseUrl, 'POST', '/assistants', {
    key: org.admin.key,
    body: { name: 'Hook', systemPrompt, model: 'standard', trigger: { type: 'webhook' } },
  });
  expect(res.status).toBe(201);
  const url = new URL(res.body.webhookUrl as string);
  const webhookId = url.pathname.split('/').pop()!;
  return { assistantId: res.body.id as string, webhookId, path: `/webhooks/${webhookId}` };
}

async function execution(executionId: string, key = org.member.key) {
  return call(stack.baseUrl, 'GET', `/webhooks/executions/${executionId}`, { key });
}

describe('POST /webhooks/{webhook_id}', () => {
  it('acknowledges with 202 and the spec shape only once the execution workflow exists in Temporal', async () => {
    const hook = await webhookAssistant();
    const res = await call(stack.baseUrl, 'POST', hook.path, { body: { event: 'order.created', data: { id: 1 } } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ received: true, webhookId: hook.webhookId, executionId: expect.stringMatching(/^wex_/), status: 'queued' });
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
    expect(res.headers.get('x-ratelimit-remaining')).toBeTruthy();
    expect(res.headers.get('x-ratelimit-reset')).toBeTruthy();

    // Immediately after the 202: the workflow is recorded (describe does not depend on visibility).
    const description = await stack.runtime.temporal.client.workflow.getHandle(`webhook/${res.body.executionId}`).describe();
    expect(description.type).toBe('webhookExecutionWorkflow');
    expect(description.searchAttributes.OrganizationId).toEqual([org.id]);
    expect(description.searchAttributes.TriggerType).toEqual(['webhook']);
  });

  it('runs the assistant through the gateway with the body visible to the model and reports success with usage', async () => {
    const hook = await webhookAssistant('You triage incoming orders.');
    const res = await call(stack.baseUrl, 'POST', hook.path, { body: { event: 'order.created', data: { orderId: 'A-77341' } } });
    expect(res.status).toBe(202);

    const finished = await waitFor(async () => {
      const status = await execution(res.body.executionId);
      return status.body.status === 'success' || status.body.status === 'failure' ? status : undefined;
    }, { timeoutMs: 20_000, what: 'execution to finish' });
    expect(finished.status).toBe(200);
    expect(finished.body).toMatchObject({
      executionId: res.body.executionId,
      status: 'success',
      target: { type: 'assistant', assistantId: hook.assistantId },
      usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number), estimatedCost: expect.any(Number) },
    });
    // The built-in dev provider echoes the user message it received: the webhook body.
    expect(finished.body.output).toContain('"orderId": "A-77341"');
    expect(finished.body.usage.inputTokens).toBeGreaterThan(0);
    expect(Date.parse(finished.body.completedAt)).toBeGreaterThanOrEqual(Date.parse(finished.body.startedAt));
    const result = await stack.runtime.temporal.client.workflow.getHandle(`webhook/${res.body.executionId}`).result();
    expect(result.output).toBe(finished.body.output);
  });

  it('returns 404 for unknown and revoked webhook ids, 400 naming webhookId for malformed ones', async () => {
    const hook = await webhookAssistant();
    await call(stack.baseUrl, 'PUT', `/assistants/${hook.assistantId}`, { key: org.admin.key, body: { trigger: null } });
    for (const path of ['/webhooks/wh_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', hook.path]) {
      const res = await call(stack.baseUrl, 'POST', path, { body: { event: 'x' } });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    const malformed = await call(stack.baseUrl, 'POST', '/webhooks/nope', { body: { event: 'x' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'bad_request', param: 'webhookId' });
  });

  it('returns 415 for a body that is not JSON and for no body at all', async () => {
    const hook = await webhookAssistant();
    const text = await call(stack.baseUrl, 'POST', hook.path, { raw: 'event=order', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('unsupported_media_type');
    const empty = await call(stack.baseUrl, 'POST', hook.path);
    expect(empty.status).toBe(415);
  });

  it('returns 413 for a body over the limit and 400 for malformed JSON', async () => {
    const hook = await webhookAssistant();
    const large = await call(stack.baseUrl, 'POST', hook.path, { body: { padding: 'x'.repeat(8192) } });
    expect(large.status).toBe(413);
    expect(large.body.error.code).toBe('payload_too_large');
    const malformed = await call(stack.baseUrl, 'POST', hook.path, { raw: '{"event":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
  });

  it('returns 429 with X-RateLimit-* and Retry-After once a webhook passes its limit, without affecting other webhooks', async () => {
    const hook = await webhookAssistant();
    const other = await webhookAssistant();
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < PER_WEBHOOK_LIMIT + 1; i++) {
      const res = await call(stack.baseUrl, 'POST', hook.path, { body: { i } });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.slice(0, PER_WEBHOOK_LIMIT).every((s) => s === 202)).toBe(true);
    expect(statuses[PER_WEBHOOK_LIMIT]).toBe(429);
    expect((limited!.body as { error: { code: string } }).error.code).toBe('rate_limited');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited!.headers.get('x-ratelimit-limit')).toBe(String(PER_WEBHOOK_LIMIT));
    expect(limited!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await call(stack.baseUrl, 'POST', other.path, { body: { i: 0 } })).status).toBe(202);
  });

  it('converges 10 concurrent repeats with one Idempotency-Key on one execution and one workflow', async () => {
    const hook = await webhookAssistant();
    const key = `delivery-${Date.now()}`;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => call(stack.baseUrl, 'POST', hook.path, { body: { event: 'x' }, headers: { 'idempotency-key': key } })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(202));
    const ids = new Set(responses.map((r) => r.body.executionId as string));
    expect(ids.size).toBe(1);
    const [executionId] = [...ids];

    await waitFor(async () => (await execution(executionId!)).body.status === 'success', { timeoutMs: 20_000, what: 'execution success' });
    const repeat = await call(stack.baseUrl, 'POST', hook.path, { body: { event: 'x' }, headers: { 'idempotency-key': key } });
    expect(repeat.status).toBe(202);
    expect(repeat.body.executionId).toBe(executionId);

    const runs = [];
    for await (const run of stack.runtime.temporal.client.workflow.list({ query: `WorkflowId = 'webhook/${executionId}'` })) runs.push(run);
    expect(runs).toHaveLength(1);
    const rows = await stack.runtime.orm.em.fork().getConnection().execute<{ count: string }[]>(
      'select count(*) as count from "webhook_executions" where "id" = ?', [executionId]);
    expect(Number(rows[0]!.count)).toBe(1);

    const otherKey = await call(stack.baseUrl, 'POST', hook.path, { body: { event: 'x' }, headers: { 'idempotency-key': `${key}-2` } });
    expect(otherKey.body.executionId).not.toBe(executionId);
  });

  it('returns 400 naming Idempotency-Key when it is not printable ASCII', async () => {
    const hook = await webhookAssistant();
    const res = await call(stack.baseUrl, 'POST', hook.path, { body: {}, headers: { 'idempotency-key': 'x'.repeat(300) } });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('Idempotency-Key');
  });

  it('answers the execution lookup 404 to another organization and 401 without a key', async () => {
    const hook = await webhookAssistant();
    const ack = await call(stack.baseUrl, 'POST', hook.path, { body: { event: 'x' } });
    expect((await execution(ack.body.executionId, otherOrg.owner.key)).status).toBe(404);
    expect((await call(stack.baseUrl, 'GET', `/webhooks/executions/${ack.body.executionId}`)).status).toBe(401);
    expect((await execution(`wex_${'A'.repeat(22)}`)).status).toBe(404);
    expect((await execution('wex_unknown')).body.error).toMatchObject({ code: 'bad_request', param: 'executionId' });
  });

  it('never writes a webhook URL id to the logs', async () => {
    const hook = await webhookAssistant();
    await call(stack.baseUrl, 'POST', hook.path, { body: { event: 'x' } });
    await call(stack.baseUrl, 'POST', hook.path, { raw: 'plain', headers: { 'content-type': 'text/plain' } });
    await call(stack.baseUrl, 'POST', hook.path, { body: { padding: 'x'.repeat(8192) } });
    await waitFor(async () => stack.logs.some((line) => line.includes('"status":413')), { what: 'access log line' });
    expect(stack.logs.join('\n')).not.toContain(hook.webhookId);
  });
});

describe('stacks with other settings', () => {
  const PER_IP_LIMIT = 4;
  /** No worker, and a low per-IP limit. */
  let idle: Stack;

  beforeAll(async () => {
    idle = await startStack({ worker: false, env: { WEBHOOK_RATE_LIMIT_PER_IP: String(PER_IP_LIMIT) } });
  });
  afterAll(async () => idle?.stop());

  it('reports queued for an execution no worker has picked up yet', async () => {
    const idleOrg = await createTestOrganization(idle.runtime.orm);
    const created = await call(idle.baseUrl, 'POST', '/assistants', {
      key: idleOrg.owner.key,
      body: { name: 'Idle', systemPrompt: 'x', trigger: { type: 'webhook' } },
    });
    const path = new URL(created.body.webhookUrl).pathname.replace(/^\/v1/, '');
    const ack = await call(idle.baseUrl, 'POST', path, { body: { ping: true } });
    expect(ack.status).toBe(202);
    const status = await call(idle.baseUrl, 'GET', `/webhooks/executions/${ack.body.executionId}`, { key: idleOrg.member.key });
    expect(status.status).toBe(200);
    expect(status.body.status).toBe('queued');
    expect(status.body).not.toHaveProperty('output');
    await idle.runtime.temporal.client.workflow.getHandle(`webhook/${ack.body.executionId}`).terminate('test cleanup');
  });

  it('returns 429 once a client IP passes its limit, before looking the webhook up', async () => {
    // Unknown ids count too: guessing is bounded by the same limit.
    const statuses: number[] = [];
    for (let i = 0; i <= PER_IP_LIMIT; i++) {
      statuses.push((await call(idle.baseUrl, 'POST', '/webhooks/wh_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB', { body: { i } })).status);
    }
    const firstLimited = statuses.indexOf(429);
    expect(firstLimited).toBeGreaterThan(0);
    expect(statuses.slice(0, firstLimited).every((status) => status === 404)).toBe(true);
    expect(statuses.slice(firstLimited).every((status) => status === 429)).toBe(true);
  });
});

describe('a workflow start that fails', () => {
  it('acknowledges nothing and leaves no queued record of the execution that did not start', async () => {
    const hook = await webhookAssistant();
    // Temporal refusing the start (the cluster unreachable): the boundary fails, the rest is real.
    const refusing = { workflow: { start: async () => { throw new Error('Temporal is unreachable'); } } };
    const unreachable = { ...stack.runtime.temporal, client: refusing, clientFor: () => refusing } as unknown as TemporalHandle;
    const deps = { ...stack.runtime, temporal: unreachable };
    const delivery = { webhookId: hook.webhookId, body: { n: 1 }, idempotencyKey: 'start-fails-1', clientIp: '192.0.2.10' };
    await expect(receiveWebhook(deps, createWebhookRateLimiter(stack.runtime), delivery)).rejects.toThrow('Temporal is unreachable');

    const webhookRecord = await stack.runtime.orm.em.fork().findOneOrFail(Webhook, { assistantId: hook.assistantId, revokedAt: null });
    const executionId = idempotentExecutionId(webhookRecord.id, 'start-fails-1');
    expect(await stack.runtime.orm.em.fork().count(WebhookExecution, { id: executionId })).toBe(0);

    // The sender's retry with the same key goes through and finds its record at once.
    const retried = await call(stack.baseUrl, 'POST', hook.path, { body: { n: 1 }, headers: { 'idempotency-key': 'start-fails-1' } });
    expect(retried.status).toBe(202);
    expect(retried.body.executionId).toBe(executionId);
    expect((await execution(executionId)).status).toBe(200);
  });
});
