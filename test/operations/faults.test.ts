// Fault injection against the real parts: a private Redis killed under load and restarted on the
// same port, PostgreSQL cut off behind a TCP proxy and restored, upstream providers that answer
// garbage or hang. Each case checks the documented answer while the fault lasts (docs/operations.md,
// "When a dependency fails"), that the process keeps serving, and that it recovers without a
// restart.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import OpenAI from 'openai';
import { GatewayRequestRecord } from '../../src/gateway/entities.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeReply, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startRedisServer, type RedisProcess } from '../fixtures/redis-server.js';
import { startTcpProxy, type TcpProxy } from '../fixtures/tcp-proxy.js';
import { call, waitFor, type HttpResult } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const hello = { model: 'standard', messages: [{ role: 'user', content: 'Say hello' }] };

interface Sample {
  path: string;
  status: number;
  body: unknown;
}

/** Requests sent by `concurrency` loops until stop() is called; every answer is kept. */
function startLoad(send: () => Promise<Sample>, concurrency = 4): { samples: Sample[]; stop(): Promise<void> } {
  const samples: Sample[] = [];
  let running = true;
  const loops = Array.from({ length: concurrency }, async () => {
    while (running) samples.push(await send());
  });
  return {
    samples,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

function sample(path: string, res: HttpResult): Sample {
  return { path, status: res.status, body: res.body };
}

/** The OpenAI error shape every error answer must have. */
function expectOpenAiError(body: unknown, code: string): void {
  expect(body).toMatchObject({ error: { code, message: expect.any(String), type: expect.any(String), param: null } });
}

describe('Redis stopped under load and restarted', () => {
  let redis: RedisProcess;
  let first: Stack;
  // A second API instance on the same Redis and database; it needs PostgreSQL (an in-memory
  // PGlite is per stack), so without it the revocation checks cover the one instance.
  let second: Stack | undefined;
  let instances: Stack[];
  let org: TestOrganization;

  beforeAll(async () => {
    redis = await startRedisServer();
    first = await startStack({ worker: false, env: { REDIS_URL: redis.url } });
    if (inject('databaseUrl')) second = await startStack({ worker: false, shareWith: first, env: { REDIS_URL: redis.url } });
    instances = second ? [first, second] : [first];
    org = await createTestOrganization(first.runtime.orm);
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await redis?.stop();
  });

  it('keeps serving (budget-gated calls 503, limits per instance), keeps revocation effective, and recovers', { timeout: 90_000 }, async () => {
    const key = org.member.key;
    const chat = async () => sample('chat', await call(first.baseUrl, 'POST', '/chat/completions', { key, body: hello }));
    const me = async () => sample('me', await call(first.baseUrl, 'GET', '/users/me', { key }));
    // Warm up: every instance has the key cached and listens for revocations.
    expect((await chat()).status).toBe(200);
    for (const instance of instances) {
      const warm = await call(instance.baseUrl, 'GET', '/users/me', { key });
      expect(warm.status).toBe(200);
      expect(warm.headers.get('x-ratelimit-limit')).toBe('600');
    }

    const load = startLoad(async () => (Math.random() < 0.5 ? chat() : me()));
    await waitFor(async () => load.samples.length >= 20, { what: 'load before the fault' });
    await redis.kill();
    const killedAt = load.samples.length;
    await waitFor(async () => load.samples.length >= killedAt + 60, { what: 'load during the fault' });
    await load.stop();

    const during = load.samples.slice(killedAt + 8); // a few answers may have been decided before the kill
    // Rate limits fall back to memory: requests that do not need the budget are still answered.
    expect(during.filter((s) => s.path === 'me').every((s) => s.status === 200)).toBe(true);
    // The budget cannot be checked: paid calls are refused with 503, never sent upstream unchecked.
    const chats = during.filter((s) => s.path === 'chat');
    expect(chats.length).toBeGreaterThan(5);
    for (const s of chats) {
      expect(s.status).toBe(503);
      expectOpenAiError(s.body, 'service_unavailable');
    }
    // Nothing else than 200 and the documented 503 at any point.
    expect(load.samples.filter((s) => s.status !== 200 && s.status !== 503)).toEqual([]);

    const ready = await call(first.api.url, 'GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.error.message).toContain('redis');
    // Limits still answer with their headers (per instance now).
    expect((await call(first.baseUrl, 'GET', '/users/me', { key })).headers.get('x-ratelimit-limit')).toBe('600');

    // A key revoked while the fan-out is down is refused at once on every instance.
    const doomed = await createTestUser(first.runtime.orm, org.id, 'member');
    for (const instance of instances) expect((await call(instance.baseUrl, 'GET', '/users/me', { key: doomed.key })).status).toBe(200);
    const keys = await call(first.baseUrl, 'GET', '/api-keys', { key: doomed.key });
    const revoked = await call(first.baseUrl, 'DELETE', `/api-keys/${keys.body.apiKeys[0].id}`, { key: doomed.key });
    expect(revoked.status).toBe(204);
    for (const instance of instances) expect((await call(instance.baseUrl, 'GET', '/users/me', { key: doomed.key })).status).toBe(401);

    // Redis comes back empty on the same port: no API restart needed.
    await redis.restart();
    await waitFor(async () => (await call(first.api.url, 'GET', '/readyz')).status === 200, { what: 'ready again', timeoutMs: 20_000 });
    await waitFor(async () => (await chat()).status === 200, { what: 'chat completions again', timeoutMs: 20_000 });
    // Each instance reconnects on its own backoff schedule: once it is ready, its paid calls are answered.
    for (const instance of instances) {
      await waitFor(async () => (await call(instance.api.url, 'GET', '/readyz')).status === 200, { what: 'each instance ready again', timeoutMs: 20_000 });
      expect((await call(instance.baseUrl, 'POST', '/chat/completions', { key, body: hello })).status).toBe(200);
    }

    // Revocation fan-out works again across instances: they listen (and so cache) again.
    for (const instance of instances) {
      await waitFor(async () => instance.runtime.shared.subscriptionEpoch?.() != null, { what: 'subscriptions restored' });
    }
    const later = await createTestUser(first.runtime.orm, org.id, 'member');
    for (const instance of instances) expect((await call(instance.baseUrl, 'GET', '/users/me', { key: later.key })).status).toBe(200);
    const laterKeys = await call(first.baseUrl, 'GET', '/api-keys', { key: later.key });
    expect((await call(first.baseUrl, 'DELETE', `/api-keys/${laterKeys.body.apiKeys[0].id}`, { key: later.key })).status).toBe(204);
    for (const instance of instances) expect((await call(instance.baseUrl, 'GET', '/users/me', { key: later.key })).status).toBe(401);
  });
});

// Needs PostgreSQL: PGlite runs inside the process and has no connection to cut.
describe.skipIf(!inject('databaseUrl'))('PostgreSQL connection cut and restored', () => {
  let proxy: TcpProxy;
  let stack: Stack;
  let org: TestOrganization;

  beforeAll(async () => {
    const direct = new URL(inject('databaseUrl')!);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(direct);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    stack = await startStack({ worker: false, env: { DATABASE_URL: proxied.toString() } });
    org = await createTestOrganization(stack.runtime.orm);
  });
  afterAll(async () => {
    proxy?.restore();
    await stack?.stop();
    await proxy?.close();
  });

  it('answers 503 service_unavailable while the database is unreachable and recovers without a restart', { timeout: 90_000 }, async () => {
    const key = org.member.key;
    const unknownYet = await createTestUser(stack.runtime.orm, org.id, 'member');
    expect((await call(stack.baseUrl, 'GET', '/api-keys', { key })).status).toBe(200);
    expect((await call(stack.baseUrl, 'POST', '/chat/completions', { key, body: hello })).status).toBe(200);

    proxy.cut();
    const started = Date.now();
    const keys = await call(stack.baseUrl, 'GET', '/api-keys', { key });
    expect(keys.status).toBe(503);
    expectOpenAiError(keys.body, 'service_unavailable');
    expect(keys.headers.get('x-request-id')).toBeTruthy();
    // A key this instance never saw needs the database to authenticate.
    const unknown = await call(stack.baseUrl, 'GET', '/users/me', { key: unknownYet.key });
    expect(unknown.status).toBe(503);
    expectOpenAiError(unknown.body, 'service_unavailable');
    const ready = await call(stack.api.url, 'GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.error.message).toContain('database');
    // Chat completions with a cached key, DLP policy and budget need no database on the request
    // path: they are answered, and their records wait in memory for the database.
    const answered: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call(stack.baseUrl, 'POST', '/chat/completions', { key, body: hello });
      if (res.status === 200) answered.push(res.headers.get('x-request-id')!);
      else {
        expect(res.status).toBe(503);
        expectOpenAiError(res.body, 'service_unavailable');
      }
    }
    expect(answered.length).toBeGreaterThan(0);
    // Failing fast, not waiting for a pool timeout.
    expect(Date.now() - started).toBeLessThan(15_000);

    proxy.restore();
    await waitFor(async () => (await call(stack.baseUrl, 'GET', '/api-keys', { key })).status === 200, { what: 'database again', timeoutMs: 30_000 });
    expect((await call(stack.baseUrl, 'GET', '/users/me', { key: unknownYet.key })).status).toBe(200);
    expect((await call(stack.api.url, 'GET', '/readyz')).status).toBe(200);
    for (const requestId of answered) {
      await waitFor(async () => stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, requestId }), {
        what: `record of ${requestId} answered during the outage`,
        timeoutMs: 30_000,
      });
    }
  });
});

describe('upstream answering garbage or hanging', () => {
  const TIMEOUT_MS = 500;
  let primary: FakeUpstream;
  let backup: FakeUpstream;
  let stack: Stack;
  let org: TestOrganization;

  beforeAll(async () => {
    [primary, backup] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
    // A high failure threshold: every case starts with both circuits closed.
    const config = fakeGatewayConfig({ primary, backup, timeoutMs: TIMEOUT_MS, breaker: { failureThreshold: 1000 } });
    stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(config) } });
    org = await createTestOrganization(stack.runtime.orm);
  });
  afterEach(() => {
    primary.reset();
    backup.reset();
  });
  afterAll(async () => {
    await stack?.stop();
    await Promise.all([primary?.close(), backup?.close()]);
  });

  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const role = chunk({ role: 'assistant', content: '' });
  const word = chunk({ content: 'Partial' });
  const sse = 'text/event-stream';

  async function audit(requestId: string | null): Promise<GatewayRequestRecord> {
    return waitFor(async () => stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, requestId: requestId! }), { what: 'audit record' });
  }

  const plainGarbage: [string, FakeReply][] = [
    ['truncated JSON', { raw: { contentType: 'application/json', body: '{"id":"x","choices":[{"message":{"content":"Hel' } }],
    ['an HTML page with status 200', { raw: { contentType: 'text/html', body: '<html><body>Bad gateway</body></html>' } }],
    ['JSON of the wrong shape', { raw: { contentType: 'application/json', body: '{"object":"list","data":[]}' } }],
    ['JSON that is not an object', { raw: { contentType: 'application/json', body: 'null' } }],
    ['headers and then a stalled body', { raw: { contentType: 'application/json', body: '{"id":', stall: true } }],
  ];

  it.each(plainGarbage)('fails over to the next provider on %s (plain)', async (_name, reply) => {
    primary.enqueue(reply);
    const res = await call(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello.messages } });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('Hello from the fake upstream');
    expect(backup.requests).toHaveLength(1);
    expect(await audit(res.headers.get('x-request-id'))).toMatchObject({ outcome: 'success', attempts: 2, provider: 'backup' });
  });

  const streamGarbage: [string, FakeReply][] = [
    ['an HTML page instead of events', { raw: { contentType: 'text/html', body: '<html><body>Bad gateway</body></html>' } }],
    ['a JSON body instead of events', { raw: { contentType: 'application/json', body: '{"choices":[{"message":{"content":"hi"}}]}' } }],
    ['an event that is not JSON', { raw: { contentType: sse, body: role + 'data: {"choices": [nope\n\n' } }],
    ['a stream that ends before any content', { raw: { contentType: sse, body: role } }],
    ['a stream that stalls before any content', { raw: { contentType: sse, body: role, stall: true } }],
  ];

  it.each(streamGarbage)('fails over to the next provider on %s (streaming)', async (_name, reply) => {
    primary.enqueue(reply);
    const client = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'fake-model', messages: hello.messages as OpenAI.ChatCompletionMessageParam[], stream: true });
    let text = '';
    for await (const part of stream) text += part.choices[0]?.delta.content ?? '';
    expect(text).toBe('Hello from the fake upstream');
    expect(backup.requests).toHaveLength(1);
  });

  const midStream: [string, FakeReply][] = [
    ['ends without a finish reason or [DONE]', { raw: { contentType: sse, body: role + word } }],
    ['stalls after the first content', { raw: { contentType: sse, body: role + word, stall: true } }],
    ['sends garbage after the first content', { raw: { contentType: sse, body: role + word + 'data: <html>\n\n' } }],
  ];

  it.each(midStream)('ends the stream with an error event and [DONE] when the upstream %s', async (_name, reply) => {
    primary.enqueue(reply);
    const res = await fetch(`${stack.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.member.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fake-model', messages: hello.messages, stream: true }),
    });
    expect(res.status).toBe(200);
    const events = (await res.text()).trim().split('\n\n');
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(events.at(-2)!.slice('data: '.length))).toMatchObject({ error: { code: 'provider_error', type: 'upstream_error' } });
    expect(events.some((e) => e.includes('Partial'))).toBe(true);
    expect(backup.requests).toHaveLength(0);
    expect(await audit(res.headers.get('x-request-id'))).toMatchObject({ outcome: 'failure', status: 502, errorCode: 'provider_error' });
  });

  it('answers 503 provider_unavailable when every provider answers garbage or hangs, within the timeouts', async () => {
    primary.enqueue({ raw: { contentType: 'text/html', body: '<html></html>' } });
    backup.enqueue({ raw: { contentType: 'application/json', body: '', stall: true } });
    const started = Date.now();
    const res = await call(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello.messages } });
    expect(res.status).toBe(503);
    expectOpenAiError(res.body, 'provider_unavailable');
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 4);
    // The API keeps serving.
    expect((await call(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello.messages } })).status).toBe(200);
  });
});
