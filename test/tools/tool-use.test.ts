// The seam automation runs use: a user's connections as OpenAI function tools, and single tool
// calls with truncated text results, against the fixture MCP server.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callConnectionTool, listConnectionTools, resolveToolCall, TOOL_RESULT_MAX_CHARS } from '../../src/connectors/tool-use.js';
import { FIXTURE_TOOL_NAMES, startMcpHttpFixture, type HttpFixture } from '../fixtures/mcp-server.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { writeFixtureCatalog } from './fixture-catalog.js';

const TOKEN = `tok-${randomUUID()}`;
let stack: Stack;
let org: TestOrganization;
let remote: HttpFixture;
let httpConnectionId: string;
let stdioConnectionId: string;

async function connect(toolId: string, env: Record<string, string>): Promise<string> {
  const res = await call(stack.baseUrl, 'POST', '/tools/connections', { key: org.member.key, body: { toolId, name: toolId, env } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  remote = await startMcpHttpFixture({ token: TOKEN });
  const catalogFile = writeFixtureCatalog({ okUrl: remote.url, hangUrl: remote.url });
  stack = await startStack({ worker: false, env: { TOOLS_CATALOG_EXTRA: catalogFile } });
  org = await createTestOrganization(stack.runtime.orm);
  httpConnectionId = await connect('fixture-http', { FIXTURE_TOKEN: TOKEN });
  stdioConnectionId = await connect('fixture-stdio', { FIXTURE_TOKEN: TOKEN });
});
afterAll(async () => {
  await stack?.stop();
  await remote?.stop();
});

describe('listConnectionTools', () => {
  it('offers the tools of the user’s connections as namespaced OpenAI functions bound to their connection', async () => {
    const result = await listConnectionTools(stack.runtime, {
      organizationId: org.id,
      userId: org.member.id,
      toolIds: ['fixture-http', 'fixture-stdio', 'github'],
    });
    const names = result.tools.map((tool) => tool.function.name);
    expect(names).toEqual([...FIXTURE_TOOL_NAMES.map((n) => `fixture-http__${n}`), ...FIXTURE_TOOL_NAMES.map((n) => `fixture-stdio__${n}`)]);
    expect(result.tools.find((tool) => tool.function.name === 'fixture-http__add')).toEqual({
      type: 'function',
      function: {
        name: 'fixture-http__add',
        description: 'Adds two numbers',
        parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      },
    });
    expect(resolveToolCall(result.bindings, 'fixture-stdio__echo')).toEqual({ connectionId: stdioConnectionId, toolId: 'fixture-stdio', toolName: 'echo' });
    expect(resolveToolCall(result.bindings, 'constructor')).toBeUndefined();
    expect(result.unavailable).toEqual([{ toolId: 'github', reason: 'no connection to github' }]);
  });

  it('does not use another user’s connections', async () => {
    const result = await listConnectionTools(stack.runtime, { organizationId: org.id, userId: org.admin.id, toolIds: ['fixture-http'] });
    expect(result.tools).toEqual([]);
    expect(result.unavailable).toHaveLength(1);
  });
});

describe('callConnectionTool', () => {
  it('calls a tool over stdio and over HTTP and returns its text', async () => {
    const stdio = await callConnectionTool(stack.runtime, { organizationId: org.id, userId: org.member.id, connectionId: stdioConnectionId, toolName: 'add', arguments: '{"a": 2, "b": 40}', timeoutMs: 10_000 });
    expect(stdio).toEqual({ text: '42', isError: false, truncated: false });
    const http = await callConnectionTool(stack.runtime, { organizationId: org.id, userId: org.member.id, connectionId: httpConnectionId, toolName: 'echo', arguments: { text: 'hello' } });
    expect(http).toEqual({ text: 'hello', isError: false, truncated: false });
  });

  it(`truncates results longer than ${TOOL_RESULT_MAX_CHARS} characters`, async () => {
    const result = await callConnectionTool(stack.runtime, { organizationId: org.id, userId: org.member.id, connectionId: httpConnectionId, toolName: 'large', arguments: { size: TOOL_RESULT_MAX_CHARS + 500 } });
    expect(result.truncated).toBe(true);
    expect(result.text.endsWith('[truncated: 500 more characters]')).toBe(true);
  });

  it('reports tool errors, bad arguments and foreign connections as error text for the model', async () => {
    const toolError = await callConnectionTool(stack.runtime, { organizationId: org.id, userId: org.member.id, connectionId: httpConnectionId, toolName: 'fail', arguments: {} });
    expect(toolError).toMatchObject({ isError: true, text: 'the fixture tool failed' });
    const badArgs = await callConnectionTool(stack.runtime, { organizationId: org.id, userId: org.member.id, connectionId: httpConnectionId, toolName: 'echo', arguments: '[1,2' });
    expect(badArgs).toMatchObject({ isError: true, text: 'Tool error: the tool arguments are not a JSON object' });
    const other = await createTestOrganization(stack.runtime.orm);
    const foreign = await callConnectionTool(stack.runtime, { organizationId: other.id, userId: other.member.id, connectionId: httpConnectionId, toolName: 'echo', arguments: { text: 'x' } });
    expect(foreign).toMatchObject({ isError: true, text: 'Tool error: the connection of this tool no longer exists' });
  });
});
