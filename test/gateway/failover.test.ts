// Failover, circuit breakers and stream failures against fake upstreams: what happens before the
// first byte reaches the client (next target) and after it (error event, then [DONE]).
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { GatewayRequestRecord } from '../../src/gateway/entities.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeReply, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const COOLDOWN_MS = 10_000;
let stack: Stack;
let org: TestOrganization;
let primary: FakeUpstream;
let backup: FakeUpstream;
let claude: FakeUpstream;
let client: OpenAI;
const clock = new ManualClock(new Date('2026-11-22T00:00:00Z'));

beforeAll(async () => {
  [primary, backup, claude] = await Promise.all([startFakeUpstream(), startFakeUpstream(), startFakeUpstream()]);
  const config = fakeGatewayConfig({ primary, backup, anthropic: claude, timeoutMs: 400, breaker: { failureThreshold: 2, cooldownMs: COOLDOWN_MS, maxRetryAfterWaitMs: 500 } });
  stack = await startStack({ worker: false, clock, env: { GATEWAY_CONFIG: writeGatewayConfig(config) } });
  org = await createTestOrganization(stack.runtime.orm);
  client = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
});
beforeEach(() => {
  // Every test starts with every circuit closed again.
  clock.advance(5 * 60_000);
});
afterEach(() => {
  for (const upstream of [primary, backup, claude]) upstream.reset();
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([primary, backup, claude].map((upstream) => upstream?.close()));
});

const hello = [{ role: 'user' as const, content: 'Say hello' }];

async function auditOf(requestId: string | null): Promise<GatewayRequestRecord> {
  return waitFor(async () => stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, requestId: requestId! }), { what: 'audit record' });
}

describe('failover before the first byte', () => {
  const retryable: [string, FakeReply][] = [
    ['500', { status: 500 }],
    ['503', { status: 503 }],
    ['429', { status: 429 }],
    ['a dropped connection', { dropConnection: true }],
    ['a timeout', { hang: true }],
  ];

  it.each(retryable)('moves to the next target on %s (plain)', async (_name, failure) => {
    primary.enqueue(failure);
    const res = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello } });
    expect(res.status).toBe(200);
    expect(res.body.model).toBe('fake-model');
    expect(primary.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(1);
    expect(backup.requests[0]?.body.model).toBe('gpt-fake-backup');
    expect(await auditOf(res.headers.get('x-request-id'))).toMatchObject({ outcome: 'success', attempts: 2, provider: 'backup', upstreamModel: 'gpt-fake-backup' });
  });

  it.each(retryable)('moves to the next target on %s (streaming)', async (_name, failure) => {
    primary.enqueue(failure);
    const stream = await client.chat.completions.create({ model: 'fake-model', messages: hello, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Hello from the fake upstream');
    expect(backup.requests).toHaveLength(1);
  });

  it('answers 400 bad_request with the upstream message when a target refuses the request itself, without trying the next', async () => {
    primary.enqueue({ status: 400, errorBody: { error: { message: 'Unrecognized request argument supplied: foo', type: 'invalid_request_error', param: 'foo' } } });
    const res = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', message: 'Unrecognized request argument supplied: foo', param: 'foo', upstream_status: 400 });
    expect(backup.requests).toHaveLength(0);
    expect(await auditOf(res.headers.get('x-request-id'))).toMatchObject({ outcome: 'rejected', status: 400, errorCode: 'bad_request', attempts: 1 });
  });

  it('answers 502 provider_error with the upstream status when a target refuses our credentials, without trying the next or echoing its body', async () => {
    primary.enqueue({ status: 403, errorBody: { error: { message: 'secret account detail echoed', type: 'permission_error' } } });
    const res = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello } });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ code: 'provider_error', upstream_status: 403 });
    expect(res.text).not.toContain('secret account detail');
    expect(backup.requests).toHaveLength(0);
    expect(await auditOf(res.headers.get('x-request-id'))).toMatchObject({ outcome: 'failure', status: 502, errorCode: 'provider_error', attempts: 1 });
  });

  it('answers 503 provider_unavailable when every target fails, also through the openai client', async () => {
    primary.setDefault({ status: 500 });
    backup.setDefault({ status: 502 });
    const res = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello } });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('provider_unavailable');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const error = await client.chat.completions.create({ model: 'fake-model', messages: hello }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error).toMatchObject({ status: 503, code: 'provider_unavailable' });
  });

  it('waits out a short Retry-After on the last target and tries it once more', async () => {
    claude.enqueue({ status: 429, headers: { 'retry-after': '0.2' } });
    const completion = await client.chat.completions.create({ model: 'fake-claude', messages: hello });
    expect(completion.choices[0]?.message.content).toBe('Hello from the fake upstream');
    expect(claude.requests).toHaveLength(2);
  });

  it('keeps a target aside for a long Retry-After instead of waiting', async () => {
    claude.enqueue({ status: 503, headers: { 'retry-after': '30' } });
    const first = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-claude', messages: hello } });
    expect(first.status).toBe(503);
    const second = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-claude', messages: hello } });
    expect(second.status).toBe(503);
    expect(Number(second.headers.get('retry-after'))).toBe(30);
    expect(claude.requests).toHaveLength(1);
    clock.advance(30_000);
    const third = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-claude', messages: hello } });
    expect(third.status).toBe(200);
  });
});

describe('circuit breaker', () => {
  it('skips a failing target during the cooldown and tries it again after', async () => {
    // A success closes the circuit and clears the failure count left by earlier tests.
    await client.chat.completions.create({ model: 'fake-model', messages: hello });
    primary.reset();
    primary.setDefault({ status: 500 });
    for (let i = 0; i < 2; i++) {
      expect((await client.chat.completions.create({ model: 'fake-model', messages: hello })).model).toBe('fake-model');
    }
    expect(primary.requests).toHaveLength(2);

    await client.chat.completions.create({ model: 'fake-model', messages: hello });
    expect(primary.requests).toHaveLength(2);
    expect(backup.requests).toHaveLength(3);

    clock.advance(COOLDOWN_MS - 1);
    await client.chat.completions.create({ model: 'fake-model', messages: hello });
    expect(primary.requests).toHaveLength(2);

    primary.setDefault({});
    clock.advance(1);
    await client.chat.completions.create({ model: 'fake-model', messages: hello });
    expect(primary.requests).toHaveLength(3);
    expect(backup.requests).toHaveLength(4);
  });
});

describe('after the first byte', () => {
  it('ends the stream with an error event and [DONE] when the upstream fails mid-stream, and records a failure', async () => {
    primary.enqueue({ content: 'one two three four', cutAfterChunks: 2 });
    const res = await call(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello, stream: true } });
    expect(res.status).toBe(200);
    const events = res.text.trim().split('\n\n');
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(events.at(-2)!.slice('data: '.length))).toMatchObject({ error: { code: 'provider_error' } });
    expect(events.slice(0, -2).map((e) => JSON.parse(e.slice(6)).choices[0].delta.content).join('')).toBe('one two');
    expect(backup.requests).toHaveLength(0);
    expect(await auditOf(res.headers.get('x-request-id'))).toMatchObject({ outcome: 'failure', status: 502, stream: true, estimated: true });
  });

  it('surfaces a mid-stream failure as an APIError in the openai client', async () => {
    primary.enqueue({ content: 'one two three four', cutAfterChunks: 1 });
    const stream = await client.chat.completions.create({ model: 'fake-model', messages: hello, stream: true });
    const consume = async () => {
      for await (const _chunk of stream) {
        // drain
      }
    };
    await expect(consume()).rejects.toBeInstanceOf(OpenAI.APIError);
  });

  it('aborts the upstream call when the client disconnects', async () => {
    primary.enqueue({ content: 'a b c d e f g h i j k l m n o p', chunkDelayMs: 150 });
    const controller = new AbortController();
    const response = await fetch(`${stack.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.member.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fake-model', messages: hello, stream: true }),
      signal: controller.signal,
    });
    const requestId = response.headers.get('x-request-id');
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await waitFor(async () => primary.requests[0]?.closedEarly, { what: 'upstream connection closed' });
    expect(await auditOf(requestId)).toMatchObject({ outcome: 'aborted', stream: true });
  });
});
