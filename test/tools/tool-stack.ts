// The stack the tool-use tests share: a fake upstream model, the fixture MCP server over HTTP
// (behind `token`), and the service with both in its config, for one fresh organization.
import { expect } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startMcpHttpFixture, type HttpFixture } from '../fixtures/mcp-server.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { writeFixtureCatalog } from './fixture-catalog.js';

export interface ToolStack {
  stack: Stack;
  org: TestOrganization;
  upstream: FakeUpstream;
  mcp: HttpFixture;
  stop(): Promise<void>;
}

/** With `connect`, the organization's member already has a connection to the fixture (`fixture-http`). */
export async function startToolStack(token: string, options: { connect?: boolean } = {}): Promise<ToolStack> {
  const upstream = await startFakeUpstream();
  const mcp = await startMcpHttpFixture({ token });
  const stack = await startStack({
    env: {
      GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })),
      TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: mcp.url, hangUrl: mcp.url }),
    },
  });
  const org = await createTestOrganization(stack.runtime.orm);
  if (options.connect) {
    const connection = await call(stack.baseUrl, 'POST', '/tools/connections', { key: org.member.key, body: { toolId: 'fixture-http', name: 'Fixture', env: { FIXTURE_TOKEN: token } } });
    expect(connection.status, connection.text).toBe(201);
  }
  return {
    stack,
    org,
    upstream,
    mcp,
    async stop() {
      await stack.stop();
      await upstream.close();
      await mcp.stop();
    },
  };
}
