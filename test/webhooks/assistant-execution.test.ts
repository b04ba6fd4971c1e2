// An assistant webhook end to end on the real stack with the gateway pointed at a fake upstream:
// the model receives the system prompt and the webhook body, the execution reports the answer
// and its usage, and the answer reaches every channel (email over real SMTP, a signed webhook),
// a failed delivery being retried under the same delivery id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_DEFAULT_CONTENT, fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startSmtpListener, type SmtpListener } from '../fixtures/smtp.js';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let upstream: FakeUpstream;
let smtp: SmtpListener;
let receiver: WebhookReceiver;
let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  [upstream, smtp, receiver] = await Promise.all([startFakeUpstream(), startSmtpListener(), startWebhookReceiver()]);
  stack = await startStack({
    env: {
      GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })),
      SMTP_URL: smtp.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([upstream?.close(), smtp?.stop(), receiver?.stop()]);
});

describe('assistant webhook execution', () => {
  it('sends the body to the model, reports the answer with usage and delivers it to every channel', async () => {
    const created = await call(stack.baseUrl, 'POST', '/assistants', {
      key: org.admin.key,
      body: {
        name: 'Order triage',
        systemPrompt: 'You triage incoming orders.',
        model: 'standard',
        channels: [
          { type: 'email', target: 'ops@example.test' },
          { type: 'webhook', target: receiver.url },
        ],
        trigger: { type: 'webhook' },
      },
    });
    expect(created.status).toBe(201);
    // The generated signing secret, shown once: the receiver verifies signatures with it.
    receiver.secret = created.body.channels[1].secret;
    receiver.failNext(1);

    const path = new URL(created.body.webhookUrl).pathname.replace(/^\/v1/, '');
    const ack = await call(stack.baseUrl, 'POST', path, { body: { event: 'order.created', data: { orderId: 'Q-5521' } } });
    expect(ack.status).toBe(202);

    const finished = await waitFor(async () => {
      const res = await call(stack.baseUrl, 'GET', `/webhooks/executions/${ack.body.executionId}`, { key: org.member.key });
      return ['success', 'failure'].includes(res.body.status) ? res : undefined;
    }, { timeoutMs: 30_000, what: 'execution to finish' });
    expect(finished.body).toMatchObject({
      status: 'success',
      output: FAKE_DEFAULT_CONTENT,
      model: 'fake-model',
      usage: { inputTokens: 11, outputTokens: 7, estimatedCost: expect.any(Number) },
    });

    const sent = upstream.requests.at(-1)!.body as { messages: Array<{ role: string; content: string }> };
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'You triage incoming orders.' });
    expect(sent.messages[1]!.role).toBe('user');
    expect(JSON.parse(sent.messages[1]!.content.slice(sent.messages[1]!.content.indexOf('{')))).toEqual({
      event: 'order.created',
      data: { orderId: 'Q-5521' },
    });

    const mail = smtp.messages.find((m) => m.raw.includes(`${ack.body.executionId}`));
    expect(mail?.to).toEqual(['ops@example.test']);
    expect(mail?.raw).toContain(FAKE_DEFAULT_CONTENT);

    expect(mail?.raw).toContain(`Subject: [Assistant] Order triage`);

    // The receiver failed the first attempt: the activity retried with the same delivery id
    // (execution id + channel index, not random per attempt) and the same labelled body.
    const attempts = receiver.deliveries.filter((d) => d.body.data && (d.body.data as { executionId?: string }).executionId === ack.body.executionId);
    expect(attempts.map((d) => d.answeredStatus)).toEqual([500, 200]);
    expect(attempts.map((d) => d.deliveryId)).toEqual([`${ack.body.executionId}:1`, `${ack.body.executionId}:1`]);
    expect(attempts.every((d) => d.verified)).toBe(true);
    expect(attempts.map((d) => d.event)).toEqual(['assistant.webhook.completed', 'assistant.webhook.completed']);
    expect(attempts[1]!.body).toEqual(attempts[0]!.body);
    expect(attempts[0]!.body).toEqual({
      id: `${ack.body.executionId}:1`,
      event: 'assistant.webhook.completed',
      data: { assistantId: created.body.id, assistantName: 'Order triage', executionId: ack.body.executionId, receivedAt: expect.any(String), output: FAKE_DEFAULT_CONTENT },
    });
  });

  it('shows a generated webhook channel secret once, in the create response only', async () => {
    const created = await call(stack.baseUrl, 'POST', '/assistants', {
      key: org.admin.key,
      body: { name: 'Signed', systemPrompt: 'x', channels: [{ type: 'webhook', target: 'https://hooks.example.test/in' }] },
    });
    expect(created.body.channels[0].secret).toMatch(/^whsec_/);
    const fetched = await call(stack.baseUrl, 'GET', `/assistants/${created.body.id}`, { key: org.admin.key });
    expect(fetched.body.channels).toEqual([{ type: 'webhook', target: 'https://hooks.example.test/in' }]);
  });

  it("runs with the instructions of its skill before its own in one system prompt (as automations do), and refuses a skill the caller cannot use", async () => {
    const skill = await call(stack.baseUrl, 'POST', '/skills', {
      key: org.admin.key,
      body: { name: 'Tone', description: 'House tone', category: 'productivity', systemPrompt: 'Always answer in formal English.', visibility: 'team' },
    });
    expect(skill.status).toBe(201);
    const created = await call(stack.baseUrl, 'POST', '/assistants', {
      key: org.admin.key,
      body: { name: 'Formal', systemPrompt: 'Summarize.', skillId: skill.body.id, trigger: { type: 'webhook' } },
    });
    expect(created.status).toBe(201);
    const path = new URL(created.body.webhookUrl).pathname.replace(/^\/v1/, '');
    const ack = await call(stack.baseUrl, 'POST', path, { body: { event: 'skill.check' } });
    await waitFor(async () => (await call(stack.baseUrl, 'GET', `/webhooks/executions/${ack.body.executionId}`, { key: org.admin.key })).body.status === 'success',
      { timeoutMs: 30_000, what: 'execution success' });
    const sent = upstream.requests.at(-1)!.body as { messages: Array<{ role: string; content: string }> };
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'Always answer in formal English.\n\nSummarize.' });
    expect(sent.messages[1]!.role).toBe('user');

    const unknown = await call(stack.baseUrl, 'POST', '/assistants', {
      key: org.admin.key,
      body: { name: 'Bad skill', systemPrompt: 'x', skillId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.param).toBe('skillId');
  });
});
