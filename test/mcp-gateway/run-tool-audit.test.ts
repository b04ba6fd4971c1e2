// `tool.called` is one record for every tool call: a run's call is audited like a
// /v1/mcp call, with the run as target, the owner as actor, outcome and duration, and without its
// arguments unless AUDIT_TOOL_ARGUMENTS is on.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, waitFor } from '../helpers/http.js';
import { startToolStack, type ToolStack } from '../tools/tool-stack.js';

const TOKEN = `tok-${randomUUID()}`;
let tools: ToolStack;

beforeAll(async () => {
  tools = await startToolStack(TOKEN, { connect: true });
});
afterAll(async () => tools?.stop());

describe('tool.called for runs', () => {
  it("records a run's tool call with the run, the owner, the outcome and the duration", async () => {
    const { stack, org, upstream } = tools;
    const api = (method: string, path: string, body?: unknown) => call<any>(stack.baseUrl, method, path, { key: org.member.key, body });
    const automation = await api('POST', '/automations', { name: 'Adder', systemPrompt: 'Add.', schedule: '0 9 * * *', status: 'paused', model: 'fake-model', tools: ['fixture-http'] });
    expect(automation.status, automation.text).toBe(201);
    upstream.enqueue({ toolCalls: [{ id: 'call_1', name: 'fixture-http__add', arguments: '{"a": 2, "b": 40}' }], usage: { input: 20, output: 5 } }, { content: 'done', usage: { input: 30, output: 8 } });
    const started = await api('POST', `/automations/${automation.body.id}/run`);
    expect(started.status, started.text).toBe(202);
    const event = await waitFor(async () => {
      const audit = await call<any>(stack.baseUrl, 'GET', '/audit-logs?limit=100', { key: org.owner.key });
      return (audit.body.auditLogs as any[]).find((e) => e.action === 'tool.called' && e.targetId === started.body.runId);
    }, { timeoutMs: 60_000, what: "the run's tool.called event" });
    expect(event).toMatchObject({ actorUserId: org.member.id, targetType: 'run', metadata: { tool: 'fixture-http__add', via: 'run', outcome: 'ok', durationMs: expect.any(Number) } });
    expect(event.metadata.arguments).toBeUndefined();
  }, 90_000);
});
