// The stack the MCP gateway tests share: the fixture MCP server over Streamable HTTP (with its rich
// tools, behind `token`), the service with it in its catalog (`fixture-http`), one organization
// whose member is connected to it, and an official MCP SDK client for /v1/mcp.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { expect } from 'vitest';
import { startMcpHttpFixture, type FixtureOptions, type HttpFixture } from '../fixtures/mcp-server.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack, type StackOptions } from '../helpers/stack.js';
import { writeFixtureCatalog } from '../tools/fixture-catalog.js';

export const FIXTURE_TOKEN = 'fixture-token-for-mcp-gateway-tests';

export interface McpStack {
  stack: Stack;
  org: TestOrganization;
  mcp: HttpFixture;
  /** tools/call requests the fixture received, by tool name. */
  calls: string[];
  stop(): Promise<void>;
}

export async function startMcpStack(options: { env?: Record<string, string>; worker?: boolean; fixture?: FixtureOptions } = {}): Promise<McpStack> {
  const calls: string[] = [];
  const mcp = await startMcpHttpFixture({ token: FIXTURE_TOKEN, richTools: true, onCallTool: (name) => calls.push(name), ...options.fixture });
  const stackOptions: StackOptions = { env: { TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: mcp.url, hangUrl: mcp.url }), ...options.env } };
  if (options.worker === false) stackOptions.worker = false;
  const stack = await startStack(stackOptions);
  const org = await createTestOrganization(stack.runtime.orm);
  await connect(stack, org.member.key);
  return {
    stack,
    org,
    mcp,
    calls,
    async stop() {
      await stack.stop();
      await mcp.stop();
    },
  };
}

/** Connects the key's user to the fixture server; returns the connection id. */
export async function connect(stack: Stack, key: string, extra: Record<string, unknown> = {}): Promise<string> {
  const connection = await call(stack.baseUrl, 'POST', '/tools/connections', { key, body: { toolId: 'fixture-http', name: 'Fixture', env: { FIXTURE_TOKEN }, ...extra } });
  expect(connection.status, connection.text).toBe(201);
  return (connection.body as { id: string }).id;
}

/** An official MCP client on /v1/mcp with the key (Streamable HTTP). */
export async function mcpClient(baseUrl: string, key: string, options: { fetch?: typeof fetch } = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-gateway-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } }, ...(options.fetch ? { fetch: options.fetch } : {}) }),
  );
  return client;
}

/** A fetch without keep-alive: a connection never outlives its request (an API restart leaves no stale socket). */
export function fetchWithoutKeepAlive(): typeof fetch {
  const agent = new Agent({ pipelining: 0 });
  return ((url: string | URL, init?: RequestInit) => undiciFetch(url, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch;
}

/** The text of a tool result's text blocks. */
export function textOf(result: unknown): string {
  return (((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>).filter((block) => block.type === 'text').map((block) => block.text).join('\n');
}
