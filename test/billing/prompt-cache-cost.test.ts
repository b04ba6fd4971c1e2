// Prompt caching priced as the upstream bills it, end to end: an Anthropic-style upstream's cache
// reads and 5-minute and 1-hour writes, an OpenAI-style upstream's cached tokens, each priced
// apart (defaults or a model's own cache prices); X-Gateway-Cost, the streamed usage's cost, the
// audit and usage records and GET /billing/usage (totals and groups) all carry the same figures.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let claude: FakeUpstream;
let gpt: FakeUpstream;

/** Anthropic defaults apply: reads 0.3, 5-minute writes 3.75, 1-hour writes 6 (USD per 1M). */
const CLAUDE = { inputPricePer1M: 3, outputPricePer1M: 15 };
/** Its own read price instead of OpenAI's default (half the input price). */
const GPT = { inputPricePer1M: 2.5, outputPricePer1M: 10, cacheReadPricePer1M: 0.25 };

beforeAll(async () => {
  [claude, gpt] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  const config = {
    providers: [
      { id: 'claude', type: 'anthropic', baseUrl: claude.baseUrl, apiKey: 'sk-ant-fake' },
      { id: 'gpt', type: 'openai', baseUrl: gpt.baseUrl, apiKey: 'sk-fake' },
    ],
    models: [
      { id: 'cached-claude', targets: [{ provider: 'claude', upstreamModel: 'claude-fake' }], maxOutputTokens: 1000, ...CLAUDE },
      { id: 'cached-gpt', targets: [{ provider: 'gpt', upstreamModel: 'gpt-fake' }], maxOutputTokens: 1000, ...GPT },
    ],
  };
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(config) } });
});
afterEach(() => {
  claude.reset();
  gpt.reset();
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([claude?.close(), gpt?.close()]);
});

// 10,000 prompt tokens: 8,000 read, 1,500 written (500 for an hour), 500 neither; 200 out.
const CLAUDE_USAGE = { input: 10_000, output: 200, cacheRead: 8_000, cacheWrite: 1_500, cacheWrite1h: 500 };
/** 500 x 3 + 8,000 x 0.3 + 1,000 x 3.75 + 500 x 6 + 200 x 15, per million (old pricing: 0.033). */
const CLAUDE_COST = 0.01365;
/** 8,000 x (3 - 0.3), per million. */
const CLAUDE_SAVING = 0.0216;
// 10,000 prompt tokens, 6,000 of them cached; 100 out.
const GPT_USAGE = { input: 10_000, output: 100, cacheRead: 6_000 };
/** 4,000 x 2.5 + 6,000 x 0.25 + 100 x 10, per million. */
const GPT_COST = 0.0125;
/** 6,000 x (2.5 - 0.25), per million. */
const GPT_SAVING = 0.0135;

interface CacheRow {
  input_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cache_write_1h_tokens: number;
  cost: number;
}

/** The request's audit row and usage record, once the recorder has written them. */
async function recordsOf(org: TestOrganization, requestId: string | null) {
  const em = () => stack.runtime.orm.em.fork();
  const columns = '"input_tokens", "cache_read_tokens", "cache_write_tokens", "cache_write_1h_tokens", "cost"';
  const audit = await waitFor(async () => {
    const rows = await em().execute<CacheRow[]>(`select ${columns} from "gateway_requests" where "organization_id" = ? and "request_id" = ?`, [org.id, requestId]);
    return rows[0];
  }, { what: 'audit row' });
  const [usage] = await em().execute<Array<CacheRow & { cache_saving: number }>>(
    `select ${columns}, "cache_saving" from "usage_records" where "organization_id" = ? and "request_id" = ?`,
    [org.id, requestId],
  );
  return { audit: numbers(audit), usage: numbers(usage!) };
}

function numbers<T extends object>(row: T): Record<keyof T, number> {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])) as Record<keyof T, number>;
}

describe('prompt-cache pricing', () => {
  it('prices an Anthropic upstream\'s reads and 5-minute and 1-hour writes apart through /v1/messages', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const anthropic = new Anthropic({ apiKey: org.member.key, baseURL: stack.api.url, maxRetries: 0 });
    claude.enqueue({ usage: CLAUDE_USAGE });
    const { data: message, response } = await anthropic.messages
      .create({
        model: 'cached-claude',
        max_tokens: 100,
        system: [{ type: 'text', text: 'A long system prompt.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
        messages: [{ role: 'user', content: 'Hi' }],
      })
      .withResponse();
    expect(message.usage).toMatchObject({ input_tokens: 500, cache_read_input_tokens: 8_000, cache_creation_input_tokens: 1_500, output_tokens: 200 });
    expect(Number(response.headers.get('x-gateway-cost'))).toBe(CLAUDE_COST);
    const { audit, usage } = await recordsOf(org, response.headers.get('x-request-id'));
    expect(audit).toEqual({ input_tokens: 10_000, cache_read_tokens: 8_000, cache_write_tokens: 1_500, cache_write_1h_tokens: 500, cost: CLAUDE_COST });
    expect(usage).toEqual({ input_tokens: 10_000, cache_read_tokens: 8_000, cache_write_tokens: 1_500, cache_write_1h_tokens: 500, cost: CLAUDE_COST, cache_saving: CLAUDE_SAVING });
  });

  it('prices a streamed answer the same, in its final usage and its records', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const openai = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
    claude.enqueue({ usage: CLAUDE_USAGE });
    const { data: stream, response } = await openai.chat.completions
      .create({ model: 'cached-claude', messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } })
      .withResponse();
    let final: Record<string, unknown> | undefined;
    for await (const chunk of stream) if (chunk.usage) final = chunk.usage as unknown as Record<string, unknown>;
    expect(final).toMatchObject({ prompt_tokens: 10_000, prompt_tokens_details: { cached_tokens: 8_000 }, cost: CLAUDE_COST });
    const { usage } = await recordsOf(org, response.headers.get('x-request-id'));
    expect(usage).toEqual({ input_tokens: 10_000, cache_read_tokens: 8_000, cache_write_tokens: 1_500, cache_write_1h_tokens: 500, cost: CLAUDE_COST, cache_saving: CLAUDE_SAVING });
  });

  it("prices an OpenAI-style upstream's cached tokens at the model's own read price through chat completions", async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const openai = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
    gpt.enqueue({ usage: GPT_USAGE });
    const { data: completion, response } = await openai.chat.completions
      .create({ model: 'cached-gpt', messages: [{ role: 'user', content: 'Hi' }], prompt_cache_key: 'tenant-a' })
      .withResponse();
    expect(completion.usage).toMatchObject({ prompt_tokens: 10_000, prompt_tokens_details: { cached_tokens: 6_000 } });
    expect(Number(response.headers.get('x-gateway-cost'))).toBe(GPT_COST);
    const { usage } = await recordsOf(org, response.headers.get('x-request-id'));
    expect(usage).toEqual({ input_tokens: 10_000, cache_read_tokens: 6_000, cache_write_tokens: 0, cache_write_1h_tokens: 0, cost: GPT_COST, cache_saving: GPT_SAVING });
  });

  it('reports cache reads, writes and the saving in GET /billing/usage, in total and by model', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const anthropic = new Anthropic({ apiKey: org.member.key, baseURL: stack.api.url, maxRetries: 0 });
    const openai = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
    claude.enqueue({ usage: CLAUDE_USAGE }, { usage: CLAUDE_USAGE });
    gpt.enqueue({ usage: GPT_USAGE });
    for (let turn = 0; turn < 2; turn++) await anthropic.messages.create({ model: 'cached-claude', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] });
    await openai.chat.completions.create({ model: 'cached-gpt', messages: [{ role: 'user', content: 'Hi' }] });

    const totals = await waitFor(async () => {
      const res = await call<any>(stack.baseUrl, 'GET', '/billing/usage', { key: org.admin.key });
      return res.body.totals?.requests === 3 && res.body.totals;
    }, { what: 'three recorded requests' });
    expect(totals).toEqual({
      requests: 3,
      inputTokens: 30_000,
      outputTokens: 500,
      estimatedCost: expect.closeTo(2 * CLAUDE_COST + GPT_COST, 9),
      cacheReadTokens: 22_000,
      cacheWriteTokens: 3_000,
      cacheSaving: expect.closeTo(2 * CLAUDE_SAVING + GPT_SAVING, 9),
    });
    const byModel = await call<any>(stack.baseUrl, 'GET', '/billing/usage?groupBy=model', { key: org.admin.key });
    expect(byModel.body.groups).toEqual([
      { model: 'cached-claude', requests: 2, inputTokens: 20_000, outputTokens: 400, estimatedCost: expect.closeTo(2 * CLAUDE_COST, 9), cacheReadTokens: 16_000, cacheWriteTokens: 3_000, cacheSaving: expect.closeTo(2 * CLAUDE_SAVING, 9) },
      { model: 'cached-gpt', requests: 1, inputTokens: 10_000, outputTokens: 100, estimatedCost: expect.closeTo(GPT_COST, 9), cacheReadTokens: 6_000, cacheWriteTokens: 0, cacheSaving: expect.closeTo(GPT_SAVING, 9) },
    ]);
  });
});
