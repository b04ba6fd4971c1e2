// Reasoning through the gateway, with the official clients unchanged: the Messages API's
// extended thinking (`thinking`, thinking blocks with their signatures, sent back in a tool loop)
// and OpenAI's reasoning effort (chat completions' `reasoning_effort`, the Responses API's
// `reasoning.effort`), each against an OpenAI-style and an Anthropic-style fake upstream.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GatewayRequestRecord } from '../../src/gateway/entities.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let primary: FakeUpstream;
let claude: FakeUpstream;
let anthropic: Anthropic;
let openai: OpenAI;

const THINKING = { thinking: 'The user wants the weather, so call the tool.', signature: 'EqQBCkYIBRgCKkD-signature' };
const weatherTool = { name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } };

beforeAll(async () => {
  [primary, claude] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  const config = fakeGatewayConfig({ primary, anthropic: claude }) as { models: { id: string; maxOutputTokens?: number }[] };
  // Room for a thinking budget (the fixture's models stop at 1,000 output tokens).
  for (const model of config.models) if (model.maxOutputTokens !== undefined) model.maxOutputTokens = 32_000;
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(config) } });
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

describe('extended thinking on /v1/messages', () => {
  it('asks an Anthropic upstream to think with the budget given and answers with the signed thinking first; metered', async () => {
    claude.enqueue({ content: 'Sunny in Oslo.', thinking: [THINKING, { redacted: 'ENCRYPTED' }], usage: { input: 20, output: 300 } });
    const { data: message, response } = await anthropic.messages
      .create({ model: 'fake-claude', max_tokens: 8000, thinking: { type: 'enabled', budget_tokens: 3000 }, messages: [{ role: 'user', content: 'Weather in Oslo?' }] })
      .withResponse();
    expect(message.content).toEqual([
      { type: 'thinking', ...THINKING },
      { type: 'redacted_thinking', data: 'ENCRYPTED' },
      { type: 'text', text: 'Sunny in Oslo.' },
    ]);
    expect(message.usage).toMatchObject({ input_tokens: 20, output_tokens: 300 });
    const sent = claude.requests[0]!.body;
    expect(sent).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 3000 }, max_tokens: 8000 });
    // Thinking takes no temperature: the gateway sends none (not its default) rather than have the upstream refuse it.
    expect(sent).not.toHaveProperty('temperature');
    const audit = await waitFor(
      async () => stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, requestId: response.headers.get('x-request-id')! }),
      { what: 'audit record' },
    );
    expect(audit).toMatchObject({ outcome: 'success', inputTokens: 20, outputTokens: 300 });
  });

  it('streams the thinking (messages.stream) and takes it back unchanged in the tool loop, so the upstream can check its signature', async () => {
    claude.enqueue({ content: '', thinking: [THINKING], toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] });
    const params = { model: 'fake-claude', max_tokens: 8000, thinking: { type: 'enabled' as const, budget_tokens: 2048 }, tools: [weatherTool] };
    const question = { role: 'user' as const, content: 'Weather in Oslo?' };
    const first = await anthropic.messages.stream({ ...params, messages: [question] }).finalMessage();
    expect(first.content).toEqual([{ type: 'thinking', ...THINKING }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }]);
    expect(first.stop_reason).toBe('tool_use');

    claude.enqueue({ content: 'Sunny.' });
    const second = await anthropic.messages.create({
      ...params,
      messages: [question, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny, 21 C' }] }],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'Sunny.' }]);
    const sent = claude.requests[1]!.body as { thinking: unknown; messages: { role: string; content: unknown }[] };
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'thinking', ...THINKING }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }] });
  });

  it('answers without thinking on an OpenAI-style upstream, and sends it neither the budget nor earlier thinking', async () => {
    const message = await anthropic.messages.create({
      model: 'fake-model',
      max_tokens: 8000,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: [{ type: 'thinking', ...THINKING }, { type: 'text', text: 'a' }] }, { role: 'user', content: 'more' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'text' });
    const sent = primary.requests[0]!.body;
    expect(sent).not.toHaveProperty('reasoning_effort');
    expect(sent).not.toHaveProperty('thinking');
    expect(sent.messages).toEqual([{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }, { role: 'user', content: 'more' }]);
  });

  it('keeps thinking a DLP mask finding touches from the upstream whole (its signature covers it), and then asks for none', async () => {
    const masked = await createTestOrganization(stack.runtime.orm);
    const put = await call(stack.baseUrl, 'PUT', '/dlp/policy', { key: masked.owner.key, body: { detectors: { email: 'mask' } } });
    expect(put.status, put.text).toBe(200);
    const client = new Anthropic({ apiKey: masked.member.key, baseURL: stack.api.url, maxRetries: 0 });
    await client.messages.create({
      model: 'fake-claude',
      max_tokens: 8000,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Weather for ann@example.com?' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Ann is ann@example.com; look up her city.', signature: 'sig' }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
      ],
    });
    const sent = claude.requests[0]!.body as { messages: { content: unknown }[] };
    expect(JSON.stringify(sent)).not.toContain('ann@example.com');
    expect(sent.messages[1]!.content).toEqual([{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }]);
    expect(sent).not.toHaveProperty('thinking');
  });
});

describe('reasoning effort on the OpenAI routes', () => {
  it('chat completions: sends reasoning_effort to an OpenAI-style upstream as it is', async () => {
    await openai.chat.completions.create({ model: 'fake-model', reasoning_effort: 'low', messages: [{ role: 'user', content: 'q' }] });
    expect(primary.requests[0]!.body).toMatchObject({ reasoning_effort: 'low' });
  });

  it('reports the reasoning tokens an OpenAI-style upstream counts: chat completions completion_tokens_details, Responses output_tokens_details, plain and streamed', async () => {
    const usage = { input: 12, output: 90, reasoning: 64 };
    primary.enqueue({ content: 'Paris.', usage });
    const completion = await openai.chat.completions.create({ model: 'fake-model', reasoning_effort: 'high', messages: [{ role: 'user', content: 'q' }] });
    expect(completion.usage).toMatchObject({ completion_tokens: 90, completion_tokens_details: { reasoning_tokens: 64 } });

    primary.enqueue({ content: 'Paris.', usage });
    const stream = await openai.chat.completions.create({ model: 'fake-model', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'q' }] });
    let streamedUsage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) streamedUsage = chunk.usage ?? streamedUsage;
    expect(streamedUsage).toMatchObject({ completion_tokens_details: { reasoning_tokens: 64 } });

    primary.enqueue({ content: 'Paris.', usage });
    const response = await openai.responses.create({ model: 'fake-model', input: 'q', store: false });
    expect(response.usage).toMatchObject({ output_tokens: 90, output_tokens_details: { reasoning_tokens: 64 } });
    primary.enqueue({ content: 'Paris.', usage });
    const streamed = await openai.responses.stream({ model: 'fake-model', input: 'q', store: false }).finalResponse();
    expect(streamed.usage).toMatchObject({ output_tokens_details: { reasoning_tokens: 64 } });
  });

  it('chat completions: thinks on an Anthropic-style upstream and shows the thinking as reasoning_content, plain and streamed', async () => {
    claude.enqueue({ content: 'Sunny.', thinking: [THINKING] });
    const completion = await openai.chat.completions.create({ model: 'fake-claude', reasoning_effort: 'medium', max_completion_tokens: 20_000, messages: [{ role: 'user', content: 'q' }] });
    expect(completion.choices[0]!.message).toMatchObject({ content: 'Sunny.', reasoning_content: THINKING.thinking });
    expect(claude.requests[0]!.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 8192 } });

    claude.enqueue({ content: 'Sunny.', thinking: [THINKING] });
    const stream = await openai.chat.completions.create({ model: 'fake-claude', reasoning_effort: 'medium', max_completion_tokens: 20_000, stream: true, messages: [{ role: 'user', content: 'q' }] });
    let reasoning = '';
    let content = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
      reasoning += delta?.reasoning_content ?? '';
      content += delta?.content ?? '';
    }
    expect(reasoning).toBe(THINKING.thinking);
    expect(content).toBe('Sunny.');
  });

  it('chat completions: shows the reasoning an OpenAI-compatible server returns (reasoning_content), plain and streamed; Messages as an unsigned thinking block', async () => {
    primary.enqueue({ content: 'Paris.', thinking: [{ thinking: 'The capital of France is Paris.', signature: '' }] });
    const completion = await openai.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'Capital of France?' }] });
    expect(completion.choices[0]!.message).toMatchObject({ content: 'Paris.', reasoning_content: 'The capital of France is Paris.' });

    primary.enqueue({ content: 'Paris.', thinking: [{ thinking: 'The capital of France is Paris.', signature: '' }] });
    const stream = await openai.chat.completions.create({ model: 'fake-model', stream: true, messages: [{ role: 'user', content: 'Capital of France?' }] });
    let reasoning = '';
    for await (const chunk of stream) reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '';
    expect(reasoning).toBe('The capital of France is Paris.');

    primary.enqueue({ content: 'Paris.', thinking: [{ thinking: 'The capital of France is Paris.', signature: '' }] });
    const message = await anthropic.messages.create({ model: 'fake-model', max_tokens: 100, messages: [{ role: 'user', content: 'Capital of France?' }] });
    expect(message.content).toEqual([{ type: 'thinking', thinking: 'The capital of France is Paris.', signature: '' }, { type: 'text', text: 'Paris.' }]);
  });

  it('responses: shows an Anthropic upstream\'s thinking as a reasoning item, and takes it back sealed in a stateless tool loop so the upstream thinks on', async () => {
    claude.enqueue({ content: '', thinking: [THINKING], toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] });
    const tools = [{ type: 'function' as const, name: 'get_weather', description: 'Weather of a city', parameters: weatherTool.input_schema, strict: false }];
    const question = { role: 'user' as const, content: 'Weather in Oslo?' };
    const params = { model: 'fake-claude', reasoning: { effort: 'low' as const }, max_output_tokens: 20_000, tools, store: false };
    const first = await openai.responses.create({ ...params, input: [question] });
    expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    expect(first.output[0]).toMatchObject({ type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: THINKING.thinking }], encrypted_content: expect.any(String) });
    expect(claude.requests[0]!.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 } });

    // The client sends the answer's items back as they came, with the tool's output.
    claude.enqueue({ content: 'Sunny.' });
    const call = first.output[1] as OpenAI.Responses.ResponseFunctionToolCall;
    const second = await openai.responses.create({ ...params, input: [question, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: 'sunny, 21 C' }] });
    expect(second.output_text).toBe('Sunny.');
    const sent = claude.requests[1]!.body as { thinking: unknown; messages: { role: string; content: unknown }[] };
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'thinking', ...THINKING }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }] });
  });

  it('responses: streams the reasoning item (responses.stream) and keeps it with a stored response, so previous_response_id thinks on too', async () => {
    claude.enqueue({ content: '', thinking: [THINKING], toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] });
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: weatherTool.input_schema, strict: false }];
    const params = { model: 'fake-claude', reasoning: { effort: 'low' as const }, max_output_tokens: 20_000, tools };
    const stream = openai.responses.stream({ ...params, input: 'Weather in Oslo?' });
    let streamed = '';
    stream.on('response.reasoning_text.delta', (event) => {
      streamed += event.delta;
    });
    const first = await stream.finalResponse();
    expect(streamed).toBe(THINKING.thinking);
    expect(first.output[0]).toMatchObject({ type: 'reasoning', status: 'completed', content: [{ type: 'reasoning_text', text: THINKING.thinking }], encrypted_content: expect.any(String) });
    // As stored: retrieve answers the same reasoning item (the SDK adds parsed_arguments to the streamed function call).
    expect((await openai.responses.retrieve(first.id)).output[0]).toEqual(first.output[0]);

    claude.enqueue({ content: 'Sunny.' });
    const call = first.output[1] as OpenAI.Responses.ResponseFunctionToolCall;
    const second = await openai.responses.create({ ...params, previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'sunny' }] });
    const sent = claude.requests[1]!.body as { thinking: unknown; messages: { role: string; content: unknown }[] };
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'thinking', ...THINKING }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }] });
    // The conversation lists the reasoning item under its id, and an item_reference to it resolves.
    const listed = await openai.responses.inputItems.list(second.id, { order: 'asc' });
    expect(listed.data.find((item) => item.type === 'reasoning')).toMatchObject({ id: first.output[0]!.id, content: [{ type: 'reasoning_text', text: THINKING.thinking }] });
    claude.enqueue({ content: 'Sunny.' });
    await openai.responses.create({
      ...params,
      input: [{ role: 'user', content: 'Weather in Oslo?' }, { type: 'item_reference', id: first.output[0]!.id! }, { type: 'item_reference', id: call.id! }, { type: 'function_call_output', call_id: call.call_id, output: 'sunny' }],
    });
    expect((claude.requests[2]!.body as { messages: unknown[] }).messages[1]).toEqual(sent.messages[1]);
  });

  it('responses: with reasoning.summary, streams the thinking as the reasoning item\'s summary (what Codex shows), and still takes it back sealed', async () => {
    claude.enqueue({ content: '', thinking: [THINKING], toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] });
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: weatherTool.input_schema, strict: false }];
    const params = { model: 'fake-claude', reasoning: { effort: 'low' as const, summary: 'auto' as const }, max_output_tokens: 20_000, tools, store: false };
    const stream = openai.responses.stream({ ...params, input: 'Weather in Oslo?' });
    let summarized = '';
    stream.on('response.reasoning_summary_text.delta', (event) => {
      summarized += event.delta;
    });
    const first = await stream.finalResponse();
    expect(summarized).toBe(THINKING.thinking);
    expect(first.output[0]).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: THINKING.thinking }], content: [] });

    claude.enqueue({ content: 'Sunny.' });
    const call = first.output[1] as OpenAI.Responses.ResponseFunctionToolCall;
    await openai.responses.create({ ...params, input: [{ role: 'user', content: 'Weather in Oslo?' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: 'sunny' }] });
    expect((claude.requests[1]!.body as { messages: { content: unknown }[] }).messages[1]!.content).toEqual([{ type: 'thinking', ...THINKING }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }]);
  });

  it('responses: takes back reasoning items OpenAI made (its own encrypted_content) without sending them anywhere', async () => {
    const response = await openai.responses.create({
      model: 'fake-claude',
      store: false,
      input: [
        { role: 'user', content: 'q' },
        { type: 'reasoning', id: 'rs_openai', summary: [{ type: 'summary_text', text: 'Thought about it.' }], encrypted_content: 'gAAAAABo-opaque' },
        { type: 'message', id: 'msg_openai', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'a', annotations: [] }] },
        { role: 'user', content: 'more' },
      ],
    });
    expect(response.status).toBe('completed');
    const sent = JSON.stringify(claude.requests[0]!.body);
    expect(sent).not.toContain('gAAAAABo-opaque');
    expect(sent).not.toContain('Thought about it.');
  });

  it('responses: sends reasoning.effort on as reasoning_effort and echoes it in the response object; an unknown effort is a 400 naming the field', async () => {
    const response = await openai.responses.create({ model: 'fake-model', input: 'q', reasoning: { effort: 'high', summary: 'auto' }, store: false });
    expect(response.reasoning).toEqual({ effort: 'high', summary: 'auto' });
    expect(primary.requests[0]!.body).toMatchObject({ reasoning_effort: 'high' });
    const bad = await call<any>(stack.baseUrl, 'POST', '/responses', { key: org.member.key, body: { model: 'fake-model', input: 'q', reasoning: { effort: 'max' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ param: 'reasoning.effort' });
  });
});
