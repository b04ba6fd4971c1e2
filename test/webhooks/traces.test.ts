// One trace for a webhook execution with traces on: the API's request span, the Temporal
// client's workflow start, the workflow run, its activities and the gateway call made inside an
// activity share one trace id, each nested under the previous (captured by an in-process OTLP
// receiver). Workflows started without a trace context are untouched (the replay test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracing } from '../../src/telemetry/tracing.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../fixtures/otlp-receiver.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let upstream: FakeUpstream;
let receiver: OtlpReceiver;
let org: TestOrganization;

beforeAll(async () => {
  [upstream, receiver] = await Promise.all([startFakeUpstream(), startOtlpReceiver()]);
  stack = await startStack({ env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([upstream?.close(), receiver?.close()]);
});

describe('webhook execution traces', () => {
  it('is one trace from the API request through the workflow to its activities and the gateway call', async () => {
    const created = await call(stack.baseUrl, 'POST', '/assistants', {
      key: org.admin.key,
      body: { name: 'Traced', systemPrompt: 'Answer briefly.', model: 'fake-model', channels: [], trigger: { type: 'webhook' } },
    });
    expect(created.status).toBe(201);
    const path = new URL(created.body.webhookUrl).pathname.replace(/^\/v1/, '');
    const ack = await call(stack.baseUrl, 'POST', path, { body: { event: 'order.created' } });
    expect(ack.status).toBe(202);
    await waitFor(async () => (await call(stack.baseUrl, 'GET', `/webhooks/executions/${ack.body.executionId}`, { key: org.member.key })).body.status === 'success',
      { what: 'the execution to finish', timeoutMs: 60_000 });

    const byName = (trace: ReceivedSpan[], prefix: string) => trace.filter((span) => span.name.startsWith(prefix));
    const trace = await waitFor(async () => {
      await tracing()!.forceFlush();
      const start = receiver.spans.find((span) => span.name.startsWith('StartWorkflow:'));
      if (!start) return undefined;
      const spans = receiver.spans.filter((span) => span.traceId === start.traceId);
      return byName(spans, 'RunActivity:').length > 0 && byName(spans, 'chat ').length > 0 && byName(spans, 'RunWorkflow:').length > 0 && spans;
    }, { what: 'the execution trace', timeoutMs: 30_000 });

    const parentOf = (span: ReceivedSpan) => trace.find((candidate) => candidate.spanId === span.parentSpanId);
    const [start] = byName(trace, 'StartWorkflow:');
    const [run] = byName(trace, 'RunWorkflow:');
    expect(parentOf(start!)?.attributes['http.request.method']).toBe('POST');
    expect(parentOf(run!)?.spanId).toBe(start!.spanId);
    for (const activity of byName(trace, 'RunActivity:')) {
      const scheduled = parentOf(activity)!;
      expect(scheduled.name).toMatch(/^StartActivity:/);
      expect(parentOf(scheduled)?.spanId).toBe(run!.spanId);
    }
    const [gateway] = byName(trace, 'chat fake-model');
    expect(parentOf(gateway!)?.name).toMatch(/^RunActivity:/);
    expect(gateway!.attributes).toMatchObject({ 'gen_ai.request.model': 'fake-model', 'gen_ai.usage.input_tokens': 11 });
    // The webhook path is a credential: spans name the route pattern, never the id.
    expect(receiver.bodies.join('\n')).not.toContain(path.split('/').pop()!);
  });
});
