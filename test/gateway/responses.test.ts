// POST /v1/responses (the OpenAI Responses API) through the unchanged `openai` SDK and the AI
// SDK's default OpenAI provider, over the same gateway core as chat completions, against
// OpenAI-style and Anthropic-style fake upstreams; stored responses (encrypted at rest) that
// previous_response_id and item_reference resolve; GET and DELETE of a stored response.
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, generateText, stepCountIs, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UsageRecord } from '../../src/billing/entities.js';
import { GatewayRequestRecord } from '../../src/gateway/entities.js';
import { StoredResponse, StoredResponseItem } from '../../src/gateway/responses.entities.js';
import { ResponsesStore } from '../../src/gateway/responses.service.js';
import type { ChatCompletionResult } from '../../src/gateway/types.js';
import { toResponseObject } from '../../src/gateway/wire/responses.js';
import { parseResponsesBody } from '../../src/gateway/wire/responses.schemas.js';
import { FAKE_DEFAULT_CONTENT, fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let primary: FakeUpstream;
let claude: FakeUpstream;
let client: OpenAI;

beforeAll(async () => {
  [primary, claude] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary, anthropic: claude })) } });
  org = await createTestOrganization(stack.runtime.orm);
  client = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
});
afterEach(() => {
  primary.reset();
  claude.reset();
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([primary?.close(), claude?.close()]);
});

/** The organization's member as the store sees a caller. */
const memberOf = (organization: TestOrganization) => ({ organizationId: organization.id, userId: organization.member.id, role: organization.member.role });
const priced = (input: number, output: number) => (input * 2 + output * 8) / 1e6;
const weatherTool = { type: 'function' as const, name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: false };

/** The messages an upstream got, in chat form whichever API it speaks. */
function upstreamMessages(request: { api: string; body: Record<string, unknown> }): unknown[] {
  return request.body.messages as unknown[];
}

const upstreams = [
  { kind: 'OpenAI-style', model: 'fake-model', upstream: () => primary, api: 'openai' },
  { kind: 'Anthropic-style', model: 'fake-claude', upstream: () => claude, api: 'anthropic' },
] as const;

describe.each(upstreams)('responses through the openai SDK against an $kind upstream', ({ model, upstream, api }) => {
  it('answers responses.create with output_text, usage, cost and overhead headers; metered, audited, stored', async () => {
    upstream().enqueue({ usage: { input: 40, output: 6 } });
    const { data: response, response: raw } = await client.responses
      .create({ model, instructions: 'Be terse.', input: 'Say hello', max_output_tokens: 300, metadata: { ticket: 'T-1' } })
      .withResponse();
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model,
      instructions: 'Be terse.',
      metadata: { ticket: 'T-1' },
      output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: FAKE_DEFAULT_CONTENT }] }],
      usage: { input_tokens: 40, output_tokens: 6, total_tokens: 46 },
    });
    expect(response.id).toMatch(/^resp_/);
    expect(response.output_text).toBe(FAKE_DEFAULT_CONTENT);
    expect(Number(raw.headers.get('x-gateway-cost'))).toBeCloseTo(priced(40, 6), 10);
    expect(Number(raw.headers.get('x-gateway-overhead-ms'))).toBeGreaterThanOrEqual(0);
    const sent = upstream().requests[0]!;
    expect(sent.api).toBe(api);
    if (api === 'anthropic') expect(sent.body).toMatchObject({ system: 'Be terse.', messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 300 });
    else expect(sent.body).toMatchObject({ messages: [{ role: 'system', content: 'Be terse.' }, { role: 'user', content: 'Say hello' }], max_tokens: 300 });
    const requestId = raw.headers.get('x-request-id')!;
    const audit = await waitFor(async () => stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, requestId }), { what: 'audit record' });
    expect(audit).toMatchObject({ outcome: 'success', model, inputTokens: 40, outputTokens: 6 });
    const usage = await waitFor(async () => stack.runtime.orm.em.fork().findOne(UsageRecord, { organizationId: org.id, requestId }), { what: 'usage record' });
    expect(Number(usage.cost)).toBeCloseTo(priced(40, 6), 10);
    expect(await client.responses.retrieve(response.id)).toMatchObject({ id: response.id, output_text: FAKE_DEFAULT_CONTENT });
  });

  it('streams the event sequence the SDK parses, ending in response.completed with usage', async () => {
    upstream().enqueue({ content: 'one two three', usage: { input: 9, output: 3 } });
    const stream = await client.responses.create({ model, input: 'Count', stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...Array<string>(3).fill('response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response).toMatchObject({ status: 'completed', output_text: 'one two three', usage: { input_tokens: 9, output_tokens: 3 } });
    expect((completed.response.usage as unknown as { cost: number }).cost).toBeCloseTo(priced(9, 3), 10);
  });

  it('round-trips a function tool: function_call out (streamed arguments), function_call_output back with previous_response_id', async () => {
    upstream().enqueue({ content: '', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', fragments: ['{"city":', '"Paris"}'] }] });
    const final = await client.responses.stream({ model, input: 'Weather in Paris?', tools: [weatherTool] }).finalResponse();
    const callItem = final.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    expect(callItem).toMatchObject({ type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' });

    upstream().enqueue({ content: 'Sunny in Paris' });
    const second = await client.responses.create({
      model,
      previous_response_id: final.id,
      tools: [weatherTool],
      input: [{ type: 'function_call_output', call_id: 'call_1', output: '22 degrees, sunny' }],
    });
    expect(second.output_text).toBe('Sunny in Paris');
    const sent = upstream().requests[1]!;
    if (api === 'anthropic') {
      expect(upstreamMessages(sent)).toEqual([
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '22 degrees, sunny' }] },
      ]);
    } else {
      expect(upstreamMessages(sent)).toEqual([
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '22 degrees, sunny' },
      ]);
    }
  });

  it('passes input_file PDFs on, from a user message and from a function_call_output (a document to Anthropic, a file part to chat completions)', async () => {
    const pdf = `data:application/pdf;base64,${Buffer.from('%PDF-1.4 test').toString('base64')}`;
    upstream().enqueue({ content: 'Two reports' });
    const answer = await client.responses.create({
      model,
      store: false,
      tools: [weatherTool],
      input: [
        { role: 'user', content: [{ type: 'input_file', file_data: pdf, filename: 'q3.pdf' }, { type: 'input_text', text: 'Compare with the one you read.' }] },
        { type: 'function_call', call_id: 'call_f', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_f', output: [{ type: 'input_file', file_data: pdf, filename: 'q2.pdf' }] },
      ],
    });
    expect(answer.output_text).toBe('Two reports');
    const sent = upstreamMessages(upstream().requests[0]!);
    const data = pdf.slice('data:application/pdf;base64,'.length);
    if (api === 'anthropic') {
      expect(sent[0]).toEqual({ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data }, title: 'q3.pdf' }, { type: 'text', text: 'Compare with the one you read.' }] });
      expect(sent[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_f', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data }, title: 'q2.pdf' }] }] });
    } else {
      expect(sent[0]).toEqual({ role: 'user', content: [{ type: 'file', file: { file_data: pdf, filename: 'q3.pdf' } }, { type: 'text', text: 'Compare with the one you read.' }] });
      expect(sent.slice(2)).toEqual([
        { role: 'tool', tool_call_id: 'call_f', content: '(files, in the next message)' },
        { role: 'user', content: [{ type: 'text', text: 'Files returned by tool call call_f:' }, { type: 'file', file: { file_data: pdf, filename: 'q2.pdf' } }] },
      ]);
    }
  });

  it('passes the images of a function_call_output on (in the tool_result to Anthropic, after the tool message to chat completions)', async () => {
    const image = 'data:image/png;base64,iVBORw0KGgo=';
    upstream().enqueue({ content: 'A login page' });
    const answer = await client.responses.create({
      model,
      store: false,
      tools: [weatherTool],
      input: [
        { role: 'user', content: 'What is on screen?' },
        { type: 'function_call', call_id: 'call_s', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_s', output: [{ type: 'input_text', text: 'captured' }, { type: 'input_image', image_url: image, detail: 'auto' }] },
      ],
    });
    expect(answer.output_text).toBe('A login page');
    const sent = upstreamMessages(upstream().requests[0]!);
    if (api === 'anthropic') {
      expect(sent[2]).toEqual({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'call_s', content: [{ type: 'text', text: 'captured' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] }],
      });
    } else {
      expect(sent.slice(2)).toEqual([
        { role: 'tool', tool_call_id: 'call_s', content: 'captured' },
        { role: 'user', content: [{ type: 'text', text: 'Images returned by tool call call_s:' }, { type: 'image_url', image_url: { url: image, detail: 'auto' } }] },
      ]);
    }
  });

  it('meters and audits a stream and a tool round trip on this upstream, and blocks a card number in a function_call_output before it', async () => {
    upstream().enqueue({ content: 'streamed', usage: { input: 4101, output: 3 } });
    const stream = await client.responses.create({ model, input: 'Count', stream: true });
    for await (const _event of stream);
    upstream().enqueue({ content: '', toolCalls: [{ id: 'call_m', name: 'get_weather', arguments: '{"city":"Rome"}' }], usage: { input: 4102, output: 4 } });
    const first = await client.responses.create({ model, input: 'Weather in Rome?', tools: [weatherTool] });
    upstream().enqueue({ content: 'Warm', usage: { input: 4103, output: 1 } });
    await client.responses.create({ model, previous_response_id: first.id, tools: [weatherTool], input: [{ type: 'function_call_output', call_id: 'call_m', output: '30 degrees' }] });
    for (const [inputTokens, streamed] of [[4101, true], [4102, false], [4103, false]] as const) {
      const audit = await waitFor(async () => stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, model, inputTokens }), { what: `audit record of ${inputTokens}` });
      expect(audit).toMatchObject({ outcome: 'success', stream: streamed });
      const usage = await waitFor(async () => stack.runtime.orm.em.fork().findOne(UsageRecord, { organizationId: org.id, requestId: audit.requestId! }), { what: 'usage record' });
      expect(Number(usage.cost)).toBeCloseTo(priced(inputTokens, audit.outputTokens), 10);
    }

    const sentBefore = upstream().requests.length;
    const blocked = await client.responses
      .create({ model, previous_response_id: first.id, tools: [weatherTool], input: [{ type: 'function_call_output', call_id: 'call_m', output: 'card 4111 1111 1111 1111' }] })
      .catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((blocked as InstanceType<typeof OpenAI.APIError>).code).toBe('dlp_blocked');
    expect(upstream().requests).toHaveLength(sentBefore);
  });

  it('raises an APIError from the stream when the upstream fails after the first byte (response.failed, then error)', async () => {
    upstream().enqueue({ content: 'one two three four', cutAfterChunks: 2 });
    const stream = await client.responses.create({ model, input: 'Count', stream: true });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) seen.push(event.type);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('provider_error');
    expect(seen).toContain('response.output_text.delta');
    expect(seen.at(-1)).toBe('response.failed');
  });
});

describe('responses: options, storage and errors', () => {
  it('sends text.format json_schema as response_format, tool_choice and parallel_tool_calls upstream', async () => {
    primary.enqueue({ content: '{"answer":42}' });
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'], additionalProperties: false };
    const response = await client.responses.create({
      model: 'fake-model',
      input: [{ role: 'developer', content: 'JSON only' }, { role: 'user', content: [{ type: 'input_text', text: 'The answer?' }] }],
      text: { format: { type: 'json_schema', name: 'answer', schema, strict: true } },
      tools: [weatherTool],
      tool_choice: 'none',
      parallel_tool_calls: false,
      temperature: 0.2,
    });
    expect(response.output_text).toBe('{"answer":42}');
    expect(response.text?.format).toMatchObject({ type: 'json_schema', name: 'answer' });
    expect(primary.requests[0]!.body).toMatchObject({
      messages: [{ role: 'system', content: 'JSON only' }, { role: 'user', content: 'The answer?' }],
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } },
      tool_choice: 'none',
      parallel_tool_calls: false,
      temperature: 0.2,
    });
  });

  it('sends text.format json_schema to an Anthropic-style upstream as a forced tool, and its call back as output_text, plain and streamed', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'], additionalProperties: false };
    const answerCall = { content: '', toolCalls: [{ id: 'toolu_1', name: 'answer', arguments: '{"answer":42}', fragments: ['{"answer"', ':42}'] }] };
    claude.enqueue(answerCall, answerCall);
    const format = { type: 'json_schema' as const, name: 'answer', schema, strict: true };
    const response = await client.responses.create({ model: 'fake-claude', input: 'The answer?', text: { format } });
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe('{"answer":42}');
    expect(response.output).toEqual([expect.objectContaining({ type: 'message', content: [expect.objectContaining({ type: 'output_text', text: '{"answer":42}' })] })]);
    const sent = claude.requests[0]!.body;
    expect(sent).toMatchObject({ tools: [{ name: 'answer', input_schema: schema }], tool_choice: { type: 'tool', name: 'answer' } });
    expect(sent).not.toHaveProperty('response_format');

    const deltas: string[] = [];
    const stream = client.responses.stream({ model: 'fake-claude', input: 'The answer?', text: { format } });
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(deltas).toEqual(['{"answer"', ':42}']);
    expect(final.output_text).toBe('{"answer":42}');
    expect(final.output.map((item) => item.type)).toEqual(['message']);
  });

  it("sends chat completions' response_format json_schema as is to an OpenAI-style upstream and as a forced tool beside the caller's tools to an Anthropic-style one", async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const responseFormat = { type: 'json_schema' as const, json_schema: { name: 'place', schema, strict: true } };
    const openai = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
    primary.enqueue({ content: '{"city":"Oslo"}' });
    const plain = await openai.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'Where?' }], response_format: responseFormat });
    expect(plain.choices[0]!.message.content).toBe('{"city":"Oslo"}');
    expect(primary.requests[0]!.body).toMatchObject({ response_format: responseFormat });

    claude.enqueue({ content: '', toolCalls: [{ id: 'toolu_2', name: 'place', arguments: '{"city":"Oslo"}' }] });
    const completion = await openai.chat.completions.create({ model: 'fake-claude', messages: [{ role: 'user', content: 'Where?' }], response_format: responseFormat });
    expect(completion.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: '{"city":"Oslo"}' } });
    expect(completion.choices[0]!.message.tool_calls).toBeUndefined();

    // With tools of its own, the caller's tool call stays a tool call; the format tool is offered beside it, not forced.
    claude.enqueue({ content: '', toolCalls: [{ id: 'toolu_3', name: 'get_weather', arguments: '{"city":"Oslo"}' }] });
    const stream = await openai.chat.completions.create({
      model: 'fake-claude',
      messages: [{ role: 'user', content: 'Weather?' }],
      response_format: responseFormat,
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
      stream: true,
    });
    const finishes: Array<string | null> = [];
    const calls: string[] = [];
    for await (const chunk of stream) {
      finishes.push(chunk.choices[0]?.finish_reason ?? null);
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) if (call.function?.name) calls.push(call.function.name);
    }
    expect(calls).toEqual(['get_weather']);
    expect(finishes).toContain('tool_calls');
    const sent = claude.requests[1]!.body as { tools: Array<{ name: string }>; tool_choice?: unknown };
    expect(sent.tools.map((tool) => tool.name)).toEqual(['get_weather', 'place']);
    expect(sent.tool_choice).not.toEqual({ type: 'tool', name: 'place' });

    const bad = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: [{ role: 'user', content: 'x' }], response_format: { type: 'xml' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('response_format.type');
  });

  it('reports a cut-off answer as incomplete with reason max_output_tokens', async () => {
    primary.enqueue({ finishReason: 'length' });
    const response = await client.responses.create({ model: 'fake-model', input: 'Talk', max_output_tokens: 16 });
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });

  it('keeps nothing with store: false', async () => {
    const response = await client.responses.create({ model: 'fake-model', input: 'forget me', store: false });
    expect(await stack.runtime.orm.em.fork().count(StoredResponse, { id: response.id })).toBe(0);
    const error = await client.responses.retrieve(response.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    const next = await call<any>(stack.baseUrl, 'POST', '/responses', { key: org.member.key, body: { model: 'fake-model', previous_response_id: response.id, input: 'again' } });
    expect(next.status).toBe(400);
    expect(next.body.error).toMatchObject({ code: 'bad_request', param: 'previous_response_id' });
  });

  it('stores input and output encrypted at rest; another organization cannot read or delete it; DELETE removes it', async () => {
    primary.enqueue({ content: 'the secret answer is marmalade' });
    const response = await client.responses.create({ model: 'fake-model', input: 'a question about zanzibar' });
    const [row] = await stack.runtime.orm.em.fork().getConnection().execute<{ payload_ciphertext: string }[]>('select payload_ciphertext from gateway_responses where id = ?', [response.id]);
    expect(row!.payload_ciphertext).toMatch(/^v1:/);
    expect(row!.payload_ciphertext).not.toContain('marmalade');
    expect(row!.payload_ciphertext).not.toContain('zanzibar');

    const other = await createTestOrganization(stack.runtime.orm);
    expect((await call(stack.baseUrl, 'GET', `/responses/${response.id}`, { key: other.member.key })).status).toBe(404);
    expect((await call(stack.baseUrl, 'DELETE', `/responses/${response.id}`, { key: other.member.key })).status).toBe(404);
    const reuse = await call<any>(stack.baseUrl, 'POST', '/responses', { key: other.member.key, body: { model: 'fake-model', previous_response_id: response.id, input: 'x' } });
    expect(reuse.status).toBe(400);

    const deleted = await client.responses.delete(response.id).then(() => true);
    expect(deleted).toBe(true);
    expect(await client.responses.retrieve(response.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("lists a stored response's input items through responses.inputItems.list: the whole conversation, newest first, paged by after", async () => {
    primary.enqueue({ content: 'First answer' });
    const first = await client.responses.create({ model: 'fake-model', input: 'Question one' });
    primary.enqueue({ content: 'Second answer' });
    const second = await client.responses.create({
      model: 'fake-model',
      previous_response_id: first.id,
      input: [
        { type: 'function_call', call_id: 'call_9', name: 'lookup', arguments: '{"q":"two"}' },
        { type: 'function_call_output', call_id: 'call_9', output: 'found two' },
        { role: 'user', content: [{ type: 'input_text', text: 'Question two' }] },
      ],
    });

    const page = await client.responses.inputItems.list(second.id, { limit: 2 });
    expect(page.data.map((item) => item.type)).toEqual(['message', 'function_call_output']);
    expect(page.data[0]).toMatchObject({ type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: 'Question two' }] });
    expect(page.data[1]).toMatchObject({ type: 'function_call_output', call_id: 'call_9', output: 'found two' });
    expect(page.has_more).toBe(true);

    const all: OpenAI.Responses.ResponseItem[] = [];
    for await (const item of client.responses.inputItems.list(second.id, { limit: 2 })) all.push(item);
    expect(all).toHaveLength(5);
    expect(new Set(all.map((item) => item.id)).size).toBe(5);
    expect(all.map((item) => item.id).every((id) => typeof id === 'string' && id.length > 4)).toBe(true);
    // The previous response's output item keeps its id: the one item_reference would name.
    expect(all[3]).toMatchObject({ type: 'message', role: 'assistant', id: first.output[0]!.id, content: [{ type: 'output_text', text: 'First answer' }] });
    expect(all[2]).toMatchObject({ type: 'function_call', call_id: 'call_9', name: 'lookup', arguments: '{"q":"two"}' });

    const ascending = await client.responses.inputItems.list(second.id, { order: 'asc', limit: 100 });
    expect(ascending.data.map((item) => item.id)).toEqual(all.map((item) => item.id).reverse());
    expect(ascending.data[0]).toMatchObject({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Question one' }] });
    expect(ascending.has_more).toBe(false);
    // Ids are stored: the same on every read.
    expect((await client.responses.inputItems.list(second.id, { order: 'asc' })).data.map((item) => item.id)).toEqual(ascending.data.map((item) => item.id));

    const other = await createTestOrganization(stack.runtime.orm);
    const foreign = await call<any>(stack.baseUrl, 'GET', `/responses/${second.id}/input_items`, { key: other.member.key });
    expect(foreign.status).toBe(404);
    for (const [query, param] of [['limit=0', 'limit'], ['limit=101', 'limit'], ['order=sideways', 'order'], ['after=msg_nope', 'after']] as const) {
      const bad = await call<any>(stack.baseUrl, 'GET', `/responses/${second.id}/input_items?${query}`, { key: org.member.key });
      expect(bad.status, query).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'bad_request', param });
    }
    const unstored = await client.responses.create({ model: 'fake-model', input: 'not kept', store: false });
    expect(await client.responses.inputItems.list(unstored.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('forgets a response after RESPONSES_RETENTION_DAYS: absent to reads and references, then purged', async () => {
    const response = await client.responses.create({ model: 'fake-model', input: 'short-lived' });
    const later = new Date(Date.now() + 31 * 86_400_000);
    const store = new ResponsesStore({ orm: stack.runtime.orm, secrets: stack.runtime.secrets, clock: { now: () => later }, retentionDays: 30, limits: stack.config });
    await expect(store.get(memberOf(org), response.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(store.begin(memberOf(org), parseResponsesBody({ model: 'fake-model', previous_response_id: response.id, input: 'x' }))).rejects.toMatchObject({ param: 'previous_response_id' });
    expect(await store.purgeExpired(org.id)).toBeGreaterThanOrEqual(1);
    expect(await stack.runtime.orm.em.fork().count(StoredResponse, { id: response.id })).toBe(0);
  });

  it('stores saves that share one statement each in its own row, with its own times', async () => {
    const answer: ChatCompletionResult = { id: 'x', model: 'fake-model', provider: 'primary', upstreamModel: 'fake-model', content: '', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 2, estimated: false }, cost: 0, attempts: 1, upstreamMs: 1 };
    const now = new Date('2026-11-28T03:04:05.678Z');
    const store = new ResponsesStore({ orm: stack.runtime.orm, secrets: stack.runtime.secrets, clock: { now: () => now }, retentionDays: 7, limits: stack.config });
    const body = parseResponsesBody({ model: 'fake-model', input: 'batched' });
    const turns = await Promise.all(Array.from({ length: 12 }, () => store.begin(memberOf(org), body)));
    // Saved in one turn: the group commit writes them as one statement of array parameters.
    const saved = turns.map((turn, index) => {
      const response = toResponseObject({ id: turn.ids.response, createdAt: 1, model: 'fake-model', body }, { ...answer, content: `answer ${index}` }, turn.ids);
      return { response, done: store.save(memberOf(org), turn, JSON.stringify(response)) };
    });
    await Promise.all(saved.map(({ done }) => done));
    for (const { response } of saved) {
      expect(await store.get(memberOf(org), response.id)).toEqual(response);
      const input = await store.inputItems(memberOf(org), response.id, { limit: 20, order: 'asc' });
      expect(input.data).toEqual([expect.objectContaining({ role: 'user', content: [{ type: 'input_text', text: 'batched' }] })]);
    }
    const rows = await stack.runtime.orm.em.fork().find(StoredResponse, { id: { $in: saved.map(({ response }) => response.id) } });
    expect(rows).toHaveLength(12);
    for (const row of rows) {
      expect(row.organizationId).toBe(org.id);
      expect(row.createdAt.toISOString()).toBe(now.toISOString());
      expect(row.expiresAt.toISOString()).toBe(new Date(now.getTime() + 7 * 86_400_000).toISOString());
    }
  });

  it('resolves item_reference inputs to stored output and input items, and refuses unknown ones naming the field', async () => {
    primary.enqueue({ content: 'First answer' });
    const first = await client.responses.create({ model: 'fake-model', input: 'First question' });
    // An item id names the response that keeps it: one row per response, no row per item.
    const hex = first.id.slice('resp_'.length);
    expect(first.output[0]!.id).toMatch(new RegExp(`^msg_${hex}[0-9a-f]{4}$`));
    const [question] = (await client.responses.inputItems.list(first.id)).data;
    expect(question!.id).toMatch(new RegExp(`^msg_${hex}[0-9a-f]{4}$`));
    primary.enqueue({ content: 'Second answer' });
    await client.responses.create({ model: 'fake-model', input: [{ type: 'item_reference', id: question!.id }, { type: 'item_reference', id: first.output[0]!.id! }, { role: 'user', content: 'And then?' }] });
    expect(primary.requests[1]!.body.messages).toEqual([
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: 'First answer' },
      { role: 'user', content: 'And then?' },
    ]);
    for (const id of ['msg_nope', `msg_${hex}ffff`, `fc_${hex}0000`]) {
      const missing = await call<any>(stack.baseUrl, 'POST', '/responses', { key: org.member.key, body: { model: 'fake-model', input: [{ role: 'user', content: 'x' }, { type: 'item_reference', id }] } });
      expect(missing.status, id).toBe(400);
      expect(missing.body.error).toMatchObject({ code: 'bad_request', param: 'input[1].id' });
    }
  });

  it("refuses another organization's item ids, and the ids of a deleted response", async () => {
    primary.enqueue({ content: 'the answer is marmalade' });
    const first = await client.responses.create({ model: 'fake-model', input: 'a question about zanzibar' });
    const itemId = first.output[0]!.id!;
    const other = await createTestOrganization(stack.runtime.orm);
    const stolen = await call<any>(stack.baseUrl, 'POST', '/responses', { key: other.member.key, body: { model: 'fake-model', input: [{ type: 'item_reference', id: itemId }] } });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toMatchObject({ code: 'bad_request', param: 'input[0].id' });
    expect(primary.requests).toHaveLength(1);

    // A later response carries the item in its conversation; the item is still the first one's.
    primary.enqueue({ content: 'Later answer' });
    const later = await client.responses.create({ model: 'fake-model', previous_response_id: first.id, input: 'and then?' });
    await client.responses.delete(first.id);
    const gone = await call<any>(stack.baseUrl, 'POST', '/responses', { key: org.member.key, body: { model: 'fake-model', input: [{ type: 'item_reference', id: later.output[0]!.id! }, { type: 'item_reference', id: itemId }] } });
    expect(gone.status).toBe(400);
    expect(gone.body.error.param).toBe('input[1].id');
  });

  it('still resolves an item kept on its own row before item ids named their response, until its response goes', async () => {
    primary.enqueue({ content: 'Stored answer' });
    const first = await client.responses.create({ model: 'fake-model', input: 'Old question' });
    // An item as the previous schema kept it: a random id, its own encrypted row.
    const legacyId = 'msg_0123456789abcdef0123456789abcdef';
    const expires = new Date(Date.now() + 86_400_000);
    const item = { type: 'message', id: legacyId, role: 'assistant', content: [{ type: 'output_text', text: 'An answer from before' }] };
    await stack.runtime.orm.em.fork().getConnection().execute(
      'insert into gateway_response_items (id, organization_id, response_id, item_ciphertext, expires_at) values (?, ?, ?, ?, ?)',
      [legacyId, org.id, first.id, stack.runtime.secrets.encrypt(JSON.stringify(item)), expires],
    );
    const other = await createTestOrganization(stack.runtime.orm);
    const foreign = await call<any>(stack.baseUrl, 'POST', '/responses', { key: other.member.key, body: { model: 'fake-model', input: [{ type: 'item_reference', id: legacyId }] } });
    expect(foreign.status).toBe(400);

    primary.enqueue({ content: 'New answer' });
    await client.responses.create({ model: 'fake-model', input: [{ type: 'item_reference', id: legacyId }, { role: 'user', content: 'Go on' }] });
    expect(primary.requests[1]!.body.messages).toEqual([
      { role: 'assistant', content: 'An answer from before' },
      { role: 'user', content: 'Go on' },
    ]);
    await client.responses.delete(first.id);
    expect(await stack.runtime.orm.em.fork().count(StoredResponseItem, { id: legacyId })).toBe(0);
    const gone = await call<any>(stack.baseUrl, 'POST', '/responses', { key: org.member.key, body: { model: 'fake-model', input: [{ type: 'item_reference', id: legacyId }] } });
    expect(gone.status).toBe(400);
  });

  it.each([
    ['model is missing', { input: 'hi' }, 'model'],
    ['input is missing', { model: 'fake-model' }, 'input'],
    ['a tool is not a function tool', { model: 'fake-model', input: 'hi', tools: [{ type: 'web_search' }] }, 'tools[0].type'],
    ['temperature is above 2', { model: 'fake-model', input: 'hi', temperature: 3 }, 'temperature'],
  ])('answers 400 bad_request when %s', async (_name, body, param) => {
    const res = await call<any>(stack.baseUrl, 'POST', '/responses', { key: org.member.key, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', param });
    expect(primary.requests).toHaveLength(0);
  });

  it('blocks a payment card in the input with 403 dlp_blocked before any upstream call', async () => {
    const error = await client.responses.create({ model: 'fake-model', input: [{ role: 'user', content: [{ type: 'input_text', text: 'card 4111 1111 1111 1111' }] }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('dlp_blocked');
    expect(primary.requests).toHaveLength(0);
  });

  it('answers 401 for a bad key', async () => {
    const bad = new OpenAI({ apiKey: `svc_live_${'z'.repeat(32)}`, baseURL: stack.baseUrl, maxRetries: 0 });
    expect(await bad.responses.create({ model: 'fake-model', input: 'hi' }).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe.each(upstreams)('the AI SDK default OpenAI provider against an $kind upstream', ({ model, upstream }) => {
  /** Request bodies the provider sent, to see what it sent by reference. */
  const sent: string[] = [];
  const provider = () =>
    createOpenAI({
      baseURL: stack.baseUrl,
      apiKey: org.member.key,
      fetch: async (input, init) => {
        if (typeof init?.body === 'string') sent.push(init.body);
        return fetch(input, init);
      },
    });

  it('generateText answers through /v1/responses', async () => {
    upstream().enqueue({ content: 'Hi from the gateway', usage: { input: 5, output: 4 } });
    const result = await generateText({ model: provider()(model), prompt: 'Say hi' });
    expect(result.text).toBe('Hi from the gateway');
    expect(result.usage).toMatchObject({ inputTokens: 5, outputTokens: 4 });
    expect(result.finishReason).toBe('stop');
  });

  it('streamText streams the text and reports usage', async () => {
    upstream().enqueue({ content: 'alpha beta gamma', usage: { input: 6, output: 3 } });
    const result = streamText({ model: provider()(model), prompt: 'Stream' });
    const parts: string[] = [];
    for await (const text of result.textStream) parts.push(text);
    expect(parts.join('')).toBe('alpha beta gamma');
    expect(parts.length).toBeGreaterThan(1);
    expect(await result.usage).toMatchObject({ inputTokens: 6, outputTokens: 3 });
  });

  it('meters and audits generateText and streamText on this upstream, and blocks a card number before it (APICallError 403)', async () => {
    upstream().enqueue({ content: 'one', usage: { input: 5201, output: 1 } }, { content: 'two', usage: { input: 5202, output: 1 } });
    await generateText({ model: provider()(model), prompt: 'One' });
    const streamed = streamText({ model: provider()(model), prompt: 'Two' });
    for await (const _text of streamed.textStream);
    for (const [inputTokens, stream] of [[5201, false], [5202, true]] as const) {
      const audit = await waitFor(async () => stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, model, inputTokens }), { what: `audit record of ${inputTokens}` });
      expect(audit).toMatchObject({ outcome: 'success', stream, outputTokens: 1 });
      const usage = await waitFor(async () => stack.runtime.orm.em.fork().findOne(UsageRecord, { organizationId: org.id, requestId: audit.requestId! }), { what: 'usage record' });
      expect(Number(usage.cost)).toBeCloseTo(priced(inputTokens, 1), 10);
    }

    const sentBefore = upstream().requests.length;
    const error = await generateText({ model: provider()(model), prompt: 'pay with 4111 1111 1111 1111', maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(403);
    expect((error as APICallError).responseBody).toContain('dlp_blocked');
    expect(upstream().requests).toHaveLength(sentBefore);
  });

  it('runs a tool loop: the earlier assistant items go back by item_reference and resolve', async () => {
    upstream().enqueue(
      { content: 'Let me check.', toolCalls: [{ id: 'call_w', name: 'weather', arguments: '{"city":"Oslo"}' }] },
      { content: 'It is snowing in Oslo.' },
    );
    const calls: string[] = [];
    const result = await generateText({
      model: provider()(model),
      prompt: 'Weather in Oslo?',
      tools: {
        weather: tool({
          description: 'Weather of a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => {
            calls.push(city);
            return `snow in ${city}`;
          },
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(calls).toEqual(['Oslo']);
    const secondInput = (JSON.parse(sent.at(-1)!) as { input: Array<{ type?: string }> }).input;
    expect(secondInput.some((item) => item.type === 'item_reference')).toBe(true);
    expect(result.text).toBe('It is snowing in Oslo.');
    expect(result.steps).toHaveLength(2);
    const second = upstream().requests[1]!.body.messages as Array<Record<string, unknown>>;
    // The stored "Let me check." came back by reference; the call and its output inline.
    expect(JSON.stringify(second)).toContain('Let me check.');
    expect(JSON.stringify(second)).toContain('snow in Oslo');
    expect(JSON.stringify(second)).toContain('call_w');
  });
});
