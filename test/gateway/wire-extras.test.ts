// What every wire format gets from the one gateway core beyond the answer: X-Gateway-Cost and
// X-Gateway-Overhead-Ms, the cost in the final streamed usage, and contextWindowFallbacks (a
// context-length error moves to the next, bigger model before the first byte) on chat
// completions, messages and responses alike; the upstream's prompt-cache counts in each format's
// usage, metered once.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GatewayRequestRecord } from '../../src/gateway/entities.js';
import { FAKE_PRICES, fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let primary: FakeUpstream;
let claude: FakeUpstream;
let big: FakeUpstream;
let openai: OpenAI;
let anthropic: Anthropic;

const BIG_PRICES = { inputPricePer1M: 10, outputPricePer1M: 30 };

beforeAll(async () => {
  [primary, claude, big] = await Promise.all([startFakeUpstream(), startFakeUpstream(), startFakeUpstream()]);
  const config = fakeGatewayConfig({ primary, anthropic: claude }) as { providers: unknown[]; models: Array<Record<string, unknown>> };
  config.providers.push({ id: 'big', type: 'openai', baseUrl: big.baseUrl, apiKey: 'sk-big', timeoutMs: 2000 });
  config.models.push({ id: 'big-model', targets: [{ provider: 'big', upstreamModel: 'gpt-fake-1m' }], ...BIG_PRICES });
  for (const model of config.models) if (model.id === 'fake-model' || model.id === 'fake-claude') model.contextWindowFallbacks = ['big-model'];
  config.models.push({ id: 'no-fallback', targets: [{ provider: 'primary', upstreamModel: 'gpt-fake-small' }], ...FAKE_PRICES });
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(config) } });
  org = await createTestOrganization(stack.runtime.orm);
  openai = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: org.member.key, baseURL: stack.api.url, maxRetries: 0 });
});
afterEach(() => {
  primary.reset();
  claude.reset();
  big.reset();
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([primary?.close(), claude?.close(), big?.close()]);
});

const priced = (prices: { inputPricePer1M: number; outputPricePer1M: number }, input: number, output: number) => (input * prices.inputPricePer1M + output * prices.outputPricePer1M) / 1e6;
const openAiTooLong = { status: 400, errorBody: { error: { message: "This model's maximum context length is 8192 tokens", type: 'invalid_request_error', code: 'context_length_exceeded' } } };
const anthropicTooLong = { status: 400, errorBody: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' } } };

async function auditOf(requestId: string | null) {
  return waitFor(async () => stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, requestId: requestId! }), { what: 'audit record' });
}

describe('X-Gateway-Cost and X-Gateway-Overhead-Ms', () => {
  it('carries the cost and the overhead on a chat completion, and the cost in the final streamed usage', async () => {
    primary.enqueue({ usage: { input: 100, output: 20 } });
    const { response } = await openai.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(Number(response.headers.get('x-gateway-cost'))).toBeCloseTo(priced(FAKE_PRICES, 100, 20), 10);
    const overhead = Number(response.headers.get('x-gateway-overhead-ms'));
    expect(overhead).toBeGreaterThanOrEqual(0);
    expect(overhead).toBeLessThan(10_000);

    primary.enqueue({ usage: { input: 50, output: 10 }, latencyMs: 200 });
    const { data: stream, response: streamed } = await openai.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } }).withResponse();
    // The upstream's 200 ms is not the gateway's own time.
    expect(Number(streamed.headers.get('x-gateway-overhead-ms'))).toBeLessThan(150);
    let usage: Record<string, unknown> | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage as unknown as Record<string, unknown>;
    expect(usage).toMatchObject({ prompt_tokens: 50, completion_tokens: 10 });
    expect(usage!.cost).toBeCloseTo(priced(FAKE_PRICES, 50, 10), 10);
  });
});

describe('contextWindowFallbacks', () => {
  it('retries a chat completion on the bigger model after a context-length error, priced and audited as that model', async () => {
    primary.enqueue(openAiTooLong);
    big.enqueue({ content: 'Fits here', usage: { input: 1000, output: 5 } });
    const { data, response } = await openai.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'a very long prompt' }] }).withResponse();
    expect(data.model).toBe('big-model');
    expect(data.choices[0]!.message.content).toBe('Fits here');
    expect(primary.requests).toHaveLength(1);
    expect(big.requests[0]?.body).toMatchObject({ model: 'gpt-fake-1m', messages: [{ role: 'user', content: 'a very long prompt' }] });
    expect(Number(response.headers.get('x-gateway-cost'))).toBeCloseTo(priced(BIG_PRICES, 1000, 5), 10);
    expect(await auditOf(response.headers.get('x-request-id'))).toMatchObject({ outcome: 'success', model: 'big-model', modelRequested: 'fake-model', attempts: 2 });
  });

  it('retries a stream before its first byte', async () => {
    primary.enqueue(openAiTooLong);
    big.enqueue({ content: 'streamed from the big one' });
    const stream = await openai.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'long' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('streamed from the big one');
  });

  it('retries an Anthropic upstream\'s "prompt is too long" through /v1/messages', async () => {
    claude.enqueue(anthropicTooLong);
    big.enqueue({ content: 'Big answer' });
    const message = await anthropic.messages.create({ model: 'fake-claude', max_tokens: 50, messages: [{ role: 'user', content: 'long' }] });
    expect(message).toMatchObject({ model: 'big-model', content: [{ type: 'text', text: 'Big answer' }] });
    expect(claude.requests).toHaveLength(1);
  });

  it('retries through /v1/responses', async () => {
    primary.enqueue(openAiTooLong);
    big.enqueue({ content: 'Responses fits' });
    const response = await openai.responses.create({ model: 'fake-model', input: 'long', store: false });
    expect(response).toMatchObject({ model: 'big-model', output_text: 'Responses fits' });
  });

  it('answers 400 bad_request on a context-length error when the model has no fallback, and never falls back for other 400s', async () => {
    primary.enqueue(openAiTooLong);
    const none = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'no-fallback', messages: [{ role: 'user', content: 'x' }] } });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'bad_request' });
    expect(none.body.error.message).toContain('context_length_exceeded');
    primary.enqueue({ status: 400, errorBody: { error: { message: 'bad temperature', type: 'invalid_request_error', code: 'invalid_value' } } });
    const other = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: [{ role: 'user', content: 'x' }] } });
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ code: 'bad_request', message: 'bad temperature' });
    expect(big.requests).toHaveLength(0);
  });
});

describe('prompt-cache usage', () => {
  // 1,000 prompt tokens: 600 read from the upstream's prompt cache, 300 written to it, 100 neither.
  const cachedUsage = { input: 1000, output: 10, cacheRead: 600, cacheWrite: 300 };
  const user = [{ role: 'user' as const, content: 'hi' }];

  it("passes an Anthropic-style upstream's cache counts through /v1/messages, plain and streamed, priced as Anthropic bills them", async () => {
    // 100 uncached at the input price, 600 reads at 0.1x, 300 5-minute writes at 1.25x (the anthropic defaults).
    const cachedCost = (100 * FAKE_PRICES.inputPricePer1M + 600 * 0.1 * FAKE_PRICES.inputPricePer1M + 300 * 1.25 * FAKE_PRICES.inputPricePer1M + 10 * FAKE_PRICES.outputPricePer1M) / 1e6;
    claude.enqueue({ usage: cachedUsage });
    const { data: message, response } = await anthropic.messages.create({ model: 'fake-claude', max_tokens: 50, messages: user }).withResponse();
    expect(message.usage).toMatchObject({ input_tokens: 100, cache_creation_input_tokens: 300, cache_read_input_tokens: 600, output_tokens: 10 });
    expect(Number(response.headers.get('x-gateway-cost'))).toBeCloseTo(cachedCost, 10);
    const audit = await auditOf(response.headers.get('x-request-id'));
    expect(audit).toMatchObject({ inputTokens: 1000, outputTokens: 10 });
    expect(audit.cost).toBeCloseTo(cachedCost, 10);

    claude.enqueue({ usage: cachedUsage });
    const final = await anthropic.messages.stream({ model: 'fake-claude', max_tokens: 50, messages: user }).finalMessage();
    expect(final.usage).toMatchObject({ input_tokens: 100, cache_creation_input_tokens: 300, cache_read_input_tokens: 600, output_tokens: 10 });
  });

  it('reports cache reads as cached_tokens on chat completions and responses, plain and streamed', async () => {
    claude.enqueue({ usage: cachedUsage }, { usage: cachedUsage }, { usage: cachedUsage }, { usage: cachedUsage });
    const completion = await openai.chat.completions.create({ model: 'fake-claude', messages: user });
    expect(completion.usage).toMatchObject({ prompt_tokens: 1000, completion_tokens: 10, total_tokens: 1010, prompt_tokens_details: { cached_tokens: 600 } });
    const stream = await openai.chat.completions.create({ model: 'fake-claude', messages: user, stream: true, stream_options: { include_usage: true } });
    let streamed: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) if (chunk.usage) streamed = chunk.usage;
    expect(streamed).toMatchObject({ prompt_tokens: 1000, prompt_tokens_details: { cached_tokens: 600 } });

    const response = await openai.responses.create({ model: 'fake-claude', input: 'hi', store: false });
    expect(response.usage).toMatchObject({ input_tokens: 1000, input_tokens_details: { cached_tokens: 600 }, output_tokens: 10, total_tokens: 1010 });
    const final = await openai.responses.stream({ model: 'fake-claude', input: 'hi', store: false }).finalResponse();
    expect(final.usage).toMatchObject({ input_tokens: 1000, input_tokens_details: { cached_tokens: 600 } });
  });

  it("maps an OpenAI-style upstream's cached_tokens to Anthropic's cache_read_input_tokens, and reports no cache fields when the upstream says nothing", async () => {
    primary.enqueue({ usage: { input: 500, output: 5, cacheRead: 400 } }, { usage: { input: 500, output: 5, cacheRead: 400 } });
    const message = await anthropic.messages.create({ model: 'fake-model', max_tokens: 50, messages: user });
    expect(message.usage).toMatchObject({ input_tokens: 100, cache_read_input_tokens: 400, output_tokens: 5 });
    expect(message.usage).not.toHaveProperty('cache_creation_input_tokens');
    const completion = await openai.chat.completions.create({ model: 'fake-model', messages: user });
    expect(completion.usage).toMatchObject({ prompt_tokens: 500, prompt_tokens_details: { cached_tokens: 400 } });

    primary.enqueue({ usage: { input: 500, output: 5 } }, { usage: { input: 500, output: 5 } });
    const plain = await anthropic.messages.create({ model: 'fake-model', max_tokens: 50, messages: user });
    expect(plain.usage).toEqual({ input_tokens: 500, output_tokens: 5 });
    const uncached = await openai.chat.completions.create({ model: 'fake-model', messages: user });
    expect(uncached.usage).toEqual({ prompt_tokens: 500, completion_tokens: 5, total_tokens: 505 });
  });
});
