// Tools in assistant webhook executions, end to end: the execution workflow lists the tools of
// the assistant creator's connection, the fake upstream model asks for a tool call, the fixture
// MCP server answers it in its own activity, and the answer uses the result; the usage of every
// model call is summed into the execution.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../fixtures/fake-upstream.js';
import type { HttpFixture } from '../fixtures/mcp-server.js';
import { call, waitFor } from '../helpers/http.js';
import type { TestOrganization } from '../helpers/orgs.js';
import type { Stack } from '../helpers/stack.js';
import { startToolStack, type ToolStack } from '../tools/tool-stack.js';

const TOKEN = `tok-${randomUUID()}`;
let stack: Stack;
let org: TestOrganization;
let upstream: FakeUpstream;
let mcp: HttpFixture;
let tools: ToolStack;

beforeAll(async () => {
  tools = await startToolStack(TOKEN, { connect: true });
  ({ stack, org, upstream, mcp } = tools);
});
afterAll(async () => tools?.stop());

const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key: org.member.key, body });

async function webhookAssistant(body: Record<string, unknown>): Promise<string> {
  const created = await api('POST', '/assistants', { name: 'Calculator', model: 'fake-model', trigger: { type: 'webhook' }, ...body });
  expect(created.status, created.text).toBe(201);
  return new URL(created.body.webhookUrl).pathname.replace(/^\/v1/, '');
}

async function finishedExecution(executionId: string) {
  return waitFor(async () => {
    const res = await api('GET', `/webhooks/executions/${executionId}`);
    return ['success', 'failure'].includes(res.body.status) ? res.body : undefined;
  }, { timeoutMs: 60_000, what: 'the execution to finish' });
}

const answerWithToolResult = {
  content: (body: Record<string, unknown>) => {
    const toolMessage = (body.messages as { role: string; content: string }[]).find((message) => message.role === 'tool');
    return `The answer is ${toolMessage?.content ?? 'unknown'}`;
  },
  usage: { input: 30, output: 8 },
};

describe('tool use in assistant webhook executions', () => {
  it('calls the tool the model asks for and answers with its result, summing the usage of both model calls', async () => {
    const path = await webhookAssistant({ systemPrompt: 'Add the numbers of the payload with the tool.', tools: ['fixture-http'] });
    const before = upstream.requests.length;
    upstream.enqueue({ toolCalls: [{ id: 'call_1', name: 'fixture-http__add', arguments: '{"a": 2, "b": 40}' }], usage: { input: 20, output: 5 } }, answerWithToolResult);

    const ack = await call(stack.baseUrl, 'POST', path, { body: { a: 2, b: 40 } });
    expect(ack.status).toBe(202);
    const execution = await finishedExecution(ack.body.executionId);
    expect(execution).toMatchObject({ status: 'success', output: 'The answer is 42', model: 'fake-model', usage: { inputTokens: 50, outputTokens: 13 } });

    const [first, second] = upstream.requests.slice(before);
    expect(upstream.requests.length - before).toBe(2);
    const offered = (first!.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(offered).toContain('fixture-http__add');
    const messages = second!.body.messages as Record<string, unknown>[];
    expect(messages[0]).toEqual({ role: 'system', content: 'Add the numbers of the payload with the tool.' });
    expect(messages).toContainEqual(expect.objectContaining({ role: 'tool', tool_call_id: 'call_1', content: '42' }));
    expect(mcp.authorizations).toContain(`Bearer ${TOKEN}`);

    // One activity per tool call, visible in the execution's history.
    const history = await stack.runtime.temporal.client.workflow.getHandle(`webhook/${ack.body.executionId}`).fetchHistory();
    const activityTypes = (history.events ?? [])
      .map((event) => event.activityTaskScheduledEventAttributes?.activityType?.name)
      .filter((name): name is string => Boolean(name));
    expect(activityTypes.filter((name) => name === 'callAssistantTool')).toHaveLength(1);
    expect(activityTypes.filter((name) => name === 'runAssistantForWebhook')).toHaveLength(2);
  }, 90_000);

  it('keeps the usage of the model calls completed before the tool loop failed', async () => {
    const path = await webhookAssistant({ systemPrompt: 'Add, then fail.', tools: ['fixture-http'] });
    const before = upstream.requests.length;
    // The second model call fails upstream (our credentials refused: 502, retryable) on each of the activity's four attempts (an agent run's model step, AGENT_STEP_OPTIONS).
    upstream.enqueue(
      { toolCalls: [{ id: 'call_u', name: 'fixture-http__add', arguments: '{"a": 1, "b": 2}' }], usage: { input: 20, output: 5 } },
      { status: 401 }, { status: 401 }, { status: 401 }, { status: 401 },
    );
    const ack = await call(stack.baseUrl, 'POST', path, { body: {} });
    const execution = await finishedExecution(ack.body.executionId);
    expect(execution).toMatchObject({ status: 'failure', usage: { inputTokens: 20, outputTokens: 5 } });
    expect(upstream.requests.length - before).toBe(5);
  }, 90_000);

  it('tells the model about a tool error and lets it answer anyway', async () => {
    const path = await webhookAssistant({ systemPrompt: 'Try the failing tool.', tools: ['fixture-http'] });
    const before = upstream.requests.length;
    upstream.enqueue(
      { toolCalls: [{ id: 'call_f', name: 'fixture-http__fail', arguments: '{}' }] },
      { content: (body) => `Saw: ${(body.messages as { role: string; content: string }[]).find((m) => m.role === 'tool')?.content}` },
    );
    const ack = await call(stack.baseUrl, 'POST', path, { body: {} });
    const execution = await finishedExecution(ack.body.executionId);
    expect(execution).toMatchObject({ status: 'success', output: 'Saw: the fixture tool failed' });
    expect(upstream.requests.length - before).toBe(2);
  }, 90_000);

  it("uses its skill's tools, and one skill version for the whole execution even if a newer one is published meanwhile", async () => {
    const skill = await api('POST', '/skills', {
      name: 'Calculator skill', description: 'Adds', category: 'data', systemPrompt: 'Skill v1.', tools: ['fixture-http'], visibility: 'team',
    });
    expect(skill.status, skill.text).toBe(201);
    const path = await webhookAssistant({ systemPrompt: 'Own prompt.', skillId: skill.body.id });
    const before = upstream.requests.length;
    // The first model call answers slowly; a new version is published while it is in flight.
    upstream.enqueue({ latencyMs: 1500, toolCalls: [{ id: 'call_s', name: 'fixture-http__add', arguments: '{"a": 1, "b": 1}' }] }, answerWithToolResult);
    const ack = await call(stack.baseUrl, 'POST', path, { body: {} });
    await waitFor(async () => upstream.requests.length > before, { what: 'the first model call' });
    expect((await api('POST', `/skills/${skill.body.id}/versions`, { systemPrompt: 'Skill v2.' })).status).toBe(201);

    const execution = await finishedExecution(ack.body.executionId);
    expect(execution).toMatchObject({ status: 'success', output: 'The answer is 2' });
    const requests = upstream.requests.slice(before);
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect((request.body.messages as Record<string, unknown>[])[0]).toEqual({ role: 'system', content: 'Skill v1.\n\nOwn prompt.' });
    }
    expect((requests[0]!.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toContain('fixture-http__add');
  }, 90_000);

  it('offers no tools to an assistant without any, in a single model call', async () => {
    const path = await webhookAssistant({ systemPrompt: 'Just answer.' });
    const before = upstream.requests.length;
    const ack = await call(stack.baseUrl, 'POST', path, { body: { ping: true } });
    const execution = await finishedExecution(ack.body.executionId);
    expect(execution.status).toBe('success');
    const requests = upstream.requests.slice(before);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.body.tools).toBeUndefined();
  }, 60_000);
});
