// Prompt caching end to end, through the unchanged official clients: what a client's
// wire format says about caching reaches an upstream that speaks it (Anthropic's cache_control on
// system blocks, content blocks, tool results, tool calls and tools, both TTLs; chat completions'
// cache_control parts by the OpenRouter/LiteLLM convention; OpenAI's prompt_cache_key and
// prompt_cache_retention), never an upstream that does not (cache_control to an OpenAI-style one),
// and the usage the upstream reports for its cache comes back in every wire format, plain and
// streamed. A model with `promptCaching: auto` gets breakpoints the client did not set, and a run
// of a skill on it reads its prompt from the (fake upstream's) cache on its second fire.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeGatewayConfig, FAKE_PRICES, fakeTokens, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let primary: FakeUpstream;
let claude: FakeUpstream;
let anthropic: Anthropic;
let openai: OpenAI;

beforeAll(async () => {
  [primary, claude] = await Promise.all([startFakeUpstream({ promptCache: true }), startFakeUpstream({ promptCache: true })]);
  const config = fakeGatewayConfig({ primary, anthropic: claude });
  (config.models as Record<string, unknown>[]).push({ id: 'fake-claude-auto', targets: [{ provider: 'claude', upstreamModel: 'claude-fake-auto' }], promptCaching: 'auto', ...FAKE_PRICES });
  config.tiers = { standard: ['fake-model'], premium: ['fake-claude-auto'] };
  stack = await startStack({ env: { GATEWAY_CONFIG: writeGatewayConfig(config) } });
  org = await createTestOrganization(stack.runtime.orm);
  anthropic = new Anthropic({ apiKey: org.member.key, baseURL: stack.api.url, maxRetries: 0 });
  openai = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
});
afterEach(() => {
  primary.reset();
  claude.reset();
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([primary?.close(), claude?.close()]);
});

type Json = Record<string, any>;
/** What the upstream received, the first request since the last reset. */
const bodyOf = (upstream: FakeUpstream): Json => upstream.requests[0]!.body;
const ephemeral = { type: 'ephemeral' as const };
const hour = { type: 'ephemeral' as const, ttl: '1h' as const };
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
const lookup = { name: 'lookup', description: 'Looks things up', input_schema: { type: 'object' as const, properties: { q: { type: 'string' } } } };

/** A Messages request with a breakpoint everywhere Anthropic takes one, and the fields beside them. */
const cachedMessages = (model: string) => ({
  model,
  max_tokens: 100,
  system: [
    { type: 'text' as const, text: 'You are a careful analyst.', cache_control: hour },
    { type: 'text' as const, text: 'Answer in one line.', cache_control: ephemeral },
  ],
  tools: [{ ...lookup, cache_control: ephemeral }],
  messages: [
    {
      role: 'user' as const,
      content: [
        { type: 'document' as const, source: { type: 'text' as const, media_type: 'text/plain' as const, data: 'Revenue grew 4%.' }, title: 'q3.txt', citations: { enabled: true } },
        { type: 'text' as const, text: 'What grew?' },
      ],
    },
    { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'lookup', input: { q: 'revenue' }, cache_control: ephemeral }] },
    { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_1', content: [{ type: 'text' as const, text: 'revenue: up' }, { type: 'text' as const, text: 'costs: flat' }], cache_control: ephemeral }] },
  ],
  top_k: 5,
  stop_sequences: ['END'],
  metadata: { user_id: 'user-7f3a' },
  service_tier: 'standard_only' as const,
});

const CACHE_USAGE = { input: 100, output: 5, cacheRead: 60, cacheWrite: 30, cacheWrite1h: 10 };
/** CACHE_USAGE as Anthropic's usage object reports it. */
const messagesCacheUsage = {
  input_tokens: 10,
  cache_read_input_tokens: 60,
  cache_creation_input_tokens: 30,
  cache_creation: { ephemeral_5m_input_tokens: 20, ephemeral_1h_input_tokens: 10 },
};

describe('the Messages API (the Anthropic SDK)', () => {
  it.each([false, true])('keeps every breakpoint, system blocks, documents, metadata and service_tier to an Anthropic upstream, and no temperature of its own (stream: %s)', async (stream) => {
    claude.enqueue({ usage: CACHE_USAGE });
    const body = cachedMessages('fake-claude');
    if (stream) {
      const events: Json[] = [];
      for await (const event of anthropic.messages.stream(body)) events.push(event);
      const start = events.find((event) => event.type === 'message_start')!;
      // The upstream's prompt counts at the start, not zeros.
      expect(start.message.usage).toMatchObject(messagesCacheUsage);
      expect(events.find((event) => event.type === 'message_delta')!.usage).toMatchObject({ ...messagesCacheUsage, output_tokens: 5 });
    } else {
      const message = await anthropic.messages.create(body);
      expect(message.usage).toMatchObject({ ...messagesCacheUsage, output_tokens: 5 });
    }
    const sent = bodyOf(claude);
    expect(sent.system).toEqual(body.system);
    expect(sent.tools).toEqual([{ ...lookup, cache_control: ephemeral }]);
    expect(sent.messages).toEqual(body.messages);
    expect(sent).toMatchObject({ top_k: 5, stop_sequences: ['END'], metadata: { user_id: 'user-7f3a' }, service_tier: 'standard_only' });
    // Omitted by the client, omitted upstream: Anthropic's own default applies (it was 0.5).
    expect(sent).not.toHaveProperty('temperature');
  });

  it.each([false, true])('sends no cache_control, metadata or service_tier to an OpenAI-style upstream, and reports its cached tokens as cache reads (stream: %s)', async (stream) => {
    primary.enqueue({ usage: { input: 80, output: 4, cacheRead: 64 } });
    const body = cachedMessages('fake-model');
    let usage: Json;
    if (stream) {
      const events: Json[] = [];
      for await (const event of anthropic.messages.stream(body)) events.push(event);
      usage = events.find((event) => event.type === 'message_delta')!.usage;
    } else {
      usage = (await anthropic.messages.create(body)).usage;
    }
    expect(usage).toMatchObject({ input_tokens: 16, cache_read_input_tokens: 64, output_tokens: 4 });
    const sent = bodyOf(primary);
    expect(JSON.stringify(sent)).not.toContain('cache_control');
    expect(sent).not.toHaveProperty('metadata');
    expect(sent).not.toHaveProperty('service_tier');
    expect(sent).not.toHaveProperty('temperature');
    // The system blocks as text parts, the text document as text.
    expect(sent.messages[0]).toEqual({ role: 'system', content: [{ type: 'text', text: 'You are a careful analyst.' }, { type: 'text', text: 'Answer in one line.' }] });
    expect(sent.messages[1].content[0]).toEqual({ type: 'text', text: 'q3.txt\n\nRevenue grew 4%.' });
  });

  it('keeps a PDF document with its citations switch whole to an Anthropic upstream', async () => {
    const document = { type: 'document' as const, source: { type: 'base64' as const, media_type: 'application/pdf' as const, data: PDF }, title: 'report.pdf', context: 'Q3', citations: { enabled: true }, cache_control: ephemeral };
    await anthropic.messages.create({ model: 'fake-claude', max_tokens: 50, messages: [{ role: 'user', content: [document, { type: 'text', text: 'Summarise.' }] }] });
    expect(bodyOf(claude).messages[0].content[0]).toEqual(document);
  });

  it.each([false, true])("passes a cited answer's text blocks back with their citations (stream: %s)", async (stream) => {
    const citation = { type: 'char_location', cited_text: 'Revenue grew 4%.', document_index: 0, document_title: 'q3.txt', start_char_index: 0, end_char_index: 16 };
    const citedText = [{ text: 'Revenue grew ' }, { text: 'by 4%', citations: [citation] }, { text: '.' }];
    claude.enqueue({ citedText });
    const body = {
      model: 'fake-claude',
      max_tokens: 50,
      messages: [{ role: 'user' as const, content: [{ type: 'document' as const, source: { type: 'text' as const, media_type: 'text/plain' as const, data: 'Revenue grew 4%.' }, citations: { enabled: true } }, { type: 'text' as const, text: 'What grew?' }] }],
    };
    const message = stream ? await anthropic.messages.stream(body).finalMessage() : await anthropic.messages.create(body);
    expect(message.content).toEqual(citedText.map((block) => ({ type: 'text', text: block.text, citations: block.citations ?? (stream ? undefined : null) })));
  });

  it('refuses a cache_control Anthropic would refuse, naming the field', async () => {
    const res = await call(stack.baseUrl, 'POST', '/messages', {
      key: org.member.key,
      body: { model: 'fake-claude', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral', ttl: '2h' } }] }] },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.message).toContain('messages[0].content[0].cache_control.ttl');
    expect(claude.requests).toHaveLength(0);
  });
});

describe('chat completions (the openai SDK)', () => {
  /** A chat request with a cache_control content part (1-hour TTL), a message-level and a tool breakpoint, and OpenAI's cache fields. */
  const cachedChat = (model: string) => ({
    model,
    messages: [
      { role: 'system', content: [{ type: 'text', text: 'You are a careful analyst.', cache_control: hour }] },
      { role: 'user', content: 'What grew?', cache_control: ephemeral },
    ],
    tools: [{ type: 'function', function: { name: 'lookup', parameters: lookup.input_schema }, cache_control: ephemeral }],
    prompt_cache_key: 'tenant-42',
    prompt_cache_retention: '24h',
  }) as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

  it.each([false, true])('puts cache_control parts, messages and tools on Anthropic blocks; prompt_cache_key stays behind (stream: %s)', async (stream) => {
    claude.enqueue({ usage: CACHE_USAGE });
    let usage: Json | undefined;
    if (stream) {
      const chunks = await openai.chat.completions.create({ ...cachedChat('fake-claude'), stream: true, stream_options: { include_usage: true } });
      for await (const chunk of chunks) if (chunk.usage) usage = chunk.usage;
    } else {
      usage = (await openai.chat.completions.create(cachedChat('fake-claude'))).usage;
    }
    expect(usage).toMatchObject({ prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 60 } });
    const sent = bodyOf(claude);
    expect(sent.system).toEqual([{ type: 'text', text: 'You are a careful analyst.', cache_control: hour }]);
    expect(sent.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'What grew?', cache_control: ephemeral }] }]);
    expect(sent.tools[0]).toMatchObject({ name: 'lookup', cache_control: ephemeral });
    expect(sent).not.toHaveProperty('prompt_cache_key');
    expect(sent).not.toHaveProperty('prompt_cache_retention');
    // Chat completions keeps the spec's default temperature (1.0, Anthropic's 0.5).
    expect(sent.temperature).toBe(0.5);
  });

  it.each([false, true])('sends prompt_cache_key and prompt_cache_retention to an OpenAI-style upstream, never cache_control; cached_tokens come back (stream: %s)', async (stream) => {
    primary.enqueue({ usage: { input: 80, output: 4, cacheRead: 64 } });
    let usage: Json | undefined;
    if (stream) {
      const chunks = await openai.chat.completions.create({ ...cachedChat('fake-model'), stream: true, stream_options: { include_usage: true } });
      for await (const chunk of chunks) if (chunk.usage) usage = chunk.usage;
    } else {
      usage = (await openai.chat.completions.create(cachedChat('fake-model'))).usage;
    }
    expect(usage).toMatchObject({ prompt_tokens: 80, prompt_tokens_details: { cached_tokens: 64 } });
    const sent = bodyOf(primary);
    expect(sent).toMatchObject({ prompt_cache_key: 'tenant-42', prompt_cache_retention: '24h' });
    expect(JSON.stringify(sent)).not.toContain('cache_control');
    expect(sent.messages).toEqual([{ role: 'system', content: [{ type: 'text', text: 'You are a careful analyst.' }] }, { role: 'user', content: 'What grew?' }]);
  });
});

describe('the Responses API (the openai SDK)', () => {
  it.each([false, true])('sends prompt_cache_key to an OpenAI-style upstream and reports cached_tokens (stream: %s)', async (stream) => {
    primary.enqueue({ usage: { input: 80, output: 4, cacheRead: 64 } });
    const body = { model: 'fake-model', instructions: 'Be brief.', input: 'What grew?', prompt_cache_key: 'tenant-42', prompt_cache_retention: 'in_memory' as const, store: false };
    let usage: Json | null | undefined;
    if (stream) {
      for await (const event of await openai.responses.create({ ...body, stream: true })) if (event.type === 'response.completed') usage = event.response.usage;
    } else {
      usage = (await openai.responses.create(body)).usage;
    }
    expect(usage).toMatchObject({ input_tokens: 80, input_tokens_details: { cached_tokens: 64 } });
    expect(bodyOf(primary)).toMatchObject({ prompt_cache_key: 'tenant-42', prompt_cache_retention: 'in_memory' });
  });

  it.each([false, true])("reports an Anthropic upstream's cache reads as cached_tokens (stream: %s)", async (stream) => {
    claude.enqueue({ usage: CACHE_USAGE });
    const body = { model: 'fake-claude', input: 'What grew?', prompt_cache_key: 'tenant-42', store: false };
    let usage: Json | null | undefined;
    if (stream) {
      for await (const event of await openai.responses.create({ ...body, stream: true })) if (event.type === 'response.completed') usage = event.response.usage;
    } else {
      usage = (await openai.responses.create(body)).usage;
    }
    expect(usage).toMatchObject({ input_tokens: 100, input_tokens_details: { cached_tokens: 60 } });
    expect(bodyOf(claude)).not.toHaveProperty('prompt_cache_key');
  });
});

describe('promptCaching: auto', () => {
  const longSystem = 'You are a meticulous analyst of quarterly reports. '.repeat(40);

  it.each([false, true])('adds breakpoints at the end of the tools, the system prompt and the last user turn; the second call reads the prefix from the cache (stream: %s)', async (stream) => {
    const body = {
      model: 'fake-claude-auto',
      max_tokens: 50,
      system: longSystem,
      tools: [lookup, { ...lookup, name: 'fetch' }],
      messages: [
        { role: 'user' as const, content: 'First question' },
        { role: 'assistant' as const, content: 'First answer' },
        { role: 'user' as const, content: 'Second question' },
      ],
    };
    const usages: Json[] = [];
    for (let i = 0; i < 2; i++) {
      if (stream) {
        const events: Json[] = [];
        for await (const event of anthropic.messages.stream(body)) events.push(event);
        usages.push(events.find((event) => event.type === 'message_delta')!.usage);
      } else {
        usages.push((await anthropic.messages.create(body)).usage);
      }
    }
    const sent = bodyOf(claude);
    expect(sent.tools.map((tool: Json) => tool.cache_control)).toEqual([undefined, ephemeral]);
    expect(sent.system).toEqual([{ type: 'text', text: longSystem, cache_control: ephemeral }]);
    expect(sent.messages).toEqual([
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: 'First answer' },
      { role: 'user', content: [{ type: 'text', text: 'Second question', cache_control: ephemeral }] },
    ]);
    // The first call writes the prompt to the cache, the second reads all of it.
    expect(usages[0]!.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(usages[0]!.cache_read_input_tokens).toBe(0);
    expect(usages[1]!.cache_read_input_tokens).toBe(usages[0]!.cache_creation_input_tokens);
    expect(usages[1]!.cache_creation_input_tokens).toBe(0);
  });

  it("leaves a request with the client's own breakpoint as the client shaped it", async () => {
    await anthropic.messages.create({
      model: 'fake-claude-auto',
      max_tokens: 50,
      system: longSystem,
      tools: [lookup],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Question', cache_control: hour }] }],
    });
    const sent = bodyOf(claude);
    expect(sent.system).toBe(longSystem);
    expect(sent.tools[0]).not.toHaveProperty('cache_control');
    expect(sent.messages[0].content).toEqual([{ type: 'text', text: 'Question', cache_control: hour }]);
  });

  it('adds none for a model without it (off is the default)', async () => {
    await anthropic.messages.create({ model: 'fake-claude', max_tokens: 50, system: longSystem, tools: [lookup], messages: [{ role: 'user', content: 'Question' }] });
    expect(JSON.stringify(bodyOf(claude))).not.toContain('cache_control');
  });

  it('a run of a skill on a model with promptCaching: auto reads its prompt from the cache on its second fire', async () => {
    const skill = await call(stack.baseUrl, 'POST', '/skills', {
      key: org.member.key,
      body: { name: 'Quarterly analyst', description: 'Reads reports', category: 'productivity', systemPrompt: longSystem, modelTier: 'premium', visibility: 'team' },
    });
    expect(skill.status, skill.text).toBe(201);
    const automation = await call(stack.baseUrl, 'POST', '/automations', {
      key: org.member.key,
      body: { name: 'Every minute', systemPrompt: 'Summarise the latest report.', schedule: '* * * * *', status: 'paused', model: 'fake-claude-auto', skillId: skill.body.id },
    });
    expect(automation.status, automation.text).toBe(201);
    for (let fire = 1; fire <= 2; fire++) {
      const started = await call(stack.baseUrl, 'POST', `/automations/${automation.body.id}/run`, { key: org.member.key });
      expect(started.status, started.text).toBe(202);
      const run = await waitFor(
        async () => (await call(stack.baseUrl, 'GET', `/automations/${automation.body.id}/runs`, { key: org.member.key })).body.runs.find((r: Json) => r.id === started.body.runId && r.status !== 'running'),
        { timeoutMs: 60_000, what: `fire ${fire} to finish` },
      );
      expect(run.status, run.error ?? '').toBe('success');
    }
    expect(claude.requests).toHaveLength(2);
    const [first, second] = claude.requests;
    expect((first!.body as Json).system).toEqual([{ type: 'text', text: expect.stringContaining('meticulous analyst'), cache_control: ephemeral }]);
    expect(first!.usage).toMatchObject({ cacheRead: 0 });
    expect(first!.usage!.cacheWrite).toBeGreaterThan(0);
    // The system prompt (the skill's, then the run's own: the same each fire) comes from the
    // cache; the user turn names the fire's time, so it is written again.
    expect((second!.body as Json).system).toEqual((first!.body as Json).system);
    const { cache_control: _breakpoint, ...systemBlock } = (first!.body as Json).system[0];
    expect(second!.usage!.cacheRead).toBe(fakeTokens(systemBlock));
    expect(second!.usage!.cacheWrite).toBeGreaterThan(0);
  }, 150_000);
});
