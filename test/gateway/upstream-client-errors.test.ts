// An upstream's error that is the request's own fault (400, 413, 422) reaches the client as its
// API gives it: 400 bad_request with the upstream's message (OpenAI's shape on chat completions
// and Responses, Anthropic's invalid_request_error on /v1/messages), tried once, on one target,
// so the official SDKs (which retry 5xx) send it once. An upstream that failed still fails over,
// and our credentials refused is still 502 provider_error, passing nothing of the upstream's body.
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
let backup: FakeUpstream;
let claude: FakeUpstream;
/** The SDKs as users run them: default retries (2), which a 5xx would trigger. */
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  [primary, backup, claude] = await Promise.all([startFakeUpstream(), startFakeUpstream(), startFakeUpstream()]);
  const config = fakeGatewayConfig({ primary, backup, anthropic: claude });
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(config) } });
  org = await createTestOrganization(stack.runtime.orm);
  openai = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl });
  anthropic = new Anthropic({ apiKey: org.member.key, baseURL: stack.api.url });
});
afterEach(() => {
  for (const upstream of [primary, backup, claude]) upstream.reset();
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([primary, backup, claude].map((upstream) => upstream?.close()));
});

const hello = [{ role: 'user' as const, content: 'Say hello' }];
const badTemperature = { status: 400, errorBody: { error: { message: 'Invalid temperature: 7 is greater than the maximum of 2', type: 'invalid_request_error', param: 'temperature', code: 'decimal_above_max_value' } } };

async function auditOf(requestId: string | null): Promise<GatewayRequestRecord> {
  return waitFor(async () => stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, requestId: requestId! }), { what: 'audit record' });
}

describe('an upstream that refuses the request itself', () => {
  it('answers a chat completion 400 bad_request with the upstream message and param, sent once to one target', async () => {
    primary.enqueue(badTemperature);
    const error = await openai.chat.completions.create({ model: 'fake-model', messages: hello }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'bad_request', type: 'invalid_request_error', param: 'temperature' });
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('Invalid temperature: 7 is greater than the maximum of 2');
    expect(primary.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(0);
    const requestId = (error as InstanceType<typeof OpenAI.BadRequestError>).headers?.get('x-request-id') ?? null;
    expect(await auditOf(requestId)).toMatchObject({ outcome: 'rejected', status: 400, errorCode: 'bad_request', attempts: 1, cost: 0 });
  });

  it('answers a streamed chat completion the same, before any byte of a stream', async () => {
    primary.enqueue(badTemperature);
    const error = await openai.chat.completions.create({ model: 'fake-model', messages: hello, stream: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'bad_request', param: 'temperature' });
    expect(primary.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(0);
  });

  it.each([413, 422])('answers an upstream %i as 400 bad_request too', async (status) => {
    primary.enqueue({ status, errorBody: { error: { message: 'Too many images in one request: 120 > 100', type: 'invalid_request_error' } } });
    const res = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', type: 'invalid_request_error', message: 'Too many images in one request: 120 > 100', param: null, upstream_status: status });
    expect(primary.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(0);
  });

  it('answers a Responses request 400 through the openai client, sent once', async () => {
    primary.enqueue(badTemperature);
    const error = await openai.responses.create({ model: 'fake-model', input: 'Say hello', store: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'bad_request', param: 'temperature' });
    expect(primary.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(0);
  });

  it("answers /v1/messages with Anthropic's invalid_request_error and the upstream's message, sent once", async () => {
    claude.enqueue({ status: 400, errorBody: { type: 'error', error: { type: 'invalid_request_error', message: 'messages.0.content.1.image.source.base64: image exceeds 5 MB maximum' } } });
    const error = await anthropic.messages.create({ model: 'fake-claude', max_tokens: 50, messages: [{ role: 'user', content: 'Describe' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).status).toBe(400);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'messages.0.content.1.image.source.base64: image exceeds 5 MB maximum' },
    });
    expect(claude.requests).toHaveLength(1);
  });

  it('bounds the upstream message it passes on', async () => {
    primary.enqueue({ status: 400, errorBody: { error: { message: `Invalid content: ${'x'.repeat(10_000)}`, type: 'invalid_request_error' } } });
    const res = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello } });
    expect(res.status).toBe(400);
    expect(res.body.error.message.length).toBeLessThanOrEqual(512);
    expect(res.body.error.message.startsWith('Invalid content: xxx')).toBe(true);
  });
});

describe('an upstream that failed', () => {
  it('still moves to the next target on a 5xx', async () => {
    primary.enqueue({ status: 500 });
    const completion = await openai.chat.completions.create({ model: 'fake-model', messages: hello });
    expect(completion.choices[0]?.message.content).toBe('Hello from the fake upstream');
    expect(primary.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(1);
  });

  it('answers 502 provider_error when the upstream refuses our credentials, passing none of its body on', async () => {
    primary.enqueue({ status: 401, errorBody: { error: { message: 'Incorrect API key provided: sk-fake-pr***mary', type: 'invalid_request_error', param: 'key', code: 'invalid_api_key' } } });
    const res = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: hello } });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ code: 'provider_error', param: null, upstream_status: 401 });
    expect(res.text).not.toContain('sk-fake');
    expect(res.text).not.toContain('Incorrect API key');
    expect(res.text).not.toContain('invalid_api_key');
  });
});

