// /v1/mcp with the official MCP client over Streamable HTTP: the member's tools listed
// as runs name them and called through pooled sessions; content blocks passed through whole;
// the key's mcpTools; DLP on arguments, results and descriptions; 401; another organization's
// tools never listed nor callable; an API restart between two calls; every call audited.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../../src/api/server.js';
import { MCP_ANSWER_MAX_BYTES } from '../../src/connectors/request-fetch.js';
import { ConnectorSessionPool } from '../../src/mcp-gateway/session-pool.js';
import { FIXTURE_PNG, FIXTURE_TOOL_NAMES } from '../fixtures/mcp-server.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { connect, fetchWithoutKeepAlive, mcpClient, startMcpStack, textOf, type McpStack } from './mcp-stack.js';

let s: McpStack;
/** The pool of the API started again by the restart test (the runtime's own is closed with the stack). */
let restartedPool: ConnectorSessionPool | undefined;

beforeAll(async () => {
  // The member reaches 11 fixture tools: past 8, search_tools is offered too.
  s = await startMcpStack({ worker: false, env: { MCP_SEARCH_TOOLS_THRESHOLD: '8' } });
});
afterAll(async () => {
  await s?.stop();
  await restartedPool?.close();
});

const createKey = (key: string, body: Record<string, unknown>) => call<any>(s.stack.baseUrl, 'POST', '/api-keys', { key, body: { name: 'k', ...body } });
const auditOf = async (org: TestOrganization, action: string) =>
  ((await call<any>(s.stack.baseUrl, 'GET', '/audit-logs?limit=200', { key: org.owner.key })).body.auditLogs as any[]).filter((event) => event.action === action);
/** The first event that `matches`: tool.called events are written just after the call answers (group commit). */
const auditEventOf = (org: TestOrganization, action: string, matches: (event: any) => boolean) =>
  waitFor(async () => (await auditOf(org, action)).find(matches), { timeoutMs: 10_000, what: `an ${action} audit event` });

describe('/v1/mcp', () => {
  it('answers 401 with a bearer challenge without an API key, and with a malformed one', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { accept: 'application/json, text/event-stream' };
    const none = await call(s.stack.baseUrl, 'POST', '/mcp', { body: initialize, headers });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await call(s.stack.baseUrl, 'POST', '/mcp', { body: initialize, headers, key: 'svc_live_notAKeyAtAllButLongEnough0123456789' })).status).toBe(401);
    await expect(mcpClient(s.stack.baseUrl, 'svc_live_' + 'x'.repeat(40))).rejects.toThrow();
  });

  it('answers 405 naming POST to the methods a stateless server does not serve, before any credential check', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await call<any>(s.stack.baseUrl, method, '/mcp', { headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body.error.message).toMatch(/stateless/);
    }
    // Only /v1/mcp itself is the MCP server.
    expect((await call(s.stack.baseUrl, 'POST', '/mcp/extra', { key: s.org.member.key, body: {} })).status).toBe(404);
  });

  it("lists the member's tools named <toolId>__<toolName>, with their input schemas", async () => {
    const client = await mcpClient(s.stack.baseUrl, s.org.member.key);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [...FIXTURE_TOOL_NAMES, 'rich', 'leak', 'slow']) expect(names).toContain(`fixture-http__${name}`);
    const echo = tools.find((tool) => tool.name === 'fixture-http__echo')!;
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(echo.description).toBe('Returns the text it was given');
    // A user without connections gets no tools, and no search tool.
    expect((await (await mcpClient(s.stack.baseUrl, s.org.admin.key)).listTools()).tools).toEqual([]);
    await client.close();
  });

  it('offers search_tools past MCP_SEARCH_TOOLS_THRESHOLD, finding tools by name and description', async () => {
    const client = await mcpClient(s.stack.baseUrl, s.org.member.key);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('search_tools');
    const found = await client.callTool({ name: 'search_tools', arguments: { query: 'numbers', limit: 5 } });
    expect((found.structuredContent as any).tools.map((tool: any) => tool.name)).toEqual(['fixture-http__add']);
    expect((found.structuredContent as any).tools[0].inputSchema).toMatchObject({ required: ['a', 'b'] });
    // A key that reaches fewer tools than the threshold is not offered it.
    const few = await createKey(s.org.member.key, { mcpTools: ['fixture-http__echo', 'fixture-http__add'] });
    expect((await (await mcpClient(s.stack.baseUrl, few.body.key)).listTools()).tools.map((tool) => tool.name)).not.toContain('search_tools');
    await client.close();
  });

  it('calls a tool and passes text, images and structured content through whole', async () => {
    const client = await mcpClient(s.stack.baseUrl, s.org.member.key);
    const echo = await client.callTool({ name: 'fixture-http__echo', arguments: { text: 'hello' } });
    expect(echo.isError).toBeFalsy();
    expect(echo.content).toEqual([{ type: 'text', text: 'hello' }]);
    const rich = await client.callTool({ name: 'fixture-http__rich', arguments: {} });
    expect(rich.content).toEqual([{ type: 'text', text: 'forty-two' }, { type: 'image', data: FIXTURE_PNG, mimeType: 'image/png' }]);
    expect(rich.structuredContent).toEqual({ answer: 42, note: 'write to alice@customer.example' });
    // Not cut short like a run's 16,000 characters.
    const large = await client.callTool({ name: 'fixture-http__large', arguments: { size: 100_000 } });
    expect(textOf(large)).toHaveLength(100_000);
    const failing = await client.callTool({ name: 'fixture-http__fail', arguments: {} });
    expect(failing.isError).toBe(true);
    await client.close();
  });

  it("refuses a remote server's answer past 10 MiB as a tool error naming the limit, and the session goes on", async () => {
    const client = await mcpClient(s.stack.baseUrl, s.org.member.key);
    const oversized = await client.callTool({ name: 'fixture-http__large', arguments: { size: MCP_ANSWER_MAX_BYTES } });
    expect(oversized.isError).toBe(true);
    expect(textOf(oversized)).toMatch(/larger than 10 MiB/);
    const echo = await client.callTool({ name: 'fixture-http__echo', arguments: { text: 'still here' } });
    expect(echo.content).toEqual([{ type: 'text', text: 'still here' }]);
    await client.close();
  });

  it('reuses one pooled session to the server across calls', async () => {
    const before = s.stack.runtime.mcpSessions.size;
    const client = await mcpClient(s.stack.baseUrl, s.org.member.key);
    await Promise.all([1, 2, 3].map((n) => client.callTool({ name: 'fixture-http__add', arguments: { a: n, b: 1 } })));
    expect(s.stack.runtime.mcpSessions.size).toBe(Math.max(before, 1));
    await client.close();
  });

  it('records every call as tool.called with the key, tool, outcome and duration, without arguments by default', async () => {
    const client = await mcpClient(s.stack.baseUrl, s.org.member.key);
    await client.callTool({ name: 'fixture-http__echo', arguments: { text: 'audited' } });
    const event = await auditEventOf(s.org, 'tool.called', (e) => e.metadata.tool === 'fixture-http__echo' && e.metadata.outcome === 'ok');
    expect(event).toMatchObject({ actorUserId: s.org.member.id, targetType: 'api_key', metadata: { via: 'mcp', durationMs: expect.any(Number) } });
    expect(event.metadata.arguments).toBeUndefined();
    await client.close();
  });

  it('limits a key to its mcpTools: others are neither listed nor callable', async () => {
    const limited = await createKey(s.org.member.key, { mcpTools: ['fixture-http__echo'] });
    const client = await mcpClient(s.stack.baseUrl, limited.body.key);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['fixture-http__echo']);
    await expect(client.callTool({ name: 'fixture-http__add', arguments: { a: 1, b: 2 } })).rejects.toThrow(McpError);
    expect((await client.callTool({ name: 'fixture-http__echo', arguments: { text: 'ok' } })).content).toEqual([{ type: 'text', text: 'ok' }]);
    const wildcard = await createKey(s.org.member.key, { mcpTools: ['fixture-http__*'] });
    expect((await (await mcpClient(s.stack.baseUrl, wildcard.body.key)).listTools()).tools.length).toBeGreaterThan(5);
    const none = await createKey(s.org.member.key, { mcpTools: [] });
    expect((await (await mcpClient(s.stack.baseUrl, none.body.key)).listTools()).tools).toEqual([]);
    // A child key inherits the limit.
    const child = await createKey(limited.body.key, {});
    expect((await (await mcpClient(s.stack.baseUrl, child.body.key)).listTools()).tools.map((tool) => tool.name)).toEqual(['fixture-http__echo']);
    await client.close();
  });

  it("never lists nor calls another organization's tools, nor another member's", async () => {
    const other = await createTestOrganization(s.stack.runtime.orm);
    const outsider = await mcpClient(s.stack.baseUrl, other.owner.key);
    expect((await outsider.listTools()).tools).toEqual([]);
    await expect(outsider.callTool({ name: 'fixture-http__echo', arguments: { text: 'x' } })).rejects.toThrow(/Unknown tool/);
    // The member's own admin does not reach the member's connection either.
    const admin = await mcpClient(s.stack.baseUrl, s.org.admin.key);
    await expect(admin.callTool({ name: 'fixture-http__echo', arguments: { text: 'x' } })).rejects.toThrow(/Unknown tool/);
    await outsider.close();
    await admin.close();
  });

  it('keeps working across an API restart between two calls (stateless: a fresh process state answers)', async () => {
    const port = Number(new URL(s.stack.api.url).port);
    const client = await mcpClient(s.stack.baseUrl, s.org.member.key, { fetch: fetchWithoutKeepAlive() });
    expect(textOf(await client.callTool({ name: 'fixture-http__echo', arguments: { text: 'before' } }))).toBe('before');
    await s.stack.api.stop(2000);
    // A new app with a new pool on the same port, as a restarted process would be.
    restartedPool = new ConnectorSessionPool(s.stack.runtime);
    s.stack.api = await startApi({ ...s.stack.runtime, mcpSessions: restartedPool }, { port, host: '127.0.0.1' });
    expect(textOf(await client.callTool({ name: 'fixture-http__echo', arguments: { text: 'after' } }))).toBe('after');
    await client.close();
  });
});

describe('/v1/mcp and DLP', () => {
  let org: TestOrganization;
  let client: Awaited<ReturnType<typeof mcpClient>>;
  const setPolicy = async (detectors: Record<string, string>) => {
    const put = await call(s.stack.baseUrl, 'PUT', '/dlp/policy', { key: org.owner.key, body: { detectors } });
    expect(put.status, put.text).toBe(200);
  };

  beforeAll(async () => {
    org = await createTestOrganization(s.stack.runtime.orm);
    await connect(s.stack, org.member.key);
    client = await mcpClient(s.stack.baseUrl, org.member.key);
  });
  afterAll(async () => client?.close());

  it('blocks arguments the policy blocks: a tool error naming the detector, nothing sent', async () => {
    await setPolicy({ email: 'block' });
    const before = s.calls.length;
    const result = await client.callTool({ name: 'fixture-http__echo', arguments: { text: 'mail bob@example.com' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/email/);
    expect(textOf(result)).not.toContain('bob@example.com');
    expect(s.calls.slice(before)).not.toContain('echo');
    expect(await auditEventOf(org, 'tool.called', (event) => event.metadata.outcome === 'blocked')).toBeTruthy();
  });

  it('blocks a result the policy blocks, and masks what it masks in results, structured content and descriptions', async () => {
    await setPolicy({ email: 'block' });
    const blocked = await client.callTool({ name: 'fixture-http__leak', arguments: {} });
    expect(blocked.isError).toBe(true);
    expect(textOf(blocked)).toMatch(/blocked.*email/);
    expect(JSON.stringify(blocked)).not.toContain('alice@customer.example');
    await setPolicy({ email: 'mask', credit_card: 'mask' });
    const masked = await client.callTool({ name: 'fixture-http__leak', arguments: {} });
    expect(masked.isError).toBeFalsy();
    expect(textOf(masked)).toContain('[REDACTED:email]');
    expect(textOf(masked)).toContain('[REDACTED:credit_card]');
    const rich = await client.callTool({ name: 'fixture-http__rich', arguments: {} });
    expect(rich.structuredContent).toEqual({ answer: 42, note: 'write to [REDACTED:email]' });
    const echoed = await client.callTool({ name: 'fixture-http__echo', arguments: { text: 'mail bob@example.com' } });
    expect(textOf(echoed)).toBe('mail [REDACTED:email]');
    const contact = (await client.listTools()).tools.find((tool) => tool.name === 'fixture-http__contact')!;
    expect(contact.description).toBe('Writes to the maintainer at [REDACTED:email]');
    await setPolicy({ email: 'block' });
    const withheld = (await client.listTools()).tools.find((tool) => tool.name === 'fixture-http__contact')!;
    expect(withheld.description).toMatch(/withheld/);
  });
});
