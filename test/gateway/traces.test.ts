// Traces with OTEL_EXPORTER_OTLP_ENDPOINT set, captured by an in-process OTLP/HTTP receiver: a
// gateway request is a span with GenAI attributes under the request's server span, the upstream
// call its child, a caller's traceparent is honoured, and no prompt or answer text is exported.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tracing } from '../../src/telemetry/tracing.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../fixtures/otlp-receiver.js';
import { waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let upstream: FakeUpstream;
let receiver: OtlpReceiver;
let org: TestOrganization;
let client: OpenAI;

const PROMPT = 'classified prompt text 7f3a';
const ANSWER = 'classified answer text 9b2c';

beforeAll(async () => {
  [upstream, receiver] = await Promise.all([startFakeUpstream(), startOtlpReceiver()]);
  upstream.setDefault({ content: ANSWER, usage: { input: 13, output: 5 } });
  // The SDK reads the other OTEL_* names from the process environment itself.
  vi.stubEnv('OTEL_SERVICE_NAME', 'gateway-under-test');
  stack = await startStack({
    worker: false,
    env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
  });
  org = await createTestOrganization(stack.runtime.orm);
  client = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await stack?.stop();
  await Promise.all([upstream?.close(), receiver?.close()]);
});

/** The gateway span of one request (found by its trace), once exported, and its trace. */
async function traceOf(match: (span: ReceivedSpan) => boolean): Promise<{ gateway: ReceivedSpan; trace: ReceivedSpan[] }> {
  const gateway = await waitFor(async () => {
    await tracing()!.forceFlush();
    return receiver.spans.find((span) => span.name === 'chat fake-model' && match(span));
  }, { what: 'the gateway span' });
  return { gateway, trace: receiver.spans.filter((span) => span.traceId === gateway.traceId) };
}

describe('gateway traces', () => {
  it('exports a span per request with GenAI attributes, the upstream call as its child, no text', async () => {
    const answer = await client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: PROMPT }], max_tokens: 40, temperature: 0.2 });
    expect(answer.choices[0]?.message.content).toBe(ANSWER);
    const { gateway, trace } = await traceOf((span) => span.attributes['gen_ai.request.stream'] === false);
    expect(gateway.kind).toBe(2); // OTLP SPAN_KIND_SERVER
    expect(gateway.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'fake-model',
      'gen_ai.request.max_tokens': 40,
      'gen_ai.request.temperature': 0.2,
      'gen_ai.response.model': 'gpt-fake-mini',
      'gen_ai.system': 'openai',
      'gen_ai.usage.input_tokens': 13,
      'gen_ai.usage.output_tokens': 5,
      'gateway.outcome': 'success',
      'gateway.organization_id': org.id,
    });
    expect(gateway.serviceName).toBe('gateway-under-test');
    const upstreamSpan = trace.find((span) => span.parentSpanId === gateway.spanId);
    expect(upstreamSpan).toMatchObject({ name: 'chat gpt-fake-mini', kind: 3 /* CLIENT */ });
    expect(upstreamSpan?.attributes).toMatchObject({ 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-fake-mini', 'server.address': '127.0.0.1' });
    // Under the API's server span for the request.
    const server = trace.find((span) => span.spanId === gateway.parentSpanId);
    expect(server?.attributes['http.request.method']).toBe('POST');
    const exported = receiver.bodies.join('\n');
    expect(exported).not.toContain(PROMPT);
    expect(exported).not.toContain(ANSWER);
  });

  it('traces a stream to its end, and joins the trace of a caller that sends traceparent', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const stream = await client.chat.completions.create(
      { model: 'fake-model', messages: [{ role: 'user', content: PROMPT }], stream: true },
      { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } },
    );
    for await (const chunk of stream) void chunk;
    const { gateway, trace } = await traceOf((span) => span.traceId === traceId);
    expect(gateway.attributes).toMatchObject({ 'gen_ai.request.stream': true, 'gen_ai.usage.output_tokens': 5, 'gateway.outcome': 'success' });
    expect(trace.find((span) => span.parentSpanId === gateway.spanId)?.name).toBe('chat gpt-fake-mini');
    expect(trace.find((span) => span.spanId === gateway.parentSpanId)?.parentSpanId).toBe('00f067aa0ba902b7');
    expect(receiver.bodies.join('\n')).not.toContain(PROMPT);
  });

  it('marks a failed upstream call and request as errors', async () => {
    upstream.enqueue({ status: 401, errorBody: { error: { message: 'no' } } });
    await expect(client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'fail please' }] })).rejects.toThrow();
    const { gateway, trace } = await traceOf((span) => span.attributes['gateway.outcome'] === 'failure');
    expect(gateway.status.code).toBe(2); // STATUS_CODE_ERROR
    expect(gateway.attributes['error.type']).toBe('provider_error');
    expect(trace.find((span) => span.parentSpanId === gateway.spanId)?.status.code).toBe(2);
  });
});
