// Tools in automation runs, end to end: the run workflow lists the tools of the automation
// owner's connection, the fake upstream model asks for a tool call, the fixture MCP server
// answers it in its own activity, and the final output uses the result; tokens of every model
// call are summed into the run.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../fixtures/fake-upstream.js';
import type { HttpFixture } from '../fixtures/mcp-server.js';
import { call, waitFor } from '../helpers/http.js';
import type { TestOrganization } from '../helpers/orgs.js';
import type { Stack } from '../helpers/stack.js';
import { startToolStack, type ToolStack } from './tool-stack.js';

const TOKEN = `tok-${randomUUID()}`;
let stack: Stack;
let org: TestOrganization;
let upstream: FakeUpstream;
let mcp: HttpFixture;
let tools: ToolStack;

beforeAll(async () => {
  tools = await startToolStack(TOKEN);
  ({ stack, org, upstream, mcp } = tools);
});
afterAll(async () => tools?.stop());

const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key: org.member.key, body });

describe('tool use in automation runs', () => {
  it('calls the tool the model asks for and answers with its result, summing the tokens of both model calls', async () => {
    expect((await api('POST', '/tools/connections', { toolId: 'fixture-http', name: 'Fixture', env: { FIXTURE_TOKEN: TOKEN } })).status).toBe(201);
    const automation = await api('POST', '/automations', {
      name: 'Adder',
      systemPrompt: 'Add 2 and 40 with the tool, then say the answer.',
      schedule: '0 9 * * *',
      status: 'paused',
      model: 'fake-model',
      tools: ['fixture-http'],
    });
    expect(automation.status, automation.text).toBe(201);

    upstream.enqueue(
      { toolCalls: [{ id: 'call_1', name: 'fixture-http__add', arguments: '{"a": 2, "b": 40}' }], usage: { input: 20, output: 5 } },
      {
        content: (body) => {
          const toolMessage = (body.messages as { role: string; content: string }[]).find((message) => message.role === 'tool');
          return `The answer is ${toolMessage?.content ?? 'unknown'}`;
        },
        usage: { input: 30, output: 8 },
      },
    );
    const started = await api('POST', `/automations/${automation.body.id}/run`);
    expect(started.status, started.text).toBe(202);

    const run = await waitFor(
      async () => {
        const list = await api('GET', `/automations/${automation.body.id}/runs`);
        return list.body.runs.find((r: any) => r.id === started.body.runId && r.status !== 'running');
      },
      { timeoutMs: 60_000, what: 'the run to finish' },
    );
    expect(run).toMatchObject({ status: 'success', output: 'The answer is 42', tokensInput: 50, tokensOutput: 13 });

    const [first, second] = upstream.requests.slice(-2);
    const offered = (first!.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(offered).toContain('fixture-http__add');
    expect(second!.body.messages).toContainEqual(expect.objectContaining({ role: 'tool', tool_call_id: 'call_1', content: '42' }));
    expect(mcp.authorizations).toContain(`Bearer ${TOKEN}`);
  }, 90_000);
});
