// The gateway's fast path (src/api/fast-path.ts) answers exactly as the Express route does. Two
// servers on the same runtime: one with only the fast path (a call it declines gets 599, so a
// served call proves the fast path served it), one with only the Express app. Every call goes to
// both and the answers are compared: status, body (ids aside), the headers clients read. Calls
// the fast path must leave to Express (sessions, compressed bodies, query strings, other media
// types) are declined.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { gatewayFastPath } from '../../src/api/fast-path.js';
import { FAKE_EMBEDDING_MODEL, fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const BODY_LIMIT = 4096;
const DECLINED = 599;

let stack: Stack;
let upstream: FakeUpstream;
let fastUrl: string;
let expressUrl: string;
const servers: http.Server[] = [];

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
  const file = writeGatewayConfig(fakeGatewayConfig({ primary: upstream }));
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: file, BODY_LIMIT_BYTES: String(BODY_LIMIT) } });
  const fastPath = gatewayFastPath(stack.runtime)!;
  expect(fastPath).toBeDefined();
  fastUrl = await listen((req, res) => {
    if (fastPath(req, res)) return;
    req.resume();
    res.writeHead(DECLINED).end('declined');
  });
  expressUrl = await listen(buildApp(stack.runtime));
});
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await stack?.stop();
  await upstream?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

/** Headers clients read; ids and dates vary per call and are compared by shape only. */
const COMPARED_HEADERS = ['content-type', 'content-length', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-cache', 'age', 'retry-after', 'cache-control'];

async function send(base: string, path: string, init: { key?: string; body?: string | Buffer; headers?: Record<string, string> }): Promise<Answer & { requestId: string | null }> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(init.key ? { authorization: `Bearer ${init.key}` } : {}), ...init.headers },
    body: init.body ?? null,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // SSE or plain text: compared as text.
  }
  const headers = Object.fromEntries(COMPARED_HEADERS.map((name) => [name, response.headers.get(name)]));
  return { status: response.status, headers, body, requestId: response.headers.get('x-request-id') };
}

/** Ids, timestamps and ids inside SSE events differ per call. */
function normalize(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.replace(/chatcmpl-[0-9a-f]+/g, 'chatcmpl-ID').replace(/"created":\d+/g, '"created":0');
  }
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'id' ? 'ID' : k === 'created' ? 0 : normalize(v)]));
  }
  return value;
}

/** The same call through both servers, with a fresh organization (own limits and budget) for each. */
async function both(path: string, init: (org: TestOrganization) => { key?: string; body?: string | Buffer; headers?: Record<string, string> }) {
  const fast = await send(fastUrl, path, init(await createTestOrganization(stack.runtime.orm)));
  const viaExpress = await send(expressUrl, path, init(await createTestOrganization(stack.runtime.orm)));
  expect(fast.status, 'the fast path declined a call it should serve').not.toBe(DECLINED);
  expect({ ...fast, requestId: undefined, body: normalize(fast.body) }).toEqual({ ...viaExpress, requestId: undefined, body: normalize(viaExpress.body) });
  return fast;
}

const chat = (extra: Record<string, unknown> = {}) => JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'Say hello' }], ...extra });

describe('the fast path answers as the Express route does', () => {
  it('a completion', async () => {
    const answer = await both('/v1/chat/completions', (org) => ({ key: org.member.key, body: chat() }));
    expect(answer.status).toBe(200);
    expect(answer.headers['x-ratelimit-limit']).not.toBeNull();
  });

  it('a streamed completion', async () => {
    const answer = await both('/v1/chat/completions', (org) => ({ key: org.member.key, body: chat({ stream: true, stream_options: { include_usage: true } }) }));
    expect(answer.status).toBe(200);
    expect(String(answer.body)).toContain('data: [DONE]');
  });

  it('a cached completion (Cache-Control: max-age), miss then hit', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const body = chat({ messages: [{ role: 'user', content: `cache me ${org.id}` }] });
    const first = await send(fastUrl, '/v1/chat/completions', { key: org.member.key, body, headers: { 'cache-control': 'max-age=60' } });
    const second = await send(fastUrl, '/v1/chat/completions', { key: org.member.key, body, headers: { 'cache-control': 'max-age=60' } });
    expect([first.status, first.headers['x-cache'], second.status, second.headers['x-cache']]).toEqual([200, 'MISS', 200, 'HIT']);
  });

  it('embeddings', async () => {
    const answer = await both('/v1/embeddings', (org) => ({ key: org.member.key, body: JSON.stringify({ model: FAKE_EMBEDDING_MODEL, input: ['one two'], encoding_format: 'float' }) }));
    expect(answer.status).toBe(200);
  });

  it.each([
    ['malformed JSON', '{"model": ', 400],
    ['a body that is not an object', '[1, 2]', 400],
    ['an empty body', '', 400],
    ['a missing field', JSON.stringify({ model: 'fake-model' }), 400],
    ['an unknown model', chat({ model: 'no-such-model' }), 400],
    ['a NUL escape in a message', chat({ messages: [{ role: 'user', content: 'a\u0000b' }] }), 400],
    ['a NUL escape in a key', JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'x', 'na\u0000me': 'y' }] }), 400],
    ['a body over the limit', chat({ messages: [{ role: 'user', content: 'x'.repeat(BODY_LIMIT) }] }), 413],
    ['a byte-order mark before the JSON', `\ufeff${chat()}`, 200],
  ])('%s', async (_name, body, status) => {
    const answer = await both('/v1/chat/completions', (org) => ({ key: org.member.key, body }));
    expect(answer.status).toBe(status);
  });

  it('an unknown API key, and a malformed one', async () => {
    const unknown = await both('/v1/chat/completions', () => ({ key: `svc_live_${'0'.repeat(48)}`, body: chat() }));
    const malformed = await both('/v1/chat/completions', () => ({ key: 'not-a-key', body: chat() }));
    expect([unknown.status, malformed.status]).toEqual([401, 401]);
  });

  it("a key over its own rate limit gets 429 with the key's limit in the headers", async () => {
    const limited = async (org: TestOrganization) => {
      const res = await call<any>(stack.baseUrl, 'POST', '/api-keys', { key: org.member.key, body: { name: 'one a minute', rateLimitPerMinute: 1 } });
      expect(res.status, res.text).toBe(201);
      return res.body.key as string;
    };
    const answers = [];
    for (const base of [fastUrl, expressUrl]) {
      const key = await limited(await createTestOrganization(stack.runtime.orm));
      const first = await send(base, '/v1/chat/completions', { key, body: chat() });
      const second = await send(base, '/v1/chat/completions', { key, body: chat() });
      answers.push({ statuses: [first.status, second.status], headers: second.headers, body: normalize(second.body) });
    }
    expect(answers[0]!.statuses).toEqual([200, 429]);
    expect(answers[0]!.headers['x-ratelimit-limit']).toBe('1');
    expect(answers[0]).toEqual(answers[1]);
  });

  it('echoes a sane X-Request-Id, writes the access-log line and audits the call under it', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const requestId = `fast-${org.id}`;
    const answer = await send(fastUrl, '/v1/chat/completions', { key: org.member.key, body: chat(), headers: { 'x-request-id': requestId } });
    expect([answer.status, answer.requestId]).toEqual([200, requestId]);
    const line = await waitFor(async () => stack.logs.map((l) => JSON.parse(l)).find((l) => l.requestId === requestId && l.msg === 'request'), { what: 'the access-log line' });
    expect(line).toMatchObject({ method: 'POST', path: '/v1/chat/completions', status: 200, organizationId: org.id });
    const audit = await waitFor(async () => {
      const rows = await stack.runtime.orm.em.fork().getConnection().execute<any[]>(
        'select "request_id", "outcome", "status" from "gateway_requests" where "organization_id" = ?', [org.id]);
      return rows.length === 1 ? rows[0] : undefined;
    }, { what: 'the audit record' });
    expect(audit).toEqual({ request_id: requestId, outcome: 'success', status: 200 });
  });
});

describe('the fast path leaves other calls to Express', () => {
  it.each([
    ['a session cookie instead of a key', { headers: { cookie: 'svc_session=abc' } }, '/v1/chat/completions'],
    ['a gzip body', { gzip: true }, '/v1/chat/completions'],
    ['a query string', {}, '/v1/chat/completions?debug=1'],
    ['another media type', { headers: { 'content-type': 'text/plain' } }, '/v1/chat/completions'],
    ['another charset', { headers: { 'content-type': 'application/json; charset=latin1' } }, '/v1/chat/completions'],
    ['another route', {}, '/v1/models'],
  ])('%s', async (_name, options: { headers?: Record<string, string>; gzip?: boolean }, path) => {
    const org = await createTestOrganization(stack.runtime.orm);
    const usesKey = !options.headers?.cookie;
    const answer = await send(fastUrl, path, {
      ...(usesKey ? { key: org.member.key } : {}),
      body: options.gzip ? gzipSync(chat()) : chat(),
      headers: { ...(options.gzip ? { 'content-encoding': 'gzip' } : {}), ...options.headers },
    });
    expect(answer.status).toBe(DECLINED);
  });

  it('and the full server answers those through Express: a gzip body is inflated and served', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const answer = await send(stack.api.url, '/v1/chat/completions', { key: org.member.key, body: gzipSync(chat()), headers: { 'content-encoding': 'gzip' } });
    expect(answer.status).toBe(200);
  });
});
