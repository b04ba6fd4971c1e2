// POST /v1/messages (the Anthropic Messages API) through the unchanged `@anthropic-ai/sdk`, over
// the same gateway core as chat completions: against an OpenAI-style upstream (the request
// becomes chat completions) and an Anthropic-style one (it stays Messages), metered, audited
// and DLP-checked, with errors in Anthropic's shape.
import Anthropic, { APIError, AuthenticationError } from '@anthropic-ai/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UsageRecord } from '../../src/billing/entities.js';
import { GatewayRequestRecord } from '../../src/gateway/entities.js';
import { FAKE_DEFAULT_CONTENT, fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let primary: FakeUpstream;
let claude: FakeUpstream;
let client: Anthropic;

beforeAll(async () => {
  [primary, claude] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary, anthropic: claude })) } });
  org = await createTestOrganization(stack.runtime.orm);
  // Anthropic clients append /v1/messages themselves: the base URL is the service's origin.
  client = new Anthropic({ apiKey: org.member.key, baseURL: stack.api.url, maxRetries: 0 });
});
afterEach(() => {
  primary.reset();
  claude.reset();
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([primary?.close(), claude?.close()]);
});

const priced = (input: number, output: number) => (input * 2 + output * 8) / 1e6;
const weatherTool = { name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } };

async function recordsOf(requestId: string | null) {
  const em = () => stack.runtime.orm.em.fork();
  const audit = await waitFor(async () => em().findOne(GatewayRequestRecord, { organizationId: org.id, requestId: requestId! }), { what: 'audit record' });
  const usage = await waitFor(async () => (await em().find(UsageRecord, { organizationId: org.id, requestId: requestId! }))[0], { what: 'usage record' });
  return { audit, usage };
}

/** The upstream of each kind, the model that routes to it, and how it saw the last request's messages. */
const upstreams = [
  { kind: 'OpenAI-style', model: 'fake-model', upstream: () => primary, api: 'openai' },
  { kind: 'Anthropic-style', model: 'fake-claude', upstream: () => claude, api: 'anthropic' },
] as const;

describe.each(upstreams)('messages against an $kind upstream', ({ model, upstream, api }) => {
  it('answers messages.create with text, stop_reason, usage, cost and overhead headers; metered and audited', async () => {
    upstream().enqueue({ usage: { input: 30, output: 5 } });
    const { data: message, response } = await client.messages
      .create({ model, max_tokens: 200, system: 'Be terse.', messages: [{ role: 'user', content: 'Say hello' }], stop_sequences: ['END'] })
      .withResponse();
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: FAKE_DEFAULT_CONTENT }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 30, output_tokens: 5 },
    });
    expect(message.id).toMatch(/^msg_/);
    expect(Number(response.headers.get('x-gateway-cost'))).toBeCloseTo(priced(30, 5), 10);
    expect(Number(response.headers.get('x-gateway-overhead-ms'))).toBeGreaterThanOrEqual(0);
    const sent = upstream().requests[0]!;
    expect(sent.api).toBe(api);
    if (api === 'anthropic') {
      // Messages natively: system, stop sequences, the temperature on Anthropic's own scale.
      expect(sent.body).toMatchObject({ model: 'claude-fake-haiku', system: 'Be terse.', messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 200, stop_sequences: ['END'] });
    } else {
      expect(sent.body).toMatchObject({ model: 'gpt-fake-mini', messages: [{ role: 'system', content: 'Be terse.' }, { role: 'user', content: 'Say hello' }], max_tokens: 200, stop: ['END'] });
    }
    const { audit, usage } = await recordsOf(response.headers.get('x-request-id'));
    expect(audit).toMatchObject({ outcome: 'success', status: 200, model, modelRequested: model, inputTokens: 30, outputTokens: 5 });
    expect(usage).toMatchObject({ inputTokens: 30, outputTokens: 5, model });
    expect(Number(usage.cost)).toBeCloseTo(priced(30, 5), 10);
  });

  it('streams through messages.stream: text deltas, then the final message with stop_reason and usage', async () => {
    upstream().enqueue({ content: 'one two three', usage: { input: 12, output: 3 } });
    const stream = client.messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Count' }] });
    const deltas: string[] = [];
    stream.on('text', (text) => deltas.push(text));
    const message = await stream.finalMessage();
    expect(deltas.join('')).toBe('one two three');
    expect(deltas.length).toBeGreaterThan(1);
    expect(message).toMatchObject({ content: [{ type: 'text', text: 'one two three' }], stop_reason: 'end_turn', usage: { input_tokens: 12, output_tokens: 3 } });
    expect(upstream().requests[0]?.body.stream).toBe(true);
  });

  it('round-trips a tool: tool_use out (streamed input_json_delta), tool_result back in', async () => {
    upstream().enqueue({ content: '', toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}', fragments: ['{"city":', '"Paris"}'] }] });
    const first = await client.messages.stream({ model, max_tokens: 100, tools: [weatherTool], tool_choice: { type: 'auto' }, messages: [{ role: 'user', content: 'Weather in Paris?' }] }).finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content).toEqual([{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }]);

    upstream().enqueue({ content: 'Sunny in Paris' });
    const second = await client.messages.create({
      model,
      max_tokens: 100,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '22 degrees, sunny' }] },
      ],
    });
    expect(second).toMatchObject({ content: [{ type: 'text', text: 'Sunny in Paris' }], stop_reason: 'end_turn' });
    const sent = upstream().requests[1]!.body;
    if (api === 'anthropic') {
      expect(sent.tools).toEqual([{ name: 'get_weather', description: 'Weather of a city', input_schema: weatherTool.input_schema }]);
      expect(sent.messages).toEqual([
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '22 degrees, sunny' }] },
      ]);
    } else {
      expect(sent.tools).toEqual([{ type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: weatherTool.input_schema } }]);
      expect(sent.messages).toEqual([
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'toolu_1', content: '22 degrees, sunny' },
      ]);
    }
  });

  it('passes PDF documents on, from a user turn and from a tool_result (a document block to Anthropic, a file part to chat completions)', async () => {
    const pdf = Buffer.from('%PDF-1.4 test').toString('base64');
    const document = { type: 'document' as const, source: { type: 'base64' as const, media_type: 'application/pdf' as const, data: pdf } };
    upstream().enqueue({ content: 'Two reports' });
    const answer = await client.messages.create({
      model,
      max_tokens: 100,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: [{ ...document, title: 'q3.pdf' }, { type: 'text', text: 'Compare with the one you read.' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_d', name: 'get_weather', input: { city: 'Oslo' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_d', content: [document] }] },
      ],
    });
    expect(answer.content).toEqual([{ type: 'text', text: 'Two reports' }]);
    const sent = upstream().requests[0]!.body.messages as unknown[];
    const file = { type: 'file', file: { file_data: `data:application/pdf;base64,${pdf}` } };
    if (api === 'anthropic') {
      expect(sent[0]).toEqual({ role: 'user', content: [{ ...document, title: 'q3.pdf' }, { type: 'text', text: 'Compare with the one you read.' }] });
      expect(sent[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_d', content: [document] }] });
    } else {
      expect(sent[0]).toEqual({ role: 'user', content: [{ type: 'file', file: { ...file.file, filename: 'q3.pdf' } }, { type: 'text', text: 'Compare with the one you read.' }] });
      expect(sent.slice(2)).toEqual([
        { role: 'tool', tool_call_id: 'toolu_d', content: '(files, in the next message)' },
        { role: 'user', content: [{ type: 'text', text: 'Files returned by tool call toolu_d:' }, file] },
      ]);
    }
  });

  it('passes a failed tool_result on as failed: is_error to Anthropic, `Error: ` and its text to chat completions', async () => {
    upstream().enqueue({ content: 'The weather service is down' });
    await client.messages.create({
      model,
      max_tokens: 100,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_e', name: 'get_weather', input: { city: 'Oslo' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_e', content: 'service unavailable', is_error: true }] },
      ],
    });
    const sent = upstream().requests[0]!.body.messages as unknown[];
    expect(sent[2]).toEqual(
      api === 'anthropic'
        ? { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_e', content: 'service unavailable', is_error: true }] }
        : { role: 'tool', tool_call_id: 'toolu_e', content: 'Error: service unavailable' },
    );
  });

  it('passes the images of a tool_result on (in the tool_result to Anthropic, after the tool message to chat completions)', async () => {
    const png = Buffer.from('screenshot bytes').toString('base64');
    upstream().enqueue({ content: 'A login page' });
    const answer = await client.messages.create({
      model,
      max_tokens: 100,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'What is on screen?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_s', name: 'get_weather', input: { city: 'Oslo' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_s', content: [{ type: 'text', text: 'captured' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }] }] },
      ],
    });
    expect(answer.content).toEqual([{ type: 'text', text: 'A login page' }]);
    const sent = upstream().requests[0]!.body.messages as unknown[];
    if (api === 'anthropic') {
      expect(sent[2]).toEqual({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_s', content: [{ type: 'text', text: 'captured' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }] }],
      });
    } else {
      expect(sent.slice(2)).toEqual([
        { role: 'tool', tool_call_id: 'toolu_s', content: 'captured' },
        { role: 'user', content: [{ type: 'text', text: 'Images returned by tool call toolu_s:' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }] },
      ]);
    }
  });

  it('meters and audits messages.stream and a tool_use/tool_result round trip on this upstream, and blocks a card number before it', async () => {
    upstream().enqueue({ content: 'streamed', usage: { input: 6101, output: 2 } });
    await client.messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Stream' }] }).finalMessage();
    upstream().enqueue({ content: '', toolCalls: [{ id: 'toolu_m', name: 'get_weather', arguments: '{"city":"Rome"}' }], usage: { input: 6102, output: 3 } });
    await client.messages.create({ model, max_tokens: 100, tools: [weatherTool], messages: [{ role: 'user', content: 'Weather in Rome?' }] });
    upstream().enqueue({ content: 'Warm', usage: { input: 6103, output: 1 } });
    const toolTurn = [
      { role: 'user' as const, content: 'Weather in Rome?' },
      { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'toolu_m', name: 'get_weather', input: { city: 'Rome' } }] },
    ];
    await client.messages.create({ model, max_tokens: 100, tools: [weatherTool], messages: [...toolTurn, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_m', content: '30 degrees' }] }] });
    for (const [inputTokens, stream] of [[6101, true], [6102, false], [6103, false]] as const) {
      const audit = await waitFor(async () => stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, model, inputTokens }), { what: `audit record of ${inputTokens}` });
      expect(audit).toMatchObject({ outcome: 'success', stream });
      const { usage } = await recordsOf(audit.requestId);
      expect(Number(usage.cost)).toBeCloseTo(priced(inputTokens, audit.outputTokens), 10);
    }

    const sentBefore = upstream().requests.length;
    const blocked = await client.messages
      .create({ model, max_tokens: 100, tools: [weatherTool], messages: [...toolTurn, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_m', content: 'card 4111 1111 1111 1111' }] }] })
      .catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect(upstream().requests).toHaveLength(sentBefore);
  });

  it('takes temperature, top_p and top_k on Anthropic\'s scale (the official client no longer sends them)', async () => {
    const res = await call<any>(stack.api.url, 'POST', '/v1/messages', {
      key: org.member.key,
      body: { model, max_tokens: 20, temperature: 0.4, top_p: 0.9, top_k: 5, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(res.status).toBe(200);
    const sent = upstream().requests[0]!.body;
    if (api === 'anthropic') expect(sent).toMatchObject({ temperature: 0.4, top_p: 0.9, top_k: 5 });
    else expect(sent).toMatchObject({ temperature: 0.8, top_p: 0.9 });
  });

  it('maps a length finish to stop_reason max_tokens', async () => {
    upstream().enqueue({ finishReason: 'length' });
    const message = await client.messages.create({ model, max_tokens: 5, messages: [{ role: 'user', content: 'Talk' }] });
    expect(message.stop_reason).toBe('max_tokens');
  });

  it('raises an APIError from the stream when the upstream fails after the first byte, and audits the failure', async () => {
    upstream().enqueue({ content: 'one two three four', cutAfterChunks: 2 });
    const stream = client.messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Count' }] });
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(JSON.stringify((error as APIError).error)).toContain('api_error');
    const audit = await waitFor(async () => stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, model, stream: true, outcome: 'failure' }), { what: 'failure audit' });
    expect(audit).toMatchObject({ status: 502, errorCode: 'provider_error' });
  });
});

describe('authentication and errors in Anthropic shape', () => {
  it('gives authentication_error (401) for a bad key through the client', async () => {
    const bad = new Anthropic({ apiKey: `svc_live_${'x'.repeat(32)}`, baseURL: stack.api.url, maxRetries: 0 });
    const error = await bad.messages.create({ model: 'fake-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expect((error as AuthenticationError).error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect(primary.requests).toHaveLength(0);
  });

  it('answers 401 authentication_error without any key, and accepts a Bearer key with anthropic-version and anthropic-beta', async () => {
    const body = { model: 'fake-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    const missing = await call<any>(stack.api.url, 'POST', '/v1/messages', { body });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ type: 'error', error: { type: 'authentication_error', message: expect.any(String) } });
    const bearer = await call<any>(stack.api.url, 'POST', '/v1/messages', { key: org.member.key, body, headers: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'tools-2024-05-16' } });
    expect(bearer.status).toBe(200);
    expect(bearer.body.type).toBe('message');
  });

  it('serves x-api-key on the Express path too (a gzip body skips the fast path)', async () => {
    const { gzipSync } = await import('node:zlib');
    const res = await fetch(`${stack.api.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': org.member.key, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ model: 'fake-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { type: string }).type).toBe('message');
    const unauthorized = await fetch(`${stack.api.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': `svc_live_${'y'.repeat(32)}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync('{}'),
    });
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it.each([
    ['max_tokens is missing', { model: 'fake-model', messages: [{ role: 'user', content: 'hi' }] }, 'max_tokens'],
    ['a role is unknown', { model: 'fake-model', max_tokens: 5, messages: [{ role: 'system', content: 'hi' }] }, 'messages[0].role'],
    ['temperature is above 1', { model: 'fake-model', max_tokens: 5, temperature: 1.5, messages: [{ role: 'user', content: 'hi' }] }, 'temperature'],
    ['the model is unknown', { model: 'nope', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }, 'model'],
  ])('answers 400 invalid_request_error when %s', async (_name, body, field) => {
    const res = await call<any>(stack.api.url, 'POST', '/v1/messages', { key: org.member.key, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining(field) } });
  });

  it('blocks a payment card with 403 permission_error before any upstream call, and audits it', async () => {
    const { response, error } = await client.messages
      .create({ model: 'fake-claude', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: 'pay with 4111 1111 1111 1111' }] }] })
      .withResponse()
      .then((r) => ({ response: r.response, error: undefined }), (e: unknown) => ({ response: undefined, error: e as APIError }));
    expect(response).toBeUndefined();
    expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect(error!.error).toMatchObject({ type: 'error', error: { type: 'permission_error', message: expect.stringContaining('credit_card') } });
    expect(JSON.stringify(error!.error)).not.toContain('4111');
    expect(claude.requests).toHaveLength(0);
    const audit = await waitFor(async () => stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, requestId: error!.headers?.get('x-request-id') ?? '' }), { what: 'audit record' });
    expect(audit).toMatchObject({ outcome: 'blocked', status: 403, dlpFindings: { credit_card: 1 } });
  });

  it('scans tool results too: a secret in a tool_result is blocked', async () => {
    const error = await client.messages
      .create({
        model: 'fake-model',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'look it up' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'SSN 536-22-1234' }] }] },
        ],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect(primary.requests).toHaveLength(0);
  });
});

describe('count_tokens', () => {
  it('counts a prompt locally, more tokens for a longer prompt, without calling an upstream', async () => {
    const short = await client.messages.countTokens({ model: 'fake-claude', messages: [{ role: 'user', content: 'Hello' }] });
    const long = await client.messages.countTokens({ model: 'fake-claude', system: 'Be terse.', tools: [weatherTool], messages: [{ role: 'user', content: 'Hello there, how is the weather in Lisbon today?' }] });
    expect(short.input_tokens).toBeGreaterThan(0);
    expect(long.input_tokens).toBeGreaterThan(short.input_tokens);
    expect(claude.requests).toHaveLength(0);
  });

  it('answers 400 invalid_request_error for an unknown model', async () => {
    const error = await client.messages.countTokens({ model: 'nope', messages: [{ role: 'user', content: 'Hello' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
  });
});
