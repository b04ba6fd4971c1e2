// The response cache through the official openai client: Cache-Control max-age / no-store, the
// model default, X-Cache and Age, streaming replay, organizations kept apart, hits metered as
// cached at cost 0, and DLP applied before any lookup. The fake upstream counts the calls.
import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UsageRecord } from '../../src/billing/entities.js';
import { ManualClock } from '../../src/clock.js';
import { GatewayRequestRecord } from '../../src/gateway/entities.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let upstream: FakeUpstream;
let org: TestOrganization;
let other: TestOrganization;
let client: OpenAI;
const clock = new ManualClock(new Date('2026-11-25T03:00:00Z'));

beforeAll(async () => {
  upstream = await startFakeUpstream();
  const config = fakeGatewayConfig({ primary: upstream });
  // A second model whose answers are cached for a minute unless the request says otherwise.
  (config.models as Record<string, unknown>[]).push({ id: 'cached-model', targets: [{ provider: 'primary', upstreamModel: 'gpt-fake-cached' }], cacheTtlSeconds: 60 });
  stack = await startStack({ worker: false, clock, env: { GATEWAY_CONFIG: writeGatewayConfig(config) } });
  [org, other] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
  client = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
});
afterEach(() => upstream.reset());
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

/** A prompt no other test sends, so entries never leak between tests. */
function prompt(text = 'Say hello'): OpenAI.Chat.ChatCompletionMessageParam[] {
  return [{ role: 'user', content: `${text} (${randomUUID()})` }];
}

async function ask(messages: OpenAI.Chat.ChatCompletionMessageParam[], cacheControl?: string, using = client, model = 'fake-model') {
  const headers = cacheControl ? { 'Cache-Control': cacheControl } : {};
  const { data, response } = await using.chat.completions.create({ model, messages, max_tokens: 50 }, { headers }).withResponse();
  return { data, xCache: response.headers.get('x-cache'), age: response.headers.get('age'), requestId: response.headers.get('x-request-id')! };
}

describe('response cache', () => {
  it('misses, then answers from the cache within max-age without calling the upstream', async () => {
    const messages = prompt();
    const first = await ask(messages, 'max-age=300');
    expect(first).toMatchObject({ xCache: 'MISS', age: '0' });
    expect(upstream.requests).toHaveLength(1);
    clock.advance(7_000);
    const second = await ask(messages, 'max-age=300');
    expect(second).toMatchObject({ xCache: 'HIT', age: '7' });
    expect(upstream.requests).toHaveLength(1);
    expect(second.data.choices[0]?.message.content).toBe(first.data.choices[0]?.message.content);
    expect(second.data.usage).toEqual(first.data.usage);
    expect(second.data.id).not.toBe(first.data.id);
  });

  it('keys on the parameters too: another temperature is another entry', async () => {
    const messages = prompt();
    await ask(messages, 'max-age=300');
    const { response } = await client.chat.completions.create({ model: 'fake-model', messages, max_tokens: 50, temperature: 0.3 }, { headers: { 'Cache-Control': 'max-age=300' } }).withResponse();
    expect(response.headers.get('x-cache')).toBe('MISS');
    expect(upstream.requests).toHaveLength(2);
  });

  it('bypasses the cache on no-store, and without a header on a model with no default', async () => {
    const messages = prompt();
    await ask(messages, 'max-age=300');
    const bypass = await ask(messages, 'no-store');
    expect(bypass.xCache).toBeNull();
    const plain = await ask(messages);
    expect(plain.xCache).toBeNull();
    expect(upstream.requests).toHaveLength(3);
  });

  it('refuses an answer older than the request accepts, and replaces it', async () => {
    const messages = prompt();
    await ask(messages, 'max-age=600');
    clock.advance(30_000);
    expect((await ask(messages, 'max-age=10')).xCache).toBe('MISS');
    expect(upstream.requests).toHaveLength(2);
    clock.advance(4_000);
    expect(await ask(messages, 'max-age=10')).toMatchObject({ xCache: 'HIT', age: '4' });
    expect(upstream.requests).toHaveLength(2);
  });

  it("uses the model's cacheTtlSeconds when the request says nothing", async () => {
    const messages = prompt();
    expect((await ask(messages, undefined, client, 'cached-model')).xCache).toBe('MISS');
    expect((await ask(messages, undefined, client, 'cached-model')).xCache).toBe('HIT');
    expect(upstream.requests).toHaveLength(1);
    clock.advance(61_000);
    expect((await ask(messages, undefined, client, 'cached-model')).xCache).toBe('MISS');
    expect(upstream.requests).toHaveLength(2);
  });

  it('replays a cached answer as server-sent events, and caches a streamed answer for plain requests', async () => {
    const messages = prompt();
    const plain = await ask(messages, 'max-age=300');
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'fake-model', messages, max_tokens: 50, stream: true, stream_options: { include_usage: true } }, { headers: { 'Cache-Control': 'max-age=300' } })
      .withResponse();
    expect(response.headers.get('x-cache')).toBe('HIT');
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(plain.data.choices[0]?.message.content);
    expect(finish).toBe('stop');
    expect(usage).toEqual(plain.data.usage);
    expect(upstream.requests).toHaveLength(1);

    const streamedFirst = prompt('Stream me');
    const live = await client.chat.completions.create({ model: 'fake-model', messages: streamedFirst, max_tokens: 50, stream: true }, { headers: { 'Cache-Control': 'max-age=300' } });
    let liveText = '';
    for await (const chunk of live) liveText += chunk.choices[0]?.delta.content ?? '';
    const replayed = await waitFor(async () => {
      const res = await ask(streamedFirst, 'max-age=300');
      return res.xCache === 'HIT' && res;
    }, { what: 'the streamed answer to be stored' });
    expect(replayed.data.choices[0]?.message.content).toBe(liveText);
    expect(upstream.requests).toHaveLength(2);
  });

  it('never serves one organization an answer stored for another', async () => {
    const messages = prompt();
    await ask(messages, 'max-age=300');
    const otherClient = new OpenAI({ apiKey: other.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
    expect((await ask(messages, 'max-age=300', otherClient)).xCache).toBe('MISS');
    expect(upstream.requests).toHaveLength(2);
    // Members of the same organization share it.
    const colleague = new OpenAI({ apiKey: org.admin.key, baseURL: stack.baseUrl, maxRetries: 0 });
    expect((await ask(messages, 'max-age=300', colleague)).xCache).toBe('HIT');
    expect(upstream.requests).toHaveLength(2);
  });

  it('meters a hit as cached with cost 0 and no upstream attempt', async () => {
    const messages = prompt();
    const miss = await ask(messages, 'max-age=300');
    const hit = await ask(messages, 'max-age=300');
    const em = () => stack.runtime.orm.em.fork();
    const audit = await waitFor(async () => em().findOne(GatewayRequestRecord, { organizationId: org.id, requestId: hit.requestId }), { what: 'audit of the hit' });
    expect(audit).toMatchObject({ outcome: 'success', cached: true, cost: 0, attempts: 0, model: 'fake-model', provider: 'primary', inputTokens: 11, outputTokens: 7 });
    const usage = await waitFor(async () => em().findOne(UsageRecord, { organizationId: org.id, requestId: hit.requestId }), { what: 'usage of the hit' });
    expect(usage).toMatchObject({ cached: true, cost: 0 });
    const missUsage = await waitFor(async () => em().findOne(UsageRecord, { organizationId: org.id, requestId: miss.requestId }), { what: 'usage of the miss' });
    expect(missUsage.cached).toBe(false);
    expect(missUsage.cost).toBeGreaterThan(0);
  });

  it('applies DLP before the lookup: a request the policy now blocks gets no hit', async () => {
    const owner = await createTestOrganization(stack.runtime.orm);
    const ownerClient = new OpenAI({ apiKey: owner.owner.key, baseURL: stack.baseUrl, maxRetries: 0 });
    const messages = prompt('Write to jane@example.com');
    expect((await ask(messages, 'max-age=300', ownerClient)).xCache).toBe('MISS');
    const put = await call(stack.baseUrl, 'PUT', '/dlp/policy', { key: owner.owner.key, body: { detectors: { email: 'block' } } });
    expect(put.status).toBe(200);
    clock.advance(6_000); // past the per-process policy cache
    const blocked = await call<any>(stack.baseUrl, 'POST', '/chat/completions', {
      key: owner.owner.key,
      headers: { 'cache-control': 'max-age=300' },
      body: { model: 'fake-model', messages, max_tokens: 50 },
    });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe('dlp_blocked');
    expect(blocked.headers.get('x-cache')).toBeNull();
  });
});
