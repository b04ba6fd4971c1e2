// POST /v1/chat/completions against fake OpenAI- and Anthropic-compatible upstreams, through the
// official `openai` npm client where a client would use it.
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, FAKE_DEFAULT_CONTENT, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let primary: FakeUpstream;
let claude: FakeUpstream;
let client: OpenAI;

beforeAll(async () => {
  primary = await startFakeUpstream();
  claude = await startFakeUpstream();
  const file = writeGatewayConfig(fakeGatewayConfig({ primary, anthropic: claude }), 'yaml');
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: file } });
  org = await createTestOrganization(stack.runtime.orm);
  client = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
});
afterEach(() => {
  primary.reset();
  claude.reset();
});
afterAll(async () => {
  await stack?.stop();
  await primary?.close();
  await claude?.close();
});

const hello = [{ role: 'user' as const, content: 'Say hello' }];

describe('validation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['messages is missing', { model: 'fake-model' }, 'messages'],
    ['messages is empty', { model: 'fake-model', messages: [] }, 'messages'],
    ['messages is not an array', { model: 'fake-model', messages: 'hi' }, 'messages'],
    ['a role is unknown', { model: 'fake-model', messages: [{ role: 'wizard', content: 'x' }] }, 'messages[0].role'],
    ['content is not a string', { model: 'fake-model', messages: [{ role: 'user', content: 'ok' }, { role: 'user', content: 42 }] }, 'messages[1].content'],
    ['content is missing', { model: 'fake-model', messages: [{ role: 'user' }] }, 'messages[0].content'],
    ['model is missing', { messages: hello }, 'model'],
    ['model is unknown', { model: 'gpt-nonexistent', messages: hello }, 'model'],
    ['temperature is above 2', { model: 'fake-model', messages: hello, temperature: 2.5 }, 'temperature'],
    ['temperature is negative', { model: 'fake-model', messages: hello, temperature: -0.1 }, 'temperature'],
    ['top_p is above 1', { model: 'fake-model', messages: hello, top_p: 1.5 }, 'top_p'],
    ['max_tokens is zero', { model: 'fake-model', messages: hello, max_tokens: 0 }, 'max_tokens'],
    ['max_tokens is fractional', { model: 'fake-model', messages: hello, max_tokens: 1.5 }, 'max_tokens'],
    ['max_tokens is a string', { model: 'fake-model', messages: hello, max_tokens: '10' }, 'max_tokens'],
    ['stream is not a boolean', { model: 'fake-model', messages: hello, stream: 'yes' }, 'stream'],
  ];
  it.each(cases)('answers 400 bad_request when %s', async (_name, body, param) => {
    const res = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', type: 'invalid_request_error', param });
    expect(primary.requests).toHaveLength(0);
  });

  it('answers 401 without an API key', async () => {
    const res = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { body: { model: 'fake-model', messages: hello } });
    expect(res.status).toBe(401);
  });

  it('raises the openai client error classes with the code and param', async () => {
    const error = await client.chat.completions.create({ model: 'fake-model', messages: hello, temperature: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'bad_request', param: 'temperature' });
    const unauthorized = await new OpenAI({ apiKey: 'svc_live_wrongwrongwrongwrongwrongwrongwrong', baseURL: stack.baseUrl, maxRetries: 0 })
      .chat.completions.create({ model: 'fake-model', messages: hello })
      .catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe('plain completions', () => {
  it('answers through the openai client with the OpenAI response shape', async () => {
    const completion = await client.chat.completions.create({ model: 'fake-model', messages: hello, temperature: 0.5, top_p: 0.9 });
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: 'fake-model',
      choices: [{ index: 0, message: { role: 'assistant', content: FAKE_DEFAULT_CONTENT }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
    });
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(Math.abs(completion.created - Date.now() / 1000)).toBeLessThan(60);
    const [upstream] = primary.requests;
    expect(upstream?.body).toMatchObject({ model: 'gpt-fake-mini', messages: hello, temperature: 0.5, top_p: 0.9 });
    expect(upstream?.headers.authorization).toBe('Bearer sk-fake-primary');
  });

  it('routes a tier name to its model, and the response names the model that answered', async () => {
    const completion = await client.chat.completions.create({ model: 'standard', messages: hello });
    expect(completion.model).toBe('fake-model');
    expect(primary.requests).toHaveLength(1);
  });

  it.each([
    [5000, 1000],
    [50, 50],
    [undefined, 1000],
  ])('sends max_tokens %s upstream as %s (the model limit is 1000)', async (requested, sent) => {
    await client.chat.completions.create({ model: 'fake-model', messages: hello, ...(requested ? { max_tokens: requested } : {}) });
    expect(primary.requests[0]?.body.max_tokens).toBe(sent);
  });

  it('passes tools through and returns tool_calls', async () => {
    primary.enqueue({ content: '', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] });
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const completion = await client.chat.completions.create({ model: 'fake-model', messages: hello, tools, tool_choice: 'auto' });
    expect(primary.requests[0]?.body).toMatchObject({ tools, tool_choice: 'auto' });
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    });
  });

  it('speaks the Anthropic Messages API: system extraction, tool results, usage', async () => {
    claude.enqueue({ content: 'Bonjour', usage: { input: 21, output: 3 } });
    const completion = await client.chat.completions.create({
      model: 'fake-claude',
      max_tokens: 64,
      messages: [
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
      ],
    });
    expect(completion).toMatchObject({ model: 'fake-claude', choices: [{ message: { content: 'Bonjour' }, finish_reason: 'stop' }], usage: { prompt_tokens: 21, completion_tokens: 3 } });
    const upstream = claude.requests[0]!;
    expect(upstream.path).toBe('/v1/messages');
    expect(upstream.headers['x-api-key']).toBe('sk-ant-fake');
    expect(upstream.headers['anthropic-version']).toBe('2023-06-01');
    expect(upstream.body).toMatchObject({
      model: 'claude-fake-haiku',
      system: 'Answer in French.',
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
      ],
    });
  });

  it('sends a PDF file part on: as a document to Anthropic, as it is to an OpenAI upstream; refuses a file id naming the field', async () => {
    const pdf = Buffer.from('%PDF-1.4 test').toString('base64');
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'user', content: [{ type: 'file', file: { file_data: `data:application/pdf;base64,${pdf}`, filename: 'q3.pdf' } }, { type: 'text', text: 'Summarise it.' }] },
    ];
    claude.enqueue({ content: 'Revenue grew' });
    primary.enqueue({ content: 'Revenue grew' });
    for (const model of ['fake-claude', 'fake-model']) {
      const completion = await client.chat.completions.create({ model, messages });
      expect(completion.choices[0]?.message.content).toBe('Revenue grew');
    }
    expect(claude.requests[0]!.body.messages).toEqual([
      { role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf }, title: 'q3.pdf' }, { type: 'text', text: 'Summarise it.' }] },
    ]);
    expect(primary.requests[0]!.body.messages).toEqual(messages);

    const byId = await client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc' } }] }] }).catch((error: unknown) => error);
    expect(byId).toBeInstanceOf(OpenAI.BadRequestError);
    expect((byId as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('messages[0].content[0].file.file_data');
  });

  it('sends the images of a tool message on: inside the tool_result to Anthropic, in a user message after it to an OpenAI upstream', async () => {
    const image = { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } };
    const messages = [
      { role: 'user', content: 'What is on screen?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_s', type: 'function', function: { name: 'screenshot', arguments: '{}' } }] },
      // Chat completions' own clients type a tool message as text; the gateway takes images there too.
      { role: 'tool', tool_call_id: 'call_s', content: [{ type: 'text', text: 'captured' }, image] },
    ] as unknown as OpenAI.Chat.ChatCompletionMessageParam[];
    claude.enqueue({ content: 'A login page' });
    primary.enqueue({ content: 'A login page' });
    for (const model of ['fake-claude', 'fake-model']) {
      const completion = await client.chat.completions.create({ model, messages });
      expect(completion.choices[0]?.message.content).toBe('A login page');
    }
    expect(claude.requests[0]!.body.messages).toEqual([
      { role: 'user', content: 'What is on screen?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_s', name: 'screenshot', input: {} }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'call_s', content: [{ type: 'text', text: 'captured' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] }],
      },
    ]);
    expect((primary.requests[0]!.body.messages as unknown[]).slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_s', content: 'captured' },
      { role: 'user', content: [{ type: 'text', text: 'Images returned by tool call call_s:' }, image] },
    ]);
  });

  it('maps Anthropic tool_use answers to tool_calls', async () => {
    claude.enqueue({ content: '', toolCalls: [{ id: 'toolu_9', name: 'lookup', arguments: '{"q":"x"}' }] });
    const completion = await client.chat.completions.create({ model: 'fake-claude', messages: hello });
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { content: null, tool_calls: [{ id: 'toolu_9', function: { name: 'lookup', arguments: '{"q":"x"}' } }] },
    });
  });
});

describe('streaming', () => {
  it('streams through the openai client: role first, content deltas, finish reason, usage on request', async () => {
    primary.enqueue({ content: 'one two three' });
    const stream = await client.chat.completions.create({ model: 'fake-model', messages: hello, stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]).toMatchObject({ object: 'chat.completion.chunk', model: 'fake-model', choices: [{ index: 0, delta: { role: 'assistant' } }] });
    expect(chunks.filter((c) => c.choices[0]?.delta.role)).toHaveLength(1);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('one two three');
    expect(chunks.filter((c) => c.choices[0]?.finish_reason).map((c) => c.choices[0]?.finish_reason)).toEqual(['stop']);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } });
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(primary.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('sends SSE headers and ends with data: [DONE]', async () => {
    const res = await call(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello, stream: true } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(res.text).not.toContain('"usage"');
  });

  it('relays OpenAI tool_call deltas intact: ids, names, argument fragments, finish_reason tool_calls', async () => {
    primary.enqueue({
      content: '',
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}', fragments: ['{"ci', 'ty":"Pa', 'ris"}'] },
        { id: 'call_b', name: 'get_time', arguments: '{"tz":"Europe/Paris"}', fragments: ['{"tz":', '"Europe/Paris"}'] },
      ],
    });
    const tools = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
      { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } } } } },
    ];
    const res = await call(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello, tools, stream: true } });
    expect(res.status).toBe(200);

    const events = res.text.split('\n\n').filter((block) => block.startsWith('data: ')).map((block) => block.slice('data: '.length));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((data) => JSON.parse(data) as { choices: { delta: Record<string, unknown>; finish_reason: string | null }[] });
    expect(chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => (choice.delta.tool_calls as unknown[] | undefined) ?? []))).toEqual([
      { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"ci' } },
      { index: 0, function: { arguments: 'ty":"Pa' } },
      { index: 0, function: { arguments: 'ris"}' } },
      { index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '' } },
      { index: 1, function: { arguments: '{"tz":' } },
      { index: 1, function: { arguments: '"Europe/Paris"}' } },
    ]);
    expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter((reason) => reason !== null)).toEqual(['tool_calls']);
    expect(chunks.flatMap((chunk) => chunk.choices).filter((choice) => choice.delta.role)).toHaveLength(1);
    expect(primary.requests[0]?.body).toMatchObject({ stream: true, tools });
  });

  it('translates an Anthropic stream, tool calls included', async () => {
    claude.enqueue({ content: 'Let me check', toolCalls: [{ id: 'toolu_2', name: 'lookup', arguments: '{"q":"y"}' }] });
    const stream = await client.chat.completions.create({ model: 'premium', messages: hello, stream: true });
    let text = '';
    let args = '';
    let name = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      text += choice?.delta.content ?? '';
      for (const call of choice?.delta.tool_calls ?? []) {
        name += call.function?.name ?? '';
        args += call.function?.arguments ?? '';
      }
      finish = choice?.finish_reason ?? finish;
      expect(chunk.model).toBe('fake-claude');
    }
    expect({ text, name, args, finish }).toEqual({ text: 'Let me check', name: 'lookup', args: '{"q":"y"}', finish: 'tool_calls' });
    expect(claude.requests[0]?.body.stream).toBe(true);
  });
});
