// The Tools API on the real stack: the catalog (shipped + operator entries), creating,
// listing, showing and deleting connections, who may see them, and where their secrets end up.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttpFixture, type HttpFixture } from '../fixtures/mcp-server.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { writeFixtureCatalog } from './fixture-catalog.js';

let stack: Stack;
let org: TestOrganization;
let otherOrg: TestOrganization;
let remote: HttpFixture;
const responses: string[] = [];

async function api(method: string, path: string, key: string, body?: unknown) {
  const res = await call(stack.baseUrl, method, path, { key, body });
  responses.push(res.text);
  return res;
}

beforeAll(async () => {
  remote = await startMcpHttpFixture();
  const catalogFile = writeFixtureCatalog({ okUrl: remote.url, hangUrl: remote.url });
  stack = await startStack({ worker: false, env: { TOOLS_CATALOG_EXTRA: catalogFile, LOG_LEVEL: 'debug' } });
  org = await createTestOrganization(stack.runtime.orm);
  otherOrg = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await remote?.stop();
});

describe('GET /tools', () => {
  it('lists the shipped MCP reference servers with their launch commands and the operator entries, with total', async () => {
    const res = await api('GET', '/tools', org.member.key);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(res.body.tools.length);
    const byId = new Map<string, any>(res.body.tools.map((tool: any) => [tool.id, tool]));
    for (const id of ['filesystem', 'fetch', 'memory', 'git', 'github', 'slack', 'postgres', 'fixture-stdio', 'fixture-http']) {
      expect(byId.has(id), id).toBe(true);
    }
    expect(byId.get('github')).toMatchObject({
      name: 'GitHub',
      category: 'development',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      requiredEnvVars: ['GITHUB_PERSONAL_ACCESS_TOKEN'],
      description: expect.any(String),
    });
    expect(byId.get('fetch')).toMatchObject({ command: 'uvx', args: ['mcp-server-fetch'], requiredEnvVars: [] });
    expect(byId.get('slack').requiredEnvVars).toEqual(['SLACK_BOT_TOKEN', 'SLACK_TEAM_ID']);
    expect(byId.get('fixture-http')).toMatchObject({ transport: 'streamable-http', url: remote.url });
    // Header templates and operator env are configuration, not catalog content.
    expect(byId.get('fixture-http').headers).toBeUndefined();
  });

  it('returns 401 without a key', async () => {
    expect((await call(stack.baseUrl, 'GET', '/tools')).status).toBe(401);
  });
});

describe('POST /tools/connections', () => {
  it('creates a connection that shows its variable names but never their values', async () => {
    const token = `tok-${randomUUID()}`;
    const res = await api('POST', '/tools/connections', org.member.key, {
      toolId: 'fixture-stdio',
      name: 'My fixture',
      env: { FIXTURE_TOKEN: token },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      toolId: 'fixture-stdio',
      name: 'My fixture',
      status: 'connected',
      connectedAt: expect.any(String),
      lastTestedAt: null,
      testResult: null,
      tools: [],
      envVars: ['FIXTURE_TOKEN'],
    });
    expect(res.text).not.toContain(token);
  });

  it('returns 400 with param toolId for a connector that is not in the catalog', async () => {
    const res = await api('POST', '/tools/connections', org.member.key, { toolId: 'no-such-tool', name: 'x', env: {} });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', param: 'toolId' });
  });

  it('returns 400 naming every missing required variable', async () => {
    const res = await api('POST', '/tools/connections', org.member.key, { toolId: 'slack', name: 'Slack', env: { SLACK_TEAM_ID: '' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', param: 'env', missingEnvVars: ['SLACK_BOT_TOKEN', 'SLACK_TEAM_ID'] });
    expect(res.body.error.message).toContain('SLACK_BOT_TOKEN');
    expect(res.body.error.message).toContain('SLACK_TEAM_ID');
  });

  it('refuses variables the connector does not declare, such as NODE_OPTIONS', async () => {
    const res = await api('POST', '/tools/connections', org.member.key, {
      toolId: 'fixture-stdio',
      name: 'x',
      env: { FIXTURE_TOKEN: 'abc', NODE_OPTIONS: '--require /tmp/evil.js' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('env.NODE_OPTIONS');
  });

  it('returns 400 naming the field for a missing name and a non-string value', async () => {
    const noName = await api('POST', '/tools/connections', org.member.key, { toolId: 'fetch', env: {} });
    expect(noName.status).toBe(400);
    expect(noName.body.error.param).toBe('name');
    const badValue = await api('POST', '/tools/connections', org.member.key, { toolId: 'fixture-stdio', name: 'x', env: { FIXTURE_TOKEN: 42 } });
    expect(badValue.status).toBe(400);
    expect(badValue.body.error.param).toBe('env.FIXTURE_TOKEN');
  });
});

describe('connections belong to their user', () => {
  it('lists only the caller’s connections and answers 404 to everyone else, admins and other organizations included', async () => {
    const created = await api('POST', '/tools/connections', org.member.key, { toolId: 'time', name: 'Private time', env: {} });
    const id = created.body.id as string;

    const mine = await api('GET', '/tools/connections', org.member.key);
    expect(mine.body.connections.map((c: any) => c.id)).toContain(id);
    expect(mine.body.connections.find((c: any) => c.id === id)).toEqual({
      id,
      toolId: 'time',
      name: 'Private time',
      status: 'connected',
      connectedAt: expect.any(String),
      lastTestedAt: null,
    });

    for (const key of [org.admin.key, org.owner.key, otherOrg.owner.key]) {
      const list = await api('GET', '/tools/connections', key);
      expect(list.body.connections.map((c: any) => c.id)).not.toContain(id);
      expect((await api('GET', `/tools/connections/${id}`, key)).status).toBe(404);
      expect((await api('POST', `/tools/connections/${id}/test`, key)).status).toBe(404);
      expect((await api('DELETE', `/tools/connections/${id}`, key)).status).toBe(404);
    }
    expect((await api('GET', `/tools/connections/${id}`, org.member.key)).status).toBe(200);
  });

  it('answers 400 naming id for an id that is not a UUID (the one rule for malformed path ids)', async () => {
    const res = await api('GET', '/tools/connections/not-a-uuid', org.member.key);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', param: 'id' });
  });

  it('deletes a connection with 204, after which it is gone', async () => {
    const created = await api('POST', '/tools/connections', org.member.key, { toolId: 'memory', name: 'Memory', env: {} });
    const removed = await api('DELETE', `/tools/connections/${created.body.id}`, org.member.key);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await api('GET', `/tools/connections/${created.body.id}`, org.member.key)).status).toBe(404);
  });
});

describe('secrets at rest', () => {
  it('stores variables only as AES-256-GCM ciphertext: absent from responses, logs and the table in plaintext', async () => {
    const token = `ghp_${randomUUID().replace(/-/g, '')}`;
    const created = await api('POST', '/tools/connections', org.owner.key, {
      toolId: 'github',
      name: 'GitHub',
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: token },
    });
    expect(created.status).toBe(201);
    await api('GET', `/tools/connections/${created.body.id}`, org.owner.key);
    await api('GET', '/tools/connections', org.owner.key);

    const rows = await stack.runtime.orm.em
      .getConnection()
      .execute<Record<string, unknown>[]>('select * from tool_connections where id = ?', [created.body.id]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    const ciphertext = String(rows[0]!.env_ciphertext);
    expect(ciphertext).toMatch(/^v1:/);
    expect(JSON.parse(stack.runtime.secrets.decrypt(ciphertext))).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: token });

    expect(responses.join('\n')).not.toContain(token);
    expect(stack.logs.join('\n')).not.toContain(token);
    expect(stack.logs.join('\n')).toContain('tool connection created');
  });
});

describe('GET /tools/connections?status=', () => {
  it('lists every connection of the caller by default (failed ones included), and narrows by status', async () => {
    const user = await createTestUser(stack.runtime.orm, org.id, 'member');
    const ok = (await api('POST', '/tools/connections', user.key, { toolId: 'time', name: 'Works', env: {} })).body.id as string;
    const broken = (await api('POST', '/tools/connections', user.key, { toolId: 'time', name: 'Broken', env: {} })).body.id as string;
    // As a failed connection test leaves it.
    await stack.runtime.orm.em.getConnection().execute(`update tool_connections set status = 'error' where id = ?`, [broken]);

    const ids = async (query: string) => ((await api('GET', `/tools/connections${query}`, user.key)).body.connections as { id: string }[]).map((c) => c.id);
    expect(await ids('')).toEqual([broken, ok]);
    expect(await ids('?status=all')).toEqual([broken, ok]);
    expect(await ids('?status=connected')).toEqual([ok]);
    expect(await ids('?status=error')).toEqual([broken]);

    const bad = await api('GET', '/tools/connections?status=active', user.key);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'bad_request', param: 'status' });
  });

  it('documents what the list holds and the status filter in the OpenAPI document', async () => {
    const doc = (await call(stack.api.url, 'GET', '/v1/openapi.json')).body;
    const operation = doc.paths['/v1/tools/connections'].get;
    expect(operation.description).toContain('active connections of the caller');
    expect(operation.parameters).toContainEqual(expect.objectContaining({ name: 'status', in: 'query', schema: expect.objectContaining({ enum: ['connected', 'error', 'all'], default: 'all' }) }));
  });
});
