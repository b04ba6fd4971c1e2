// The built-in `dev` model calls an offered tool its prompt names ("try it without an
// upstream"): with the default gateway configuration (no upstream at all) an automation whose
// prompt names a tool under an `always` policy waits for its approval, and once approved the dev
// model answers with what the tool returned. The tool is the stdio fixture MCP server.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttpFixture, type HttpFixture } from '../fixtures/mcp-server.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { writeFixtureCatalog } from '../tools/fixture-catalog.js';

const TOKEN = `tok-${randomUUID()}`;
let stack: Stack;
let org: TestOrganization;
let mcp: HttpFixture;

beforeAll(async () => {
  mcp = await startMcpHttpFixture({ token: TOKEN });
  stack = await startStack({ env: { TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: mcp.url, hangUrl: mcp.url }) } });
  org = await createTestOrganization(stack.runtime.orm);
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  await mcp?.stop();
});

const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key: org.member.key, body });

describe('the dev model with a tool under an always policy', () => {
  it('calls the tool its prompt names, waits for the approval, then answers with the tool result', async () => {
    expect((await api('POST', '/tools/connections', { toolId: 'fixture-stdio', name: 'Fixture', env: { FIXTURE_TOKEN: TOKEN } })).status).toBe(201);
    const created = await api('POST', '/automations', {
      name: 'Dev adder', systemPrompt: 'Add: fixture-stdio__add {"a": 2, "b": 40}', schedule: '0 9 * * *', status: 'paused',
      tools: ['fixture-stdio'], toolApprovals: { 'fixture-stdio__add': 'always' },
    });
    expect(created.status, created.text).toBe(201);
    const started = await api('POST', `/automations/${created.body.id}/run`);
    const runOf = async () => (await api('GET', `/automations/${created.body.id}/runs`)).body.runs.find((r: any) => r.id === started.body.runId);
    const waiting = await waitFor(async () => (await runOf())?.pendingApprovals.length > 0 && runOf(), { timeoutMs: 60_000, what: 'the run to wait' });
    expect(waiting.pendingApprovals[0]).toMatchObject({ tool: 'fixture-stdio__add', arguments: '{"a": 2, "b": 40}' });

    expect((await api('POST', `/approvals/${waiting.pendingApprovals[0].id}/approve`)).status).toBe(200);
    const ended = await waitFor(async () => {
      const run = await runOf();
      return run?.status !== 'running' && run;
    }, { timeoutMs: 60_000, what: 'the run to end' });
    expect(ended).toMatchObject({ status: 'success', output: '[dev-echo] 42' });
  }, 120_000);
});
