// POST /tools/connections/{id}/test against a real MCP server (test/fixtures/mcp-server.ts):
// over stdio as a process group and over Streamable HTTP; passing, exiting, missing command,
// hanging (timeout, whole process group killed), wrong credentials; secrets never echoed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TOOL_NAMES, startMcpHttpFixture, type HttpFixture } from '../fixtures/mcp-server.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { isRunning, writeFixtureCatalog } from './fixture-catalog.js';

// Generous for a loaded CI machine: the stdio fixture starts through tsx.
const TEST_TIMEOUT_MS = 10_000;
const HTTP_TOKEN = `http-${randomUUID()}`;

let stack: Stack;
let org: TestOrganization;
let remote: HttpFixture;
let hangingRemote: HttpFixture;
let statefulRemote: HttpFixture;
const responses: string[] = [];

async function connect(toolId: string, env: Record<string, string> = {}): Promise<string> {
  const res = await call(stack.baseUrl, 'POST', '/tools/connections', { key: org.member.key, body: { toolId, name: toolId, env } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function runTest(id: string) {
  const res = await call(stack.baseUrl, 'POST', `/tools/connections/${id}/test`, { key: org.member.key });
  responses.push(res.text);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

function pidFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-pids-')), 'pids.json');
}

function readPids(file: string): { pid: number; childPid?: number; envNames: string[] } {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

beforeAll(async () => {
  remote = await startMcpHttpFixture({ token: HTTP_TOKEN, pageSize: 2 });
  hangingRemote = await startMcpHttpFixture({ hangOnList: true });
  statefulRemote = await startMcpHttpFixture({ stateful: true });
  const catalogFile = writeFixtureCatalog({ okUrl: remote.url, hangUrl: hangingRemote.url, statefulUrl: statefulRemote.url });
  process.env.MCP_TEST_CANARY = 'must-not-reach-connectors';
  stack = await startStack({ worker: false, env: { TOOLS_CATALOG_EXTRA: catalogFile, TOOLS_TEST_TIMEOUT_MS: String(TEST_TIMEOUT_MS), TOOLS_TEST_CONCURRENCY: '2' } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  delete process.env.MCP_TEST_CANARY;
  await stack?.stop();
  await remote?.stop();
  await hangingRemote?.stop();
  await statefulRemote?.stop();
});

describe('stdio connector', () => {
  it('passes: initialize and a paginated tools/list, status connected, tool names recorded, process gone', async () => {
    const token = `tok-${randomUUID()}`;
    const pids = pidFile();
    const id = await connect('fixture-stdio', { FIXTURE_TOKEN: token, FIXTURE_PID_FILE: pids });

    const result = await runTest(id);
    expect(result).toEqual({
      id,
      toolId: 'fixture-stdio',
      status: 'connected',
      lastTestedAt: expect.any(String),
      testResult: 'ok',
      tools: FIXTURE_TOOL_NAMES,
    });

    const detail = await call(stack.baseUrl, 'GET', `/tools/connections/${id}`, { key: org.member.key });
    expect(detail.body).toMatchObject({ status: 'connected', testResult: 'ok', lastTestedAt: result.lastTestedAt, tools: FIXTURE_TOOL_NAMES });

    const seen = readPids(pids);
    expect(isRunning(seen.pid)).toBe(false);
    // The connector got a minimal environment plus its own variables, nothing of the service's.
    expect(seen.envNames).toContain('FIXTURE_TOKEN');
    expect(seen.envNames).toContain('PATH');
    expect(seen.envNames).not.toContain('MCP_TEST_CANARY');
  });

  it('fails when the command exits: status error, the failing stage and exit code named, the secret redacted', async () => {
    const token = `tok-${randomUUID()}`;
    const id = await connect('fixture-fail', { FIXTURE_TOKEN: token });

    const result = await runTest(id);
    expect(result.status).toBe('error');
    expect(result.testResult).toMatch(/^initialize failed: /);
    expect(result.testResult).toContain('exited with exit code 3');
    expect(result.testResult).toContain('cannot authenticate with token [redacted]');
    expect(JSON.stringify(result)).not.toContain(token);
  });

  it('fails at the start stage when the command does not exist', async () => {
    const result = await runTest(await connect('fixture-missing'));
    expect(result.status).toBe('error');
    expect(result.testResult).toMatch(/^could not start the connector: .*ENOENT/);
  });

  it('times out on a server that never answers and kills its whole process group', async () => {
    const pids = pidFile();
    const id = await connect('fixture-hang', { FIXTURE_PID_FILE: pids });

    const started = Date.now();
    const result = await runTest(id);
    const elapsed = Date.now() - started;

    expect(result.status).toBe('error');
    expect(result.testResult).toBe(`timed out after ${TEST_TIMEOUT_MS} ms during initialize`);
    expect(elapsed).toBeLessThan(TEST_TIMEOUT_MS + 2000);
    const seen = readPids(pids);
    expect(seen.childPid).toEqual(expect.any(Number));
    // The server ignores SIGTERM and has a grandchild: both must be gone when the test returns.
    expect(isRunning(seen.pid)).toBe(false);
    expect(isRunning(seen.childPid!)).toBe(false);
  }, 30_000);

  it('moves an errored connection back to connected when a later test passes', async () => {
    const id = await connect('fixture-stdio', { FIXTURE_TOKEN: 'abcd-1234' });
    await stack.runtime.orm.em.getConnection().execute(`update tool_connections set status = 'error', test_result = 'old failure' where id = ?`, [id]);
    const result = await runTest(id);
    expect(result).toMatchObject({ status: 'connected', testResult: 'ok' });
  });
});

describe('Streamable HTTP connector', () => {
  it('passes with the decrypted token sent as the configured header, following pagination', async () => {
    const id = await connect('fixture-http', { FIXTURE_TOKEN: HTTP_TOKEN });
    const result = await runTest(id);
    expect(result).toMatchObject({ id, toolId: 'fixture-http', status: 'connected', testResult: 'ok', tools: FIXTURE_TOOL_NAMES });
    expect(remote.authorizations.at(-1)).toBe(`Bearer ${HTTP_TOKEN}`);
  });

  it('ends the session of a stateful server when the test is done', async () => {
    const result = await runTest(await connect('fixture-http-session'));
    expect(result).toMatchObject({ status: 'connected', testResult: 'ok', tools: FIXTURE_TOOL_NAMES });
    expect(statefulRemote.endedSessions).toHaveLength(1);
    expect(statefulRemote.openSessions).toBe(0);
  });

  it('fails at initialize when the server rejects the credentials', async () => {
    const id = await connect('fixture-http', { FIXTURE_TOKEN: 'wrong-token' });
    const result = await runTest(id);
    expect(result.status).toBe('error');
    expect(result.testResult).toMatch(/^initialize failed: /);
  });

  it('times out during tools/list on a server that never answers it, and refuses tests beyond the concurrency limit', async () => {
    const [first, second, third] = [await connect('fixture-http-hang'), await connect('fixture-http-hang'), await connect('fixture-http-hang')];
    const started = Date.now();
    const running = [runTest(first), runTest(second)];
    await waitFor(async () => hangingRemote.listCalls >= 2, { what: 'both tests to reach tools/list' });
    const refused = await call(stack.baseUrl, 'POST', `/tools/connections/${third}/test`, { key: org.member.key });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toBe('2');

    for (const result of await Promise.all(running)) {
      expect(result.status).toBe('error');
      expect(result.testResult).toBe(`timed out after ${TEST_TIMEOUT_MS} ms during tools/list`);
    }
    expect(Date.now() - started).toBeLessThan(TEST_TIMEOUT_MS + 2000);
  }, 30_000);
});

describe('secrets during tests', () => {
  it('never writes a connection secret to a response or a log line', () => {
    const all = responses.join('\n') + stack.logs.join('\n');
    expect(all).not.toContain(HTTP_TOKEN);
    expect(all).not.toContain('abcd-1234');
    expect(stack.logs.join('\n')).toContain('tool connection tested');
  });
});
