// DLP on webhook payloads passed to an assistant: its own activity (`scanWebhookInput`) before
// any model call, as the automation run's scan is. Block fails the execution with dlp_blocked
// naming the types, before anything reaches the upstream; mask sends the redacted payload.
// With RECORD_HISTORIES=1 the blocked execution's history is written as a replay fixture.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import proto from '@temporalio/proto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const CARD = '4111 1111 1111 1111';
let stack: Stack;
let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  stack = await startStack({ env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })) } });
});
afterEach(() => upstream.reset());
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

async function webhookAssistant(org: TestOrganization): Promise<string> {
  const created = await call<any>(stack.baseUrl, 'POST', '/assistants', {
    key: org.member.key,
    body: { name: 'Payments triage', model: 'fake-model', systemPrompt: 'Summarize the payment event.', trigger: { type: 'webhook' } },
  });
  expect(created.status, created.text).toBe(201);
  return new URL(created.body.webhookUrl).pathname.replace(/^\/v1/, '');
}

async function execute(org: TestOrganization, body: unknown) {
  const ack = await call<any>(stack.baseUrl, 'POST', await webhookAssistant(org), { body });
  expect(ack.status).toBe(202);
  const execution = await waitFor(async () => {
    const res = await call<any>(stack.baseUrl, 'GET', `/webhooks/executions/${ack.body.executionId}`, { key: org.member.key });
    return ['success', 'failure'].includes(res.body.status) ? res.body : undefined;
  }, { timeoutMs: 60_000, what: 'the execution to finish' });
  const history = await stack.runtime.temporal.client.workflow.getHandle(`webhook/${ack.body.executionId}`).fetchHistory();
  return { execution, history };
}

const activityTypes = (history: { events?: { activityTaskScheduledEventAttributes?: { activityType?: { name?: string | null } | null } | null }[] | null }) =>
  (history.events ?? []).map((event) => event.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);

describe('DLP on webhook payloads for assistants', () => {
  it('blocks a payload with a card number in its own activity, before any model call', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const { execution, history } = await execute(org, { event: 'payment.failed', card: CARD });
    expect(execution.status).toBe('failure');
    expect(execution.error).toMatch(/dlp.*credit_card/i);
    expect(JSON.stringify(execution)).not.toContain(CARD);
    expect(upstream.requests).toHaveLength(0);
    expect(activityTypes(history)).toEqual(['markWebhookExecutionRunning', 'scanWebhookInput', 'finishWebhookExecution']);
    if (process.env.RECORD_HISTORIES) {
      const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/histories/webhook-execution-assistant-dlp.patched.history.bin');
      fs.writeFileSync(file, proto.temporal.api.history.v1.History.encode(proto.temporal.api.history.v1.History.fromObject(history)).finish());
    }
  }, 90_000);

  it('sends the masked payload upstream when the policy masks', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    expect((await call(stack.baseUrl, 'PUT', '/dlp/policy', { key: org.owner.key, body: { detectors: { credit_card: 'mask' } } })).status).toBe(200);
    const { execution, history } = await execute(org, { event: 'payment.failed', card: CARD });
    expect(execution.status, execution.error).toBe('success');
    const sent = JSON.stringify(upstream.requests[0]!.body.messages);
    expect(sent).toContain('[REDACTED:credit_card]');
    expect(sent).not.toContain(CARD);
    expect(activityTypes(history)).toContain('scanWebhookInput');
  }, 90_000);
});
