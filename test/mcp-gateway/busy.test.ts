// Beyond a pooled session's limits (MCP_CONNECTION_CONCURRENCY calls running, MCP_CONNECTION_QUEUE
// waiting), a /v1/mcp call answers at once with a busy tool error and a retry hint: never a hang,
// never a lost call. Here one call runs and one waits; the others are told to retry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, startMcpStack, textOf, type McpStack } from './mcp-stack.js';

let s: McpStack;

beforeAll(async () => {
  s = await startMcpStack({ worker: false, env: { MCP_CONNECTION_CONCURRENCY: '1', MCP_CONNECTION_QUEUE: '1' } });
});
afterAll(async () => s?.stop());

describe('/v1/mcp under load', () => {
  it('answers every call: one runs, one waits its turn, the rest get a busy error with a retry hint', async () => {
    const client = await mcpClient(s.stack.baseUrl, s.org.member.key);
    await client.listTools();
    const results = await Promise.all(Array.from({ length: 5 }, () => client.callTool({ name: 'fixture-http__slow', arguments: { ms: 2000 } })));
    const ok = results.filter((result) => !result.isError);
    const busy = results.filter((result) => result.isError && /busy.*retry after 1 second/.test(textOf(result)));
    expect(ok.length + busy.length).toBe(5);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    expect(textOf(ok[0])).toBe('waited 2000 ms');
    await client.close();
  });
});
