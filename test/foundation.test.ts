// The foundation on the real stack: readiness, the error contract every endpoint shares, and
// the first path through Temporal (API -> dev server -> worker -> activity -> database).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from './fixtures/fake-upstream.js';
import { startTcpProxy } from './fixtures/tcp-proxy.js';
import { call, waitFor } from './helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization } from './helpers/orgs.js';
import { startStack, type Stack } from './helpers/stack.js';

let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ env: { BODY_LIMIT_BYTES: '2048' } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => stack?.stop());

function expectErrorShape(body: any, code: string) {
  expect(body).toEqual({
    error: { code, message: expect.any(String), type: expect.any(String), param: body.error.param ?? null },
  });
}

describe('health', () => {
  it('answers /healthz with 200', async () => {
    const res = await call(stack.api.url, 'GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers /readyz with 200 when database, Redis and Temporal are reachable', async () => {
    const res = await call(stack.api.url, 'GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok', temporal: 'ok' } });
  });

  // Each of these starts a stack of its own (a fresh in-memory PGlite on the embedded defaults).
  it('answers /readyz with 503 naming the dependency that is unreachable', { timeout: 120_000 }, async () => {
    const broken = await startStack({ worker: false });
    try {
      await broken.runtime.orm.close(true);
      const res = await call<any>(broken.api.url, 'GET', '/readyz');
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('service_unavailable');
      expect(res.body.error.message).toContain('database');
      expect(res.body.error.checks).toMatchObject({ database: 'unreachable', redis: 'ok', temporal: 'ok' });
    } finally {
      await broken.stop().catch(() => undefined);
    }
  });

  it('answers /readyz with 503 naming temporal while the Temporal frontend is cut off, and 200 once it is back', { timeout: 120_000 }, async () => {
    const [host, port] = inject('temporalAddress').split(':');
    const proxy = await startTcpProxy({ host: host!, port: Number(port) });
    const behindProxy = await startStack({ worker: false, env: { TEMPORAL_ADDRESS: `127.0.0.1:${proxy.port}` } });
    try {
      expect((await call(behindProxy.api.url, 'GET', '/readyz')).status).toBe(200);

      proxy.cut();
      const res = await call<any>(behindProxy.api.url, 'GET', '/readyz');
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('service_unavailable');
      expect(res.body.error.message).toContain('temporal');
      expect(res.body.error.checks).toMatchObject({ database: 'ok', redis: 'ok', temporal: 'unreachable' });

      // The client reconnects on its own: no restart of the API.
      proxy.restore();
      await waitFor(async () => (await call(behindProxy.api.url, 'GET', '/readyz')).status === 200, { what: 'ready again', timeoutMs: 20_000 });
    } finally {
      proxy.restore();
      await behindProxy.stop().catch(() => undefined);
      await proxy.close();
    }
  });
});

describe('error contract', () => {
  it('returns 401 unauthorized without a key', async () => {
    const res = await call(stack.baseUrl, 'POST', '/diagnostics/workflow');
    expect(res.status).toBe(401);
    expectErrorShape(res.body, 'unauthorized');
  });

  it('returns 401 for a malformed key and for an unknown well-formed key', async () => {
    for (const key of ['not-a-key', 'svc_live_short', `svc_live_${'a'.repeat(40)}`]) {
      const res = await call(stack.baseUrl, 'POST', '/diagnostics/workflow', { key });
      expect(res.status, key).toBe(401);
      expectErrorShape(res.body, 'unauthorized');
    }
  });

  it('returns 404 not_found for an unknown route', async () => {
    const res = await call(stack.baseUrl, 'GET', '/no-such-thing', { key: org.owner.key });
    expect(res.status).toBe(404);
    expectErrorShape(res.body, 'not_found');
  });

  it('returns 400 bad_request naming the body for malformed JSON', async () => {
    const res = await call(stack.baseUrl, 'POST', '/diagnostics/workflow', {
      key: org.owner.key,
      raw: '{"oops":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expectErrorShape(res.body, 'bad_request');
    expect(res.body.error.param).toBe('body');
  });

  it('returns 413 payload_too_large above the configured body limit', async () => {
    const res = await call(stack.baseUrl, 'POST', '/diagnostics/workflow', {
      key: org.owner.key,
      body: { padding: 'x'.repeat(4096) },
    });
    expect(res.status).toBe(413);
    expectErrorShape(res.body, 'payload_too_large');
  });

  it('returns 415 unsupported_media_type for a non-JSON body', async () => {
    const res = await call(stack.baseUrl, 'POST', '/diagnostics/workflow', {
      key: org.owner.key,
      raw: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expectErrorShape(res.body, 'unsupported_media_type');
  });

  it('puts X-Request-Id on every response, echoing a safe incoming one', async () => {
    const generated = await call(stack.api.url, 'GET', '/healthz');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await call(stack.baseUrl, 'GET', '/nowhere', { headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    const unsafe = await call(stack.api.url, 'GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(unsafe.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  it('returns 403 forbidden when a member calls an admin endpoint', async () => {
    const res = await call(stack.baseUrl, 'POST', '/diagnostics/workflow', { key: org.member.key });
    expect(res.status).toBe(403);
    expectErrorShape(res.body, 'forbidden');
  });
});

describe('first path through Temporal', () => {
  it('runs the diagnostics workflow on the worker and records it in Temporal with its search attribute', async () => {
    const res = await call<any>(stack.baseUrl, 'POST', '/diagnostics/workflow', { key: org.admin.key });
    expect(res.status).toBe(200);
    expect(res.body.workflowId).toMatch(/^diagnostics\//);
    expect(res.body.workerTaskQueue).toBe(stack.config.TEMPORAL_TASK_QUEUE);
    expect(Date.parse(res.body.databaseTime)).not.toBeNaN();

    const description = await stack.runtime.temporal.client.workflow.getHandle(res.body.workflowId).describe();
    expect(description.status.name).toBe('COMPLETED');
    expect(description.searchAttributes.OrganizationId).toEqual([org.id]);
  });
});

describe('metrics', () => {
  it('serves Prometheus metrics including HTTP latency by route pattern', async () => {
    await call(stack.api.url, 'GET', '/healthz');
    const res = await call(stack.api.url, 'GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} \d+/);
    expect(res.text).toContain('process_resident_memory_bytes');
  });

  it('requires the bearer token when METRICS_TOKEN is set', { timeout: 120_000 }, async () => {
    const guarded = await startStack({ worker: false, env: { METRICS_TOKEN: 'scrape-secret' } });
    try {
      expect((await call(guarded.api.url, 'GET', '/metrics')).status).toBe(401);
      expect((await call(guarded.api.url, 'GET', '/metrics', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await call(guarded.api.url, 'GET', '/metrics', { headers: { authorization: 'Bearer scrape-secret' } })).status).toBe(200);
    } finally {
      await guarded.stop();
    }
  });
});

describe('metrics of the features', () => {
  const KEY_LIMIT = 3;
  let features: Stack;
  let primary: FakeUpstream;
  let backup: FakeUpstream;
  let team: TestOrganization;

  beforeAll(async () => {
    [primary, backup] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
    const gateway = writeGatewayConfig(fakeGatewayConfig({ primary, backup, breaker: { failureThreshold: 1000 } }));
    features = await startStack({ env: { GATEWAY_CONFIG: gateway, RATE_LIMIT_PER_KEY_PER_MINUTE: String(KEY_LIMIT) } });
    team = await createTestOrganization(features.runtime.orm);
  });
  afterAll(async () => {
    await features?.stop();
    await Promise.all([primary?.close(), backup?.close()]);
  });

  /** The value of one series of /metrics (0 when absent), matched by name and labels in any order. */
  async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
    const text = (await call(features.api.url, 'GET', '/metrics')).text;
    const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
    for (const line of text.split('\n')) {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match || match[1] !== name) continue;
      const present = match[2] ? match[2].split(/,(?=[a-zA-Z_]\w*=")/) : [];
      if (wanted.length === present.length && wanted.every((label) => present.includes(label))) return Number(match[3]);
    }
    return 0;
  }

  async function moved<T>(series: [string, Record<string, string>][], action: () => Promise<T>): Promise<{ result: T; deltas: number[] }> {
    const before = await Promise.all(series.map(([name, labels]) => metric(name, labels)));
    const result = await action();
    const after = await Promise.all(series.map(([name, labels]) => metric(name, labels)));
    return { result, deltas: after.map((value, i) => value - before[i]!) };
  }

  /** A key of its own for each action: the per-key limit is tiny here. */
  const freshKey = async () => (await createTestUser(features.runtime.orm, team.id, 'member')).key;
  const chat = (key: string, content: string) =>
    call(features.baseUrl, 'POST', '/chat/completions', { key, body: { model: 'fake-model', messages: [{ role: 'user', content }] } });

  it('counts upstream latency and errors by provider, tokens and cost by model', async () => {
    primary.enqueue({ status: 503 });
    const { result, deltas } = await moved([
      ['gateway_upstream_errors_total', { provider: 'primary', kind: 'server_error' }],
      ['gateway_upstream_duration_seconds_count', { provider: 'primary', outcome: 'failure' }],
      ['gateway_upstream_duration_seconds_count', { provider: 'backup', outcome: 'success' }],
      ['gateway_tokens_total', { model: 'fake-model', direction: 'input' }],
      ['gateway_tokens_total', { model: 'fake-model', direction: 'output' }],
      ['gateway_cost_usd_total', { model: 'fake-model' }],
    ], async () => chat(await freshKey(), 'Hello'));
    expect(result.status).toBe(200);
    // The fake upstream reports 11 input and 7 output tokens; fake-model costs 2 and 8 USD per 1M.
    expect(deltas.slice(0, 5)).toEqual([1, 1, 1, 11, 7]);
    expect(deltas[5]).toBeCloseTo((11 * 2 + 7 * 8) / 1e6, 12);
  });

  it('counts timeouts and mid-stream interruptions as upstream errors', async () => {
    primary.enqueue({ hang: true });
    const { deltas } = await moved([['gateway_upstream_errors_total', { provider: 'primary', kind: 'timeout' }]], async () => chat(await freshKey(), 'Hi'));
    expect(deltas).toEqual([1]);
    primary.enqueue({ content: 'one two three', cutAfterChunks: 1 });
    const cut = await moved([['gateway_upstream_errors_total', { provider: 'primary', kind: 'interrupted' }]], async () => {
      const res = await call(features.baseUrl, 'POST', '/chat/completions', {
        key: await freshKey(),
        body: { model: 'fake-model', stream: true, messages: [{ role: 'user', content: 'Count' }] },
      });
      return res.text;
    });
    expect(cut.result).toContain('provider_error');
    expect(cut.deltas).toEqual([1]);
  });

  it('counts DLP blocks by detector', async () => {
    const { result, deltas } = await moved([['dlp_blocks_total', { detector: 'credit_card' }]], async () => chat(await freshKey(), 'Charge card 4111 1111 1111 1111 please'));
    expect(result.status).toBe(403);
    expect(deltas).toEqual([1]);
  });

  it('counts rate-limit rejections by scope', async () => {
    const user = await createTestUser(features.runtime.orm, team.id, 'member');
    const { result, deltas } = await moved([['rate_limit_rejections_total', { scope: 'credential' }]], async () => {
      const statuses: number[] = [];
      for (let i = 0; i <= KEY_LIMIT; i++) statuses.push((await call(features.baseUrl, 'GET', '/users/me', { key: user.key })).status);
      return statuses;
    });
    expect(result).toEqual([200, 200, 200, 429]);
    expect(deltas).toEqual([1]);
  });

  it('counts webhook acknowledgments', async () => {
    const created = await call(features.baseUrl, 'POST', '/assistants', {
      key: team.admin.key,
      body: { name: 'Hook', systemPrompt: 'Summarize.', model: 'fake-model', trigger: { type: 'webhook' } },
    });
    expect(created.status).toBe(201);
    const path = new URL(created.body.webhookUrl as string).pathname.replace(/^\/v1/, '');
    const { result, deltas } = await moved([['webhook_acknowledgments_total', {}]], () => call(features.baseUrl, 'POST', path, { body: { event: 'ping' } }));
    expect(result.status).toBe(202);
    expect(deltas).toEqual([1]);
  });

  it('counts finished runs by status and trigger', { timeout: 60_000 }, async () => {
    const key = await freshKey();
    const created = await call(features.baseUrl, 'POST', '/automations', {
      key,
      body: { name: 'Counted', systemPrompt: 'Report.', model: 'fake-model', schedule: '0 9 * * *', status: 'paused' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const series: [string, Record<string, string>] = ['automation_run_outcomes_total', { status: 'success', trigger: 'manual' }];
    const before = await metric(...series);
    const started = await call(features.baseUrl, 'POST', `/automations/${created.body.id}/run`, { key });
    expect(started.status).toBe(202);
    await waitFor(async () => (await metric(...series)) === before + 1, { timeoutMs: 45_000, what: 'the run outcome to be counted' });
    const runs = await call(features.baseUrl, 'GET', `/automations/${created.body.id}/runs`, { key });
    expect(runs.body.runs[0]).toMatchObject({ id: started.body.runId, status: 'success' });
  });
});
