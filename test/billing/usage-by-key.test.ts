// GET /v1/billing/usage?groupBy=key (the console's spend by key): real gateway calls made with
// two keys of one organization and one of another come back grouped by key with its name and
// prefix, summing to the totals; the other organization's calls are not there; members get 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let upstream: FakeUpstream;
let stack: Stack;
let org: TestOrganization;
let other: TestOrganization;

async function complete(key: string): Promise<void> {
  upstream.enqueue({ content: 'ok', usage: { input: 1000, output: 100 } });
  const res = await call(stack.baseUrl, 'POST', '/chat/completions', { key, body: { model: 'fake-model', messages: [{ role: 'user', content: 'hi' }] } });
  expect(res.status, res.text).toBe(200);
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })) } });
  org = await createTestOrganization(stack.runtime.orm);
  other = await createTestOrganization(stack.runtime.orm);
  await complete(org.owner.key);
  await complete(org.owner.key);
  await complete(org.admin.key);
  await complete(other.owner.key);
});
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

describe('GET /v1/billing/usage?groupBy=key', () => {
  it("groups this organization's usage by API key, with names and prefixes, summing to the totals", async () => {
    const totals = await waitFor(async () => {
      const res = await call(stack.baseUrl, 'GET', '/billing/usage', { key: org.admin.key });
      return res.body.totals.requests === 3 && res.body.totals;
    }, { timeoutMs: 20_000, what: 'three calls recorded' });
    const res = await call(stack.baseUrl, 'GET', '/billing/usage?groupBy=key', { key: org.admin.key });
    expect(res.status, res.text).toBe(200);
    const groups = res.body.groups as Array<{ apiKeyId: string; name: string; prefix: string; requests: number; estimatedCost: number }>;
    expect(groups.map((g) => [g.name, g.prefix, g.requests]).sort()).toEqual([
      ['admin key', org.admin.key.slice(0, 13), 1],
      ['owner key', org.owner.key.slice(0, 13), 2],
    ]);
    expect(groups.reduce((sum, g) => sum + g.requests, 0)).toBe(totals.requests);
    expect(groups.reduce((sum, g) => sum + g.estimatedCost, 0)).toBeCloseTo(totals.estimatedCost, 9);
  });

  it('is 403 for a member and 400 naming groupBy for an unknown grouping', async () => {
    expect((await call(stack.baseUrl, 'GET', '/billing/usage?groupBy=key', { key: org.member.key })).status).toBe(403);
    const bad = await call(stack.baseUrl, 'GET', '/billing/usage?groupBy=color', { key: org.admin.key });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('groupBy');
  });
});
