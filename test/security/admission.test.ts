// Attacker's tests for SECURITY.md's third round (bounded work and billing), finding 4: admission came after the work. A caller over its rate
// limit still had its body parsed, its references resolved and DLP run (the 429 replaced the
// answer only after), and response-cache hits returned before any admission, escaping both rate
// limits. Now the limits of the key, the keys above it and the organization are counted before
// anything else, cache hits included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { GatewayRequestRecord } from '../../src/gateway/entities.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  const config = fakeGatewayConfig({ primary: upstream });
  (config.models as Record<string, unknown>[]).push({ id: 'cached-model', targets: [{ provider: 'primary', upstreamModel: 'gpt-fake-cached' }], cacheTtlSeconds: 60 });
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(config) } });
});
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

/** A key of a fresh organization limited to `perMinute` requests (its creation counts against its creator, not it). */
async function limitedKey(perMinute: number): Promise<{ organizationId: string; key: string }> {
  const org = await createTestOrganization(stack.runtime.orm);
  const created = await call<any>(stack.baseUrl, 'POST', '/api-keys', { key: org.member.key, body: { name: 'limited', rateLimitPerMinute: perMinute } });
  expect(created.status).toBe(201);
  return { organizationId: org.id, key: created.body.key };
}

const ask = (key: string, model: string, content: string) =>
  call<any>(stack.baseUrl, 'POST', '/chat/completions', { key, body: { model, messages: [{ role: 'user', content }] } });

describe('admission before work', () => {
  it('counts response-cache hits against the rate limit', async () => {
    const { key } = await limitedKey(3);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await ask(key, 'cached-model', 'the same question, cached')).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(upstream.requests.filter((request) => request.body.model === 'gpt-fake-cached')).toHaveLength(1);
  });

  it('answers a caller over its limit 429 without scanning its request (no DLP verdict, no request row of its content)', async () => {
    const { organizationId, key } = await limitedKey(2);
    expect((await ask(key, 'fake-model', 'hello')).status).toBe(200);
    expect((await ask(key, 'fake-model', 'hello again')).status).toBe(200);
    const over = await ask(key, 'fake-model', 'pay with 4111 1111 1111 1111');
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ code: 'rate_limited' });
    const requestId = over.headers.get('x-request-id')!;
    // The two answers are recorded; the refused request never reached the gateway core (DLP would have recorded it blocked).
    await waitFor(async () => (await stack.runtime.orm.em.fork().count(GatewayRequestRecord, { organizationId })) === 2 || undefined, { what: 'two request rows' });
    expect(await stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { requestId })).toBeNull();
  });
});
