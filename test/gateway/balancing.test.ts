// Weighted targets and circuit breakers shared by instances, through the official openai client:
// 1,000 requests over 3:1 weights land within 5% of 750/250; an open circuit takes its target
// out of the draw; a circuit opened by one API instance is open on the other (Redis pub/sub).
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const COOLDOWN_MS = 60_000;
let stack: Stack;
/** A second API instance on the same database and Redis: the breakers travel between them through Redis. */
let second: Stack | undefined;
/** Instances share breakers through Redis, and keys through PostgreSQL: neither exists on the embedded defaults. */
const SHARED = Boolean(inject('redisUrl') && inject('databaseUrl'));
let org: TestOrganization;
let primary: FakeUpstream;
let backup: FakeUpstream;
let client: OpenAI;
const clock = new ManualClock(new Date('2026-11-25T03:00:00Z'));

beforeAll(async () => {
  [primary, backup] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  const config = fakeGatewayConfig({ primary, backup, breaker: { failureThreshold: 2, cooldownMs: COOLDOWN_MS } });
  (config.models as Record<string, unknown>[]).push({
    id: 'weighted-model',
    targets: [
      { provider: 'primary', upstreamModel: 'gpt-fake-mini', weight: 3 },
      { provider: 'backup', upstreamModel: 'gpt-fake-backup', weight: 1 },
    ],
  });
  // 1,000 requests in a few seconds from one key: above the default per-key limit.
  const env = { GATEWAY_CONFIG: writeGatewayConfig(config), RATE_LIMIT_PER_KEY_PER_MINUTE: '100000', RATE_LIMIT_PER_ORG_PER_MINUTE: '100000' };
  stack = await startStack({ worker: false, clock, env });
  if (SHARED) second = await startStack({ worker: false, clock, env, shareWith: stack });
  org = await createTestOrganization(stack.runtime.orm);
  client = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
});
beforeEach(() => clock.advance(5 * COOLDOWN_MS)); // every circuit closed again
afterEach(() => {
  primary.reset();
  backup.reset();
});
afterAll(async () => {
  await second?.stop();
  await stack?.stop();
  await Promise.all([primary?.close(), backup?.close()]);
});

const hello = [{ role: 'user' as const, content: 'Say hello' }];

/** Sends `count` requests, `parallel` at a time; every one must succeed. */
async function send(count: number, model: string, using = client, parallel = 16): Promise<void> {
  for (let sent = 0; sent < count; sent += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - sent) }, () => using.chat.completions.create({ model, messages: hello, max_tokens: 20 }));
    for (const answer of await Promise.all(batch)) expect(answer.choices[0]?.message.content).toBeTruthy();
  }
}

describe('weighted targets', () => {
  it('spreads 1,000 requests 3:1 within 5%', async () => {
    await send(1000, 'weighted-model');
    expect(primary.requests.length + backup.requests.length).toBe(1000);
    expect(primary.requests.length).toBeGreaterThanOrEqual(700);
    expect(primary.requests.length).toBeLessThanOrEqual(800);
  }, 180_000); // 1,000 requests on a loaded 2-core machine

  it('leaves a target whose circuit is open out of the draw', async () => {
    primary.setDefault({ status: 500 });
    // Until the circuit opens, failed calls to primary fail over to backup (still answered).
    await waitFor(async () => {
      await send(1, 'weighted-model', client, 1);
      return !stack.runtime.gateway.targetAvailable('primary/gpt-fake-mini');
    }, { what: 'the primary circuit to open' });
    const triedPrimary = primary.requests.length;
    expect(triedPrimary).toBe(2);
    await send(100, 'weighted-model');
    expect(primary.requests.length).toBe(triedPrimary);
  });
});

function secondInstance(): Stack {
  if (!second) throw new Error('no second instance: these tests need PostgreSQL and Redis');
  return second;
}

describe.skipIf(!SHARED)('circuit breakers shared by instances', () => {
  it('skips on one instance a target whose circuit the other opened', async () => {
    const second = secondInstance();
    const elsewhere = new OpenAI({ apiKey: org.member.key, baseURL: second.baseUrl, maxRetries: 0 });
    // A success first: the earlier test's failures are still counted (half-open), here and there.
    await send(1, 'fake-model', client, 1);
    primary.setDefault({ status: 503 });
    await send(2, 'fake-model', client, 1);
    expect(primary.requests).toHaveLength(3);
    expect(stack.runtime.gateway.targetAvailable('primary/gpt-fake-mini')).toBe(false);
    await waitFor(async () => !second.runtime.gateway.targetAvailable('primary/gpt-fake-mini'), { what: 'the event on the second instance' });
    await send(5, 'fake-model', elsewhere, 1);
    expect(primary.requests).toHaveLength(3);
    expect(backup.requests).toHaveLength(7);
    // Recovery travels too: a success on the first instance after the cooldown closes it on both.
    primary.setDefault({});
    clock.advance(COOLDOWN_MS);
    await send(1, 'fake-model', client, 1);
    primary.setDefault({ status: 503 });
    await send(1, 'fake-model', elsewhere, 1);
    // One failure after the reset stays below the threshold of 2 on both instances; without the
    // shared reset, the second would count a third failure and stay open for good.
    for (const instance of [stack, second]) {
      await waitFor(async () => instance.runtime.gateway.targetAvailable('primary/gpt-fake-mini'), { what: 'the circuit closed on both' });
    }
  });
});
