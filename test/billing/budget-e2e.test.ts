// The monthly cap end to end: parallel chat completions against a budget that covers exactly one
// request, on one API instance and across two sharing Redis. At most one is answered, the rest
// get 402 budget_exceeded, and the recorded spend stays within the cap. A stream that outlasts the
// reservation TTL keeps its reservation; a reply billed beyond its reservation is flagged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promptTokenBound } from '../../src/gateway/tokens.js';
import { FAKE_PRICES, fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const messages = [{ role: 'user' as const, content: 'Say hello' }];
const MAX_TOKENS = 100;
/** What the gateway reserves for one request: the prompt's token bound plus max_tokens at the model's prices. */
const ONE_REQUEST = (promptTokenBound({ messages }) * FAKE_PRICES.inputPricePer1M + MAX_TOKENS * FAKE_PRICES.outputPricePer1M) / 1_000_000;

let upstream: FakeUpstream;
let gatewayConfig: string;
let stack: Stack;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  // Slow enough that all requests hold their reservations at once; usage below the worst case.
  upstream.setDefault({ latencyMs: 300, usage: { input: 1, output: 3 } });
  gatewayConfig = writeGatewayConfig(fakeGatewayConfig({ primary: upstream }));
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: gatewayConfig } });
});
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

async function budgetForOneRequest(org: TestOrganization, on: Stack = stack): Promise<void> {
  const res = await call(on.baseUrl, 'PUT', '/billing/budget', { key: org.owner.key, body: { monthlyCap: ONE_REQUEST } });
  expect(res.status).toBe(200);
}

async function completions(baseUrls: string[], org: TestOrganization, count: number) {
  const responses = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      call<any>(baseUrls[i % baseUrls.length]!, 'POST', '/chat/completions', {
        key: org.member.key,
        body: { model: 'fake-model', messages, max_tokens: MAX_TOKENS },
      }),
    ),
  );
  return {
    ok: responses.filter((res) => res.status === 200),
    refused: responses.filter((res) => res.status === 402),
    other: responses.filter((res) => res.status !== 200 && res.status !== 402).map((res) => [res.status, res.text]),
  };
}

async function expectRecordedSpend(org: TestOrganization, cost: number): Promise<void> {
  const usage = await waitFor(async () => {
    const res = await call<any>(stack.baseUrl, 'GET', '/billing/usage', { key: org.owner.key });
    return res.body.totals.requests === 1 ? res.body : undefined;
  }, { what: 'the usage record' });
  expect(usage.totals.estimatedCost).toBeCloseTo(cost, 9);
}

async function expectRecordedSpendWithinCap(org: TestOrganization, answered: number, on: Stack = stack): Promise<void> {
  const usage = await waitFor(
    async () => {
      const res = await call<any>(on.baseUrl, 'GET', '/billing/usage', { key: org.owner.key });
      return res.body.totals.requests === answered ? res.body : undefined;
    },
    { what: 'the usage record of the answered request' },
  );
  expect(usage.totals.estimatedCost).toBeGreaterThan(0);
  expect(usage.totals.estimatedCost).toBeLessThanOrEqual(ONE_REQUEST);
  expect(usage.budgetCap).toBeCloseTo(ONE_REQUEST, 9);
  expect(usage.budgetRemaining).toBeGreaterThanOrEqual(0);
}

describe('budget cap on chat completions', () => {
  it('answers at most one of 20 parallel requests when the budget covers one; the others get 402 budget_exceeded', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    await budgetForOneRequest(org);

    const { ok, refused, other } = await completions([stack.baseUrl], org, 20);

    expect(other).toEqual([]);
    expect(ok.length).toBeLessThanOrEqual(1);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const res of refused) expect(res.body.error).toMatchObject({ code: 'budget_exceeded', type: 'insufficient_quota' });
    expect(upstream.requests.length).toBeGreaterThanOrEqual(1);
    await expectRecordedSpendWithinCap(org, 1);
  });

  it('holds the same line across two API instances sharing Redis', async (context) => {
    if (stack.runtime.shared.kind !== 'redis') context.skip();
    const second = await startStack({ worker: false, shareWith: stack, env: { GATEWAY_CONFIG: gatewayConfig } });
    try {
      const org = await createTestOrganization(stack.runtime.orm);
      await budgetForOneRequest(org);

      const { ok, refused, other } = await completions([stack.baseUrl, second.baseUrl], org, 20);

      expect(other).toEqual([]);
      expect(ok.length).toBeLessThanOrEqual(1);
      expect(ok).toHaveLength(1);
      expect(refused).toHaveLength(19);
      await expectRecordedSpendWithinCap(org, 1);
    } finally {
      await second.stop();
    }
  });

  it('flags an answer whose reported usage passes its reservation, and records the real cost', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    upstream.enqueue({ usage: { input: 1, output: MAX_TOKENS * 50 } }); // a provider ignoring max_tokens
    const billed = (1 * FAKE_PRICES.inputPricePer1M + MAX_TOKENS * 50 * FAKE_PRICES.outputPricePer1M) / 1_000_000;

    expect((await completions([stack.baseUrl], org, 1)).ok).toHaveLength(1);

    const warning = await waitFor(
      async () => stack.logs.map((line) => JSON.parse(line)).find((line) => line.organizationId === org.id && /above its reservation/.test(line.msg)),
      { what: 'the overrun warning' },
    );
    expect(warning.reserved).toBeCloseTo(ONE_REQUEST, 9);
    expect(warning.actual).toBeCloseTo(billed, 9);
    await expectRecordedSpend(org, billed);
  });

  it('refuses a request the remaining budget cannot cover, and serves it again once the cap is lifted', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    await budgetForOneRequest(org);
    expect((await completions([stack.baseUrl], org, 1)).ok).toHaveLength(1);

    expect((await completions([stack.baseUrl], org, 1)).refused).toHaveLength(1);
    await call(stack.baseUrl, 'PUT', '/billing/budget', { key: org.owner.key, body: { monthlyCap: null } });
    expect((await completions([stack.baseUrl], org, 1)).ok).toHaveLength(1);
  });
});

describe('a stream longer than the reservation TTL', () => {
  it('keeps its reservation while it runs, so a request arriving after the TTL is still refused', async () => {
    const short = await startStack({ worker: false, shareWith: stack, env: { GATEWAY_CONFIG: gatewayConfig, BUDGET_RESERVATION_TTL_SECONDS: '2' } });
    try {
      // On `short`'s database: the run's PostgreSQL database, or its own in-memory PGlite.
      const org = await createTestOrganization(short.runtime.orm);
      await budgetForOneRequest(org, short);
      const words = Array.from({ length: 12 }, (_, i) => `w${i}`);
      upstream.enqueue({ content: words.join(' '), chunkDelayMs: 250 }); // ~3.5 s, past the 2 s TTL
      const response = await fetch(`${short.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.member.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fake-model', messages, max_tokens: MAX_TOKENS, stream: true }),
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let received = '';
      const readUntil = async (done: () => boolean) => {
        while (!done()) {
          const next = await reader.read();
          if (next.done) break;
          received += decoder.decode(next.value, { stream: true });
        }
      };
      const startedAt = performance.now();
      // Ten words streamed 250 ms apart: the reservation is older than its 2 s TTL by now.
      await readUntil(() => received.includes(' w9"'));
      expect(performance.now() - startedAt).toBeGreaterThan(2000);

      const second = await completions([short.baseUrl], org, 1);

      expect(second.refused).toHaveLength(1);
      await readUntil(() => false);
      expect(received.trimEnd().endsWith('data: [DONE]')).toBe(true);
      expect(received).not.toContain('"error"');
      await expectRecordedSpendWithinCap(org, 1, short);
    } finally {
      await short.stop();
    }
  }, 120_000); // a stack of its own starts first (a fresh in-memory PGlite on the embedded defaults)
});
