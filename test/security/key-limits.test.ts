// Attacker's tests for issue 29, finding 3: a key with limits (one model, a small budget, a low
// rate) tries to create a key without them. A key created with a key inherits its limits as a
// ceiling: what it does not ask for it inherits, and asking for more is 403 naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let models: string[];

beforeAll(async () => {
  stack = await startStack({ worker: false });
  org = await createTestOrganization(stack.runtime.orm);
  models = stack.runtime.gateway.models().slice();
});
afterAll(async () => {
  await stack?.stop();
});

const createKey = (key: string, body: Record<string, unknown>) => call(stack.baseUrl, 'POST', '/api-keys', { key, body: { name: 'k', ...body } });

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
