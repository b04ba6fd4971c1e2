// Each API process caches a user's connections for /v1/mcp (identity/credential-cache.ts): the
// attacker's case is a connection removed (its credential withdrawn) that a warm cache keeps
// calling. A change to a user's connections is evicted on every instance before it answers: a
// removed connection is neither called nor listed on the next request, on this instance or on a
// second one; a new one is listed at once. On PGlite and the in-process fallback each stack is
// alone, so the "second instance" is this one.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { createTestUser } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { writeFixtureCatalog } from '../tools/fixture-catalog.js';
import { connect, mcpClient, startMcpStack, type McpStack } from './mcp-stack.js';

let s: McpStack;
let second: Stack;

beforeAll(async () => {
  s = await startMcpStack({ worker: false });
  const sharesState = Boolean(s.stack.config.DATABASE_URL && s.stack.config.REDIS_URL);
  second = sharesState
    ? await startStack({ shareWith: s.stack, worker: false, env: { TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: s.mcp.url, hangUrl: s.mcp.url }) } })
    : s.stack;
});
afterAll(async () => {
  if (second !== s?.stack) await second?.stop();
  await s?.stop();
});

const names = async (baseUrl: string, key: string) => (await (await mcpClient(baseUrl, key)).listTools()).tools.map((tool) => tool.name);

describe('/v1/mcp with cached connections', () => {
  it('stops calling and listing a removed connection at once, on this and on a second instance', async () => {
    const user = await createTestUser(s.stack.runtime.orm, s.org.id, 'member');
    const connectionId = await connect(s.stack, user.key);
    // Warm both instances' caches: each has called through the connection.
    for (const baseUrl of [s.stack.baseUrl, second.baseUrl]) {
      const echo = await (await mcpClient(baseUrl, user.key)).callTool({ name: 'fixture-http__echo', arguments: { text: 'warm' } });
      expect(echo.content).toEqual([{ type: 'text', text: 'warm' }]);
    }
    const callsBefore = s.calls.length;

    expect((await call(s.stack.baseUrl, 'DELETE', `/tools/connections/${connectionId}`, { key: user.key })).status).toBe(204);

    for (const baseUrl of [second.baseUrl, s.stack.baseUrl]) {
      const client = await mcpClient(baseUrl, user.key);
      const refused = await client.callTool({ name: 'fixture-http__echo', arguments: { text: 'after removal' } }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(McpError);
      expect((refused as McpError).message).toMatch(/Unknown tool: fixture-http__echo/);
      expect((await client.listTools()).tools).toEqual([]);
    }
    // The fixture server was not reached after the removal.
    expect(s.calls.length).toBe(callsBefore);
  });

  it('lists a new connection at once on an instance that had cached none', async () => {
    const user = await createTestUser(s.stack.runtime.orm, s.org.id, 'member');
    expect(await names(second.baseUrl, user.key)).toEqual([]);
    await connect(s.stack, user.key);
    expect(await names(second.baseUrl, user.key)).toContain('fixture-http__echo');
  });
});
