// The gateway extras (docs/design.md "Gateway") through the official `openai` client (and plain HTTP where the
// headers matter): GET /v1/models, POST /v1/embeddings, keys limited to some models, with their
// own rate and monthly budget, and max_completion_tokens.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { embedMany, generateText } from 'ai';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_EMBEDDING_MODEL, FAKE_PRICES, fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { BudgetLedger } from '../../src/billing/budget-ledger.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startMonitor } from '../helpers/redis-monitor.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let primary: FakeUpstream;
let backup: FakeUpstream;

beforeAll(async () => {
  primary = await startFakeUpstream();
  backup = await startFakeUpstream();
  const file = writeGatewayConfig(fakeGatewayConfig({ primary, backup }));
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: file } });
});
afterEach(() => {
  primary.reset();
  backup.reset();
});
afterAll(async () => {
  await stack?.stop();
  await primary?.close();
  await backup?.close();
});

const hello = [{ role: 'user' as const, content: 'Say hello' }];

function clientFor(key: string): OpenAI {
  return new OpenAI({ apiKey: key, baseURL: stack.baseUrl, maxRetries: 0 });
}

async function createKey(org: TestOrganization, limits: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const res = await call<any>(stack.baseUrl, 'POST', '/api-keys', { key: org.member.key, body: { name: 'limited', ...limits } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function recordedUsage(org: TestOrganization, requests: number): Promise<any> {
  return waitFor(async () => {
    const res = await call<any>(stack.baseUrl, 'GET', '/billing/usage', { key: org.owner.key });
    return res.body.totals.requests === requests ? res.body : undefined;
  }, { what: `${requests} usage records` });
}

describe('GET /v1/models', () => {
  it('lists every model and tier for a key without an allow-list, in the OpenAI list shape', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const models = [];
    for await (const model of clientFor(org.member.key).models.list()) models.push(model);
    expect(models.map((m) => m.id).sort()).toEqual(['fake-model', 'premium', 'standard', FAKE_EMBEDDING_MODEL].sort());
    for (const model of models) {
      expect(model).toMatchObject({ object: 'model', owned_by: expect.any(String) });
      expect(Number.isInteger(model.created)).toBe(true);
    }
    expect(models.find((m) => m.id === 'fake-model')!.owned_by).toBe('primary');
  });

  it("lists only the models and tiers on the key's allow-list", async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const limited = await createKey(org, { models: ['standard', FAKE_EMBEDDING_MODEL] });
    const models = [];
    for await (const model of clientFor(limited.key).models.list()) models.push(model.id);
    expect(models.sort()).toEqual(['standard', FAKE_EMBEDDING_MODEL].sort());
  });
});

describe('POST /v1/embeddings', () => {
  it('answers floats, records usage and cost, and sends the upstream model and dimensions', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const result = await clientFor(org.member.key).embeddings.create({ model: FAKE_EMBEDDING_MODEL, input: ['one two', 'three'], encoding_format: 'float', dimensions: 3 });
    expect(result.object).toBe('list');
    expect(result.model).toBe(FAKE_EMBEDDING_MODEL);
    // The fake's vectors: [text length, word count, 0...].
    expect(result.data.map((d) => d.embedding)).toEqual([[7, 2, 0], [5, 1, 0]]);
    expect(result.data.map((d) => d.index)).toEqual([0, 1]);
    expect(result.usage).toEqual({ prompt_tokens: 6, total_tokens: 6 });
    expect(primary.requests).toHaveLength(1);
    expect(primary.requests[0]!.path).toBe('/v1/embeddings');
    expect(primary.requests[0]!.body).toMatchObject({ model: 'gpt-fake-mini-embed', input: ['one two', 'three'], dimensions: 3, encoding_format: 'float' });

    const usage = await recordedUsage(org, 1);
    expect(usage.totals.inputTokens).toBe(6);
    expect(usage.totals.outputTokens).toBe(0);
    expect(usage.totals.estimatedCost).toBeCloseTo((6 * 0.5) / 1_000_000, 12);
  });

  it('encodes base64 as little-endian float32: raw when asked, decoded by the client by default', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const raw = await call<any>(stack.baseUrl, 'POST', '/embeddings', { key: org.member.key, body: { model: FAKE_EMBEDDING_MODEL, input: 'four words in here', encoding_format: 'base64' } });
    expect(raw.status).toBe(200);
    const bytes = Buffer.from(raw.body.data[0].embedding as string, 'base64');
    expect([...new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)]).toEqual([18, 4, 0, 0]);
    // Without encoding_format the openai client asks for base64 and decodes it.
    const decoded = await clientFor(org.member.key).embeddings.create({ model: FAKE_EMBEDDING_MODEL, input: 'abc' });
    expect(decoded.data[0]!.embedding).toEqual([3, 1, 0, 0]);
  });

  it('fails over to the next target when the first one is down', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    primary.enqueue({ status: 503 });
    const result = await clientFor(org.member.key).embeddings.create({ model: FAKE_EMBEDDING_MODEL, input: 'hello', encoding_format: 'float' });
    expect(result.data[0]!.embedding).toEqual([5, 1, 0, 0]);
    expect(backup.requests.map((r) => r.body.model)).toEqual(['gpt-fake-backup-embed']);
  });

  it('blocks an input DLP blocks, before any upstream call, and audits it', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const res = await call<any>(stack.baseUrl, 'POST', '/embeddings', { key: org.member.key, body: { model: FAKE_EMBEDDING_MODEL, input: ['fine', 'card 4111 1111 1111 1111'] } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'dlp_blocked' });
    expect(res.text).not.toContain('4111');
    expect(primary.requests).toHaveLength(0);
    const rows = await waitFor(async () => {
      const found = await stack.runtime.orm.em.fork().getConnection().execute<any[]>(
        'select "outcome", "model_requested" from "gateway_requests" where "organization_id" = ?', [org.id]);
      return found.length === 1 ? found : undefined;
    }, { what: 'the audit record' });
    expect(rows[0]).toMatchObject({ outcome: 'blocked', model_requested: FAKE_EMBEDDING_MODEL });
  });

  it('answers 400 naming model for a chat model on /embeddings and an embedding model on /chat/completions', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const chatOnEmbeddings = await call<any>(stack.baseUrl, 'POST', '/embeddings', { key: org.member.key, body: { model: 'fake-model', input: 'x' } });
    expect(chatOnEmbeddings.status).toBe(400);
    expect(chatOnEmbeddings.body.error).toMatchObject({ code: 'bad_request', param: 'model' });
    expect(chatOnEmbeddings.body.error.message).toContain('/v1/chat/completions');
    const embeddingOnChat = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: FAKE_EMBEDDING_MODEL, messages: hello } });
    expect(embeddingOnChat.status).toBe(400);
    expect(embeddingOnChat.body.error).toMatchObject({ code: 'bad_request', param: 'model' });
    expect(primary.requests).toHaveLength(0);
  });

  it.each([
    [{ model: FAKE_EMBEDDING_MODEL }, 'input'],
    [{ model: FAKE_EMBEDDING_MODEL, input: [] }, 'input'],
    [{ model: FAKE_EMBEDDING_MODEL, input: ['ok', 3] }, 'input'],
    [{ model: FAKE_EMBEDDING_MODEL, input: 'x', encoding_format: 'int8' }, 'encoding_format'],
    [{ model: FAKE_EMBEDDING_MODEL, input: 'x', dimensions: 0 }, 'dimensions'],
    [{ input: 'x' }, 'model'],
  ])('answers 400 for %j naming %s', async (body, param) => {
    const org = await createTestOrganization(stack.runtime.orm);
    const res = await call<any>(stack.baseUrl, 'POST', '/embeddings', { key: org.member.key, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', param });
  });
});

describe('keys with their own limits', () => {
  it('validates the limits against the gateway config', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const unknown = await call<any>(stack.baseUrl, 'POST', '/api-keys', { key: org.member.key, body: { name: 'k', models: ['fake-model', 'gpt-5'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'bad_request', param: 'models[1]' });
    const negative = await call<any>(stack.baseUrl, 'POST', '/api-keys', { key: org.member.key, body: { name: 'k', monthlyBudget: -1 } });
    expect(negative.body.error).toMatchObject({ code: 'bad_request', param: 'monthlyBudget' });
    const fractional = await call<any>(stack.baseUrl, 'POST', '/api-keys', { key: org.member.key, body: { name: 'k', rateLimitPerMinute: 1.5 } });
    expect(fractional.body.error).toMatchObject({ code: 'bad_request', param: 'rateLimitPerMinute' });
  });

  it('refuses another model with 403 model_not_allowed naming model, before any upstream call', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const limited = await createKey(org, { models: ['standard'] });
    const error = await clientFor(limited.key).chat.completions.create({ model: 'fake-model', messages: hello }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'model_not_allowed', param: 'model', type: 'permission_error' });
    const embeddings = await clientFor(limited.key).embeddings.create({ model: FAKE_EMBEDDING_MODEL, input: 'x' }).catch((e: unknown) => e);
    expect(embeddings).toMatchObject({ status: 403, code: 'model_not_allowed', param: 'model' });
    expect(primary.requests).toHaveLength(0);
    // The allowed tier answers.
    const answer = await clientFor(limited.key).chat.completions.create({ model: 'standard', messages: hello });
    expect(answer.choices[0]!.message.content).toBeTruthy();
  });

  it('limits the rate of the key with its own X-RateLimit-Limit, then 429 with Retry-After', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const limited = await createKey(org, { rateLimitPerMinute: 3 });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: limited.key, body: { model: 'fake-model', messages: hello } });
      statuses.push(res.status);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(2 - i));
    }
    expect(statuses).toEqual([200, 200, 200]);
    // Every route counts in the same window, and a bad body over the limit is a 429 too.
    const overOnEmbeddings = await call<any>(stack.baseUrl, 'POST', '/embeddings', { key: limited.key, body: { model: FAKE_EMBEDDING_MODEL, input: 'x' } });
    expect(overOnEmbeddings.status).toBe(429);
    expect(overOnEmbeddings.body.error).toMatchObject({ code: 'rate_limited' });
    expect(overOnEmbeddings.headers.get('x-ratelimit-limit')).toBe('3');
    expect(Number(overOnEmbeddings.headers.get('retry-after'))).toBeGreaterThan(0);
    const badBody = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: limited.key, body: { model: 'fake-model' } });
    expect(badBody.status).toBe(429);
    const other = await call<any>(stack.baseUrl, 'GET', '/api-keys', { key: limited.key });
    expect(other.status).toBe(429);
    expect(primary.requests).toHaveLength(3);
    // The organization's other keys are not held back by this key's limit.
    const sibling = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello } });
    expect(sibling.status).toBe(200);
    expect(Number(sibling.headers.get('x-ratelimit-limit'))).toBeGreaterThan(3);
  });

  it('refuses a key over its own budget with 402 while the organization has budget left, and lists its limits and spend', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const limited = await createKey(org, { monthlyBudget: 0.00005, models: ['fake-model'], rateLimitPerMinute: 100 });
    // The first call fits (worst case ~8e-6 USD at max_tokens 1), and is billed 11 in / 7 out tokens.
    const first = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: limited.key, body: { model: 'fake-model', messages: hello, max_tokens: 1 } });
    expect(first.status, first.text).toBe(200);
    const billed = (11 * FAKE_PRICES.inputPricePer1M + 7 * FAKE_PRICES.outputPricePer1M) / 1_000_000;
    // The next one's worst case (1000 output tokens) passes the key's remaining budget.
    const second = await clientFor(limited.key).chat.completions.create({ model: 'fake-model', messages: hello }).catch((e: unknown) => e);
    expect(second).toMatchObject({ status: 402, code: 'budget_exceeded' });
    expect((second as Error).message).toContain('API key');
    const sibling = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello } });
    expect(sibling.status).toBe(200);

    await recordedUsage(org, 2);
    const list = await call<any>(stack.baseUrl, 'GET', '/api-keys', { key: org.member.key });
    const view = list.body.apiKeys.find((k: any) => k.id === limited.id);
    expect(view).toMatchObject({ models: ['fake-model'], monthlyBudget: 0.00005, rateLimitPerMinute: 100 });
    expect(view.spentThisMonth).toBeCloseTo(billed, 12);
    expect(list.body.apiKeys.find((k: any) => k.id !== limited.id).monthlyBudget).toBeNull();
  });
});

describe('Redis round trips', () => {
  /** Scripts run for `org` while `act` runs (and shortly after): EVALSHA, sha, key count, keys, args. */
  async function scriptsDuring(org: TestOrganization, act: () => Promise<void>): Promise<string[][]> {
    const monitor = await startMonitor(stack.runtime.shared.redis!);
    const scripts: string[][] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      // Every key of the request carries the organization in its hash tag.
      if (/^eval/i.test(args[0] ?? '') && args.some((arg) => arg.includes(`{${org.id}}`))) scripts.push(args);
    });
    await act();
    await new Promise((resolve) => setTimeout(resolve, 100));
    monitor.disconnect();
    return scripts;
  }

  it('costs one script call before the upstream call for a key with its own budget (held per request; rate slots from its block) and one settlement after', async (context) => {
    if (stack.runtime.shared.kind !== 'redis') context.skip();
    const org = await createTestOrganization(stack.runtime.orm);
    const limited = await createKey(org, { monthlyBudget: 10, rateLimitPerMinute: 100 });
    const send = () => call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: limited.key, body: { model: 'fake-model', messages: hello } });
    expect((await send()).status).toBe(200); // loads the budget counters, leases rate blocks
    await new Promise((resolve) => setTimeout(resolve, 200));

    const scripts = await scriptsDuring(org, async () => {
      const answered = await send();
      expect(answered.status).toBe(200);
      expect(answered.headers.get('x-ratelimit-limit')).toBe('100');
      expect(Number(answered.headers.get('x-ratelimit-remaining'))).toBe(98);
    });
    // The hold (3 budget keys; both rate counters came from the blocks the first call leased), then the settlement (2 keys).
    expect(scripts.map((args) => Number(args[2]))).toEqual([3, 2]);
  });

  it('makes no Redis call before or after the upstream call while a lease covers it, and syncs its spend within a sync interval', async (context) => {
    if (stack.runtime.shared.kind !== 'redis') context.skip();
    const org = await createTestOrganization(stack.runtime.orm);
    const key = await createKey(org, { rateLimitPerMinute: 1000 });
    const send = () => call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: key.key, body: { model: 'fake-model', messages: hello } });
    expect((await send()).status).toBe(200); // loads the budget counters, leases budget and rate blocks

    let answered = 0;
    const scripts = await scriptsDuring(org, async () => {
      for (let i = 0; i < 5; i++) if ((await send()).status === 200) answered += 1;
    });
    expect(answered).toBe(5);
    // Only lease syncs (3 budget keys; their third argument is the lease's size, where the
    // admission script has its mode): no admission script, no settlement.
    expect(scripts.every((args) => Number(args[2]) === 3 && /^\d+$/.test(args[8] ?? ''))).toBe(true);
    expect(scripts.length).toBeLessThanOrEqual(3);
    expect(stack.runtime.budget).toBeInstanceOf(BudgetLedger);
    expect((await (stack.runtime.budget as BudgetLedger).status(org.id)).spent).toBeGreaterThan(0);
  });
});

describe('limits shared by every instance', () => {
  it("counts a key's rate across two API instances sharing Redis, in parallel", async (context) => {
    if (stack.runtime.shared.kind !== 'redis') context.skip();
    const second = await startStack({ worker: false, shareWith: stack, env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary, backup })) } });
    try {
      const org = await createTestOrganization(stack.runtime.orm);
      const limited = await createKey(org, { rateLimitPerMinute: 5 });
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          call<any>([stack.baseUrl, second.baseUrl][i % 2]!, 'POST', i % 3 === 0 ? '/embeddings' : '/chat/completions', {
            key: limited.key,
            body: i % 3 === 0 ? { model: FAKE_EMBEDDING_MODEL, input: 'x' } : { model: 'fake-model', messages: hello },
          }),
        ),
      );
      expect(responses.filter((r) => r.status === 200)).toHaveLength(5);
      expect(responses.filter((r) => r.status === 429)).toHaveLength(7);
      expect(primary.requests).toHaveLength(5);
    } finally {
      await second.stop();
    }
  });
});

describe('20 parallel requests against a tight budget', () => {
  const MAX_TOKENS = 100;
  async function burst(key: string) {
    primary.setDefault({ latencyMs: 300, usage: { input: 1, output: 3 } });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => call<any>(stack.baseUrl, 'POST', '/chat/completions', { key, body: { model: 'fake-model', messages: hello, max_tokens: MAX_TOKENS } })),
    );
    return { ok: responses.filter((r) => r.status === 200).length, refused: responses.filter((r) => r.status === 402).length };
  }
  // The worst case of one request: prompt bound (3 + 3 framing + 9 bytes = 15 tokens) plus max_tokens.
  // A budget of exactly that admits one request in the whole month, however the others interleave
  // with its settlement (the real cost is above zero).
  const ONE = (15 * FAKE_PRICES.inputPricePer1M + MAX_TOKENS * FAKE_PRICES.outputPricePer1M) / 1_000_000;

  it("never passes a key's own budget", async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const limited = await createKey(org, { monthlyBudget: ONE });
    expect(await burst(limited.key)).toEqual({ ok: 1, refused: 19 });
  });

  it("never passes the organization's cap, with a key budget of its own far above it", async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const limited = await createKey(org, { monthlyBudget: 100 });
    expect((await call(stack.baseUrl, 'PUT', '/billing/budget', { key: org.owner.key, body: { monthlyCap: ONE } })).status).toBe(200);
    expect(await burst(limited.key)).toEqual({ ok: 1, refused: 19 });
  });
});

describe('max_completion_tokens', () => {
  it('reaches the upstream as the output bound, lowered to the model limit, and wins over max_tokens', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const client = clientFor(org.member.key);
    await client.chat.completions.create({ model: 'fake-model', messages: hello, max_completion_tokens: 50 });
    await client.chat.completions.create({ model: 'fake-model', messages: hello, max_completion_tokens: 5000 });
    await client.chat.completions.create({ model: 'fake-model', messages: hello, max_tokens: 20, max_completion_tokens: 30 });
    expect(primary.requests.map((r) => r.body.max_tokens)).toEqual([50, FAKE_PRICES.maxOutputTokens, 30]);
    const bad = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello, max_completion_tokens: 0 } });
    expect(bad.body.error).toMatchObject({ code: 'bad_request', param: 'max_completion_tokens' });
  });
});

describe('through the AI SDK (@ai-sdk/openai-compatible)', () => {
  it('embeds and completes with a limited key, and is refused another model', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const limited = await createKey(org, { models: ['fake-model', FAKE_EMBEDDING_MODEL] });
    const gateway = createOpenAICompatible({ name: 'svc', baseURL: stack.baseUrl, apiKey: limited.key, includeUsage: true });

    const { embeddings, usage } = await embedMany({ model: gateway.embeddingModel(FAKE_EMBEDDING_MODEL), values: ['alpha beta', 'gamma'], maxRetries: 0 });
    expect(embeddings).toEqual([[10, 2, 0, 0], [5, 1, 0, 0]]);
    expect(usage.tokens).toBe(6);

    const text = await generateText({ model: gateway.chatModel('fake-model'), prompt: 'Say hello', maxOutputTokens: 40, maxRetries: 0 });
    expect(text.text).toBe('Hello from the fake upstream');
    expect(text.usage.inputTokens).toBe(11);
    expect(primary.requests.at(-1)!.body.max_tokens).toBe(40);

    const refused = await generateText({ model: gateway.chatModel('standard'), prompt: 'Hi', maxRetries: 0 }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ statusCode: 403 });
    expect(String((refused as { responseBody?: string }).responseBody)).toContain('model_not_allowed');

    const listed = await call<any>(stack.baseUrl, 'GET', '/models', { key: limited.key });
    expect(listed.body.data.map((m: { id: string }) => m.id).sort()).toEqual(['fake-model', FAKE_EMBEDDING_MODEL].sort());
  });
});
