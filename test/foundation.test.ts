// The foundation on the real stack: readiness, the error contract every endpoint shares, and
// the first path through Temporal (API -> dev server -> worker -> activity -> database).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/http.js';
import { createTestOrganization, type TestOrganization } from './helpers/orgs.js';
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

  it('answers /readyz with 503 naming the dependency that is unreachable', async () => {
    const broken = await startStack({ worker: false });
    try {
      await broken.runtime.orm.close(true);
      const res = await call<any>(broken.api.url, 'GET', '/readyz');
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('service_unavailable');
      expect(res.body.error.message).toContain('database');
      expect(res.body.error.checks).toMatchObject({ database: expect.stringMatching(/^error/), redis: 'ok', temporal: 'ok' });
    } finally {
      await broken.stop().catch(() => undefined);
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

  it('requires the bearer token when METRICS_TOKEN is set', async () => {
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
