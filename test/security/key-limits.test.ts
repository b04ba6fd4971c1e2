// Attacker's tests for SECURITY.md's second round (trust), finding 3: a key with limits (one model, a small budget, a low
// rate) tries to create a key without them. A key created with a key inherits its limits as a
// ceiling: what it does not ask for it inherits, and asking for more is 403 naming the field.
// Then it mints several children, each with the whole ceiling, to multiply its budget and its
// rate: spend and requests through a child count against every key above it, whether the
// counters are warm or loaded again from the database, and revoking the key revokes its children.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BudgetLedger } from '../../src/billing/budget-ledger.js';
import { systemClock } from '../../src/clock.js';
import { createLogger } from '../../src/logger.js';
import { openSharedState } from '../../src/redis.js';
import { authenticateApiKey } from '../../src/identity/authenticate.js';
import { holdOptionsOf } from '../../src/gateway/access.js';
import { FAKE_PRICES, fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let upstream: FakeUpstream;
let org: TestOrganization;
let models: string[];

beforeAll(async () => {
  upstream = await startFakeUpstream();
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })) } });
  org = await createTestOrganization(stack.runtime.orm);
  models = stack.runtime.gateway.models().slice();
});
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

const createKey = (key: string, body: Record<string, unknown>) => call<any>(stack.baseUrl, 'POST', '/api-keys', { key, body: { name: 'k', ...body } });

describe('keys created with a key', () => {
  it('inherit the creating key\'s limits when they ask for none', async () => {
    expect(models.length).toBeGreaterThanOrEqual(2);
    const limited = await createKey(org.member.key, { models: [models[0]], monthlyBudget: 1, rateLimitPerMinute: 30 });
    expect(limited.status, limited.text).toBe(201);
    const child = await createKey(limited.body.key, {});
    expect(child.status, child.text).toBe(201);
    expect(child.body).toMatchObject({ models: [models[0]], monthlyBudget: 1, rateLimitPerMinute: 30 });
    // ... and so does a key the child creates.
    const grandchild = await createKey(child.body.key, { monthlyBudget: 0.5 });
    expect(grandchild.status, grandchild.text).toBe(201);
    expect(grandchild.body).toMatchObject({ models: [models[0]], monthlyBudget: 0.5, rateLimitPerMinute: 30 });
  });

  it('are refused 403 forbidden naming the field when they ask for more than the creating key has', async () => {
    const limited = await createKey(org.member.key, { models: [models[0]], monthlyBudget: 1, rateLimitPerMinute: 30 });
    expect(limited.status, limited.text).toBe(201);
    for (const [body, param] of [
      [{ models: [models[1]] }, 'models'],
      [{ models: [models[0], models[1]] }, 'models'],
      [{ monthlyBudget: 2 }, 'monthlyBudget'],
      [{ rateLimitPerMinute: 31 }, 'rateLimitPerMinute'],
    ] as const) {
      const res = await createKey(limited.body.key, body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'forbidden', param });
    }
    const within = await createKey(limited.body.key, { models: [models[0]], monthlyBudget: 0.25, rateLimitPerMinute: 10 });
    expect(within.status, within.text).toBe(201);
    expect(within.body).toMatchObject({ models: [models[0]], monthlyBudget: 0.25, rateLimitPerMinute: 10 });
  });

  it('a key without limits, and a session, still create keys without limits', async () => {
    const unlimited = await createKey(org.member.key, {});
    expect(unlimited.body).toMatchObject({ models: null, monthlyBudget: null, rateLimitPerMinute: null });
    const child = await createKey(unlimited.body.key, {});
    expect(child.body).toMatchObject({ models: null, monthlyBudget: null, rateLimitPerMinute: null });
  });
});

describe('keys created with a key stay under it', () => {
  const hello = [{ role: 'user', content: 'Say hello' }];
  const chat = (key: string) => call<any>(stack.baseUrl, 'POST', '/chat/completions', { key, body: { model: 'fake-model', messages: hello, max_tokens: 1 } });
  // The fake upstream bills 11 prompt and 7 completion tokens per answer.
  const billed = (11 * FAKE_PRICES.inputPricePer1M + 7 * FAKE_PRICES.outputPricePer1M) / 1_000_000;

  it('N children with the whole budget each spend at most the parent\'s budget together, and the parent is held by their spend', async () => {
    const owner = await createTestOrganization(stack.runtime.orm);
    const budget = 2.5 * billed;
    const parent = await createKey(owner.member.key, { monthlyBudget: budget });
    expect(parent.status, parent.text).toBe(201);
    const children = [];
    for (let i = 0; i < 3; i++) {
      const child = await createKey(parent.body.key, { monthlyBudget: budget });
      expect(child.status, child.text).toBe(201);
      children.push(child.body.key as string);
    }
    // What one key with that budget answers alone (the fake upstream bills past max_tokens, so
    // the last answer may overrun the budget by one worst case; the ledger allows that).
    const control = await createKey(owner.member.key, { monthlyBudget: budget });
    let alone = 0;
    while ((await chat(control.body.key)).status === 200) alone += 1;
    expect(alone).toBeGreaterThanOrEqual(2);
    // Round robin over the children until each is refused: without the parent's budget they would answer 3 x alone.
    let answered = 0;
    const refused = new Set<number>();
    for (let round = 0; round < 2 * alone + 2 && refused.size < children.length; round++) {
      for (const [i, child] of children.entries()) {
        if (refused.has(i)) continue;
        const res = await chat(child);
        if (res.status === 200) answered += 1;
        else {
          expect(res.status, res.text).toBe(402);
          expect(res.body.error).toMatchObject({ code: 'budget_exceeded' });
          refused.add(i);
        }
      }
    }
    expect(refused.size).toBe(children.length);
    expect(answered).toBe(alone);
    // The parent's own budget is what the children spent.
    const own = await chat(parent.body.key);
    expect(own.status, own.text).toBe(402);
  });

  it('loads the spend through a key from the database when the counters are gone (a restart, another instance)', async () => {
    const owner = await createTestOrganization(stack.runtime.orm);
    const parent = await createKey(owner.member.key, { monthlyBudget: 2.5 * billed });
    const child = await createKey(parent.body.key, {});
    const sibling = await createKey(parent.body.key, {});
    expect([parent.status, child.status, sibling.status]).toEqual([201, 201, 201]);
    expect((await chat(child.body.key)).status).toBe(200);
    expect((await chat(child.body.key)).status).toBe(200);
    await waitFor(async () => {
      const res = await call<any>(stack.baseUrl, 'GET', '/billing/usage', { key: owner.owner.key });
      return res.body.totals.requests === 2 || undefined;
    }, { what: 'two usage records' });
    // A ledger with empty counters, as after a restart: it sums the sibling's spend from usage_records.
    const logger = createLogger({ level: 'silent' });
    const shared = await openSharedState({}, logger);
    try {
      const ledger = new BudgetLedger({ orm: stack.runtime.orm, shared, clock: systemClock, logger, reservationTtlMs: 60_000 });
      const caller = await authenticateApiKey(stack.runtime.orm.em.fork(), sibling.body.key);
      expect(caller.keyLimits?.above).toEqual([{ id: parent.body.id, monthlyBudget: 2.5 * billed, rateLimitPerMinute: null }]);
      const options = holdOptionsOf({ apiKeyId: caller.apiKeyId, keyLimits: caller.keyLimits } as Parameters<typeof holdOptionsOf>[0]);
      await expect(ledger.reserve(owner.id, 0.5 * billed + 1e-9, options)).rejects.toMatchObject({ code: 'budget_exceeded' });
      const fits = await ledger.reserve(owner.id, 0.5 * billed - 1e-9, options);
      await ledger.release(fits);
    } finally {
      await shared.close();
    }
  });

  it('N children with the whole rate each answer at most what is left of the parent\'s rate together', async () => {
    const owner = await createTestOrganization(stack.runtime.orm);
    // Creating the three children takes 3 of the parent's 6 requests this minute.
    const parent = await createKey(owner.member.key, { rateLimitPerMinute: 6 });
    const children = [];
    for (let i = 0; i < 3; i++) children.push((await createKey(parent.body.key, {})).body.key as string);
    const statuses = [];
    for (const child of [...children, ...children]) {
      const res = await chat(child);
      statuses.push(res.status);
      if (res.status !== 200) expect(res.status, res.text).toBe(429);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    // The other routes count too.
    const listed = await call<any>(stack.baseUrl, 'GET', '/api-keys', { key: children[0]! });
    expect(listed.status).toBe(429);
  });

  it('revoking a key revokes the keys created under it, at once, and audits them', async () => {
    const owner = await createTestOrganization(stack.runtime.orm);
    const parent = await createKey(owner.member.key, {});
    const child = await createKey(parent.body.key, {});
    const grandchild = await createKey(child.body.key, {});
    const unrelated = await createKey(owner.member.key, {});
    // Warm the credential cache of every key first: revocation must evict it.
    for (const key of [parent, child, grandchild, unrelated]) expect((await call(stack.baseUrl, 'GET', '/api-keys', { key: key.body.key })).status).toBe(200);
    const revoke = await call(stack.baseUrl, 'DELETE', `/api-keys/${parent.body.id}`, { key: owner.member.key });
    expect(revoke.status, revoke.text).toBe(204);
    for (const key of [parent, child, grandchild]) expect((await call(stack.baseUrl, 'GET', '/api-keys', { key: key.body.key })).status).toBe(401);
    expect((await call(stack.baseUrl, 'GET', '/api-keys', { key: unrelated.body.key })).status).toBe(200);
    const audit = await call<any>(stack.baseUrl, 'GET', '/audit-logs?limit=100', { key: owner.owner.key });
    const revocations = audit.body.auditLogs.filter((e: any) => e.action === 'api_key.revoked');
    expect(revocations).toHaveLength(1);
    const [event] = revocations;
    expect(event.targetId).toBe(parent.body.id);
    expect(event?.metadata?.keysCreatedUnder?.sort()).toEqual([child.body.id, grandchild.body.id].sort());
  });
});
