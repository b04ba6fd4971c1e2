// Webhook assistants wait for people too: the execution of an assistant whose tool is
// under an `always` policy stays `running` with `pendingApprovals` on its status until the call is
// decided, through the API or an operator's signal to `webhook/<executionId>`, or the request
// expires; the model hears the outcome.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../fixtures/fake-upstream.js';
import { RECORDING, writeHistoryFixture } from '../helpers/histories.js';
import { call, waitFor } from '../helpers/http.js';
import type { TestOrganization } from '../helpers/orgs.js';
import type { Stack } from '../helpers/stack.js';
import { startToolStack, type ToolStack } from '../tools/tool-stack.js';

const TOKEN = `tok-${randomUUID()}`;
let stack: Stack;
let org: TestOrganization;
let upstream: FakeUpstream;
let tools: ToolStack;

beforeAll(async () => {
  tools = await startToolStack(TOKEN, { connect: true });
  ({ stack, org, upstream } = tools);
}, 180_000);
afterAll(async () => tools?.stop());

const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key: org.member.key, body });

async function waitingExecution(): Promise<{ executionId: string; approvalId: string; assistantId: string }> {
  const created = await api('POST', '/assistants', {
    name: 'Calculator', model: 'fake-model', trigger: { type: 'webhook' }, systemPrompt: 'Add with the tool.',
    tools: ['fixture-http'], toolApprovals: { 'fixture-http__add': 'always' },
  });
  expect(created.status, created.text).toBe(201);
  upstream.reset();
  upstream.enqueue({ toolCalls: [{ id: 'call_add', name: 'fixture-http__add', arguments: '{"a": 2, "b": 40}' }] }, { content: 'Done.' });
  const ack = await call(stack.baseUrl, 'POST', new URL(created.body.webhookUrl).pathname.replace(/^\/v1/, ''), { body: { a: 2, b: 40 } });
  expect(ack.status).toBe(202);
  const status = await waitFor(async () => {
    const res = await api('GET', `/webhooks/executions/${ack.body.executionId}`);
    return res.body.pendingApprovals?.length > 0 && res.body;
  }, { timeoutMs: 60_000, what: 'the execution to wait' });
  expect(status.status).toBe('running');
  expect(status.pendingApprovals).toEqual([{ id: expect.any(String), tool: 'fixture-http__add', arguments: '{"a": 2, "b": 40}', expiresAt: expect.any(String) }]);
  return { executionId: ack.body.executionId, approvalId: status.pendingApprovals[0].id, assistantId: created.body.id };
}

async function finished(executionId: string) {
  return waitFor(async () => {
    const res = await api('GET', `/webhooks/executions/${executionId}`);
    return ['success', 'failure'].includes(res.body.status) && res.body;
  }, { timeoutMs: 60_000, what: 'the execution to finish' });
}

const toolMessages = () =>
  (upstream.requests.at(-1)!.body.messages as { role: string; content: string }[]).filter((message) => message.role === 'tool').map((message) => message.content);

describe('an assistant execution with a tool under an always policy', () => {
  it('waits, and runs the call once its owner approves through the API', async () => {
    const { executionId, approvalId, assistantId } = await waitingExecution();
    const listed = await api('GET', `/approvals?assistantId=${assistantId}&status=pending`);
    expect(listed.body.approvals).toEqual([expect.objectContaining({ id: approvalId, executionId, assistantId, runId: null })]);
    expect((await api('POST', `/approvals/${approvalId}/approve`)).status).toBe(200);
    expect(await finished(executionId)).toMatchObject({ status: 'success', output: 'Done.' });
    expect(toolMessages()).toEqual(['42']);
  }, 120_000);

  it("takes an operator's deny signal to webhook/<executionId>, and the model hears the reason", async () => {
    const { executionId, approvalId } = await waitingExecution();
    await stack.runtime.temporal.client.workflow.getHandle(`webhook/${executionId}`).signal('deny', { approvalId, reason: 'operator says no' });
    expect(await finished(executionId)).toMatchObject({ status: 'success' });
    if (RECORDING) {
      const { events } = await stack.runtime.temporal.client.workflow.getHandle(`webhook/${executionId}`).fetchHistory();
      writeHistoryFixture('webhook-execution-assistant-denied.patched.history.bin', { events });
    }
    expect(toolMessages()).toEqual(['Tool call not run: a person denied it (reason: operator says no).']);
    expect((await api('GET', `/approvals/${approvalId}`)).body).toMatchObject({ status: 'denied', decidedVia: 'signal', reason: 'operator says no' });
  }, 120_000);

  it('lets the remembered tool run without waiting for the next execution', async () => {
    const { executionId, approvalId, assistantId } = await waitingExecution();
    expect((await api('POST', `/approvals/${approvalId}/approve`, { remember: true })).status).toBe(200);
    await finished(executionId);
    expect((await api('GET', `/assistants/${assistantId}`)).body.toolApprovals).toEqual({ 'fixture-http__add': 'never' });
  }, 120_000);
});
