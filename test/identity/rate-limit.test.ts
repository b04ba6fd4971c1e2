// Rate limits on the real stack: counted atomically in Redis across API instances, per key and
// per organization, with X-RateLimit-* headers on every authenticated response and Retry-After
// on 429. (Without REDIS_URL each instance counts alone, so the two-instance case needs Redis.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { createTestOrganization, createTestUser } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const PER_KEY = 7;
const PER_ORG = 12;
let stack: Stack;
let second: Stack;

beforeAll(async () => {
  const env = { RATE_LIMIT_PER_KEY_PER_MINUTE: String(PER_KEY), RATE_LIMIT_PER_ORG_PER_MINUTE: String(PER_ORG) };
  stack = await startStack({ worker: false, env });
  // Two instances share counters only through Redis (and users only through PostgreSQL).
  const sharesState = Boolean(stack.config.DATABASE_URL && stack.config.REDIS_URL);
  second = sharesState ? await startStack({ worker: false, env, shareWith: stack }) : stack;
});
afterAll(async () => {
  if (second !== stack) await second?.stop();
  await stack?.stop();
});

const instances = () => (second === stack ? [stack] : [stack, second]);

describe('per-key limit', () => {
  it('lets exactly the limit through among parallel requests spread over two API instances', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    // PER_ORG requests from one key: the organization limit is reached, not exceeded, so only the
    // key limit can reject.
    const results = await Promise.all(
      Array.from({ length: PER_ORG }, (_, i) => call(instances()[i % instances().length]!.baseUrl, 'GET', '/users/me', { key: org.member.key })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(PER_KEY);
    expect(statuses.filter((s) => s === 429)).toHaveLength(PER_ORG - PER_KEY);

    for (const ok of results.filter((r) => r.status === 200)) {
      // The tighter of the two limits is reported; which one depends on the order of arrival.
      const limit = Number(ok.headers.get('x-ratelimit-limit'));
      expect([PER_KEY, PER_ORG]).toContain(limit);
      expect(Number(ok.headers.get('x-ratelimit-remaining'))).toBeLessThan(limit);
      expect(Number(ok.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    }

    const limited = results.find((r) => r.status === 429)!;
    expect(limited.body.error).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
    expect(limited.headers.get('x-ratelimit-limit')).toBe(String(PER_KEY));
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-ratelimit-reset')).toBe(String(retryAfter));
  });

  it('counts each key on its own', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    for (let i = 0; i < PER_KEY; i++) await call(stack.baseUrl, 'GET', '/users/me', { key: org.member.key });
    expect((await call(stack.baseUrl, 'GET', '/users/me', { key: org.member.key })).status).toBe(429);
    expect((await call(stack.baseUrl, 'GET', '/users/me', { key: org.admin.key })).status).toBe(200);
  });

  it('puts the headers on error responses of authenticated requests too', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const res = await call(stack.baseUrl, 'GET', '/users', { key: org.member.key });
    expect(res.status).toBe(403);
    expect(res.headers.get('x-ratelimit-limit')).toBe(String(PER_KEY));
  });
});

describe('per-organization limit', () => {
  it('caps all keys of an organization together, across instances', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const extra = await createTestUser(stack.runtime.orm, org.id, 'member');
    const keys = [org.owner.key, org.admin.key, org.member.key, extra.key];
    // 4 keys x 4 requests = 16 > PER_ORG (12); no key reaches PER_KEY (7), so only the organization limit rejects.
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => call(instances()[i % instances().length]!.baseUrl, 'GET', '/users/me', { key: keys[i % keys.length] })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(PER_ORG);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(16 - PER_ORG);
    expect(limited[0]!.headers.get('x-ratelimit-limit')).toBe(String(PER_ORG));
  });

  it('does not charge the organization for requests a key limit rejects: one noisy key cannot lock out the others', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    // 3 x PER_KEY requests from one key (more than PER_ORG): PER_KEY admitted, the rest rejected by the key limit.
    const noisy = await Promise.all(
      Array.from({ length: 3 * PER_KEY }, (_, i) => call(instances()[i % instances().length]!.baseUrl, 'GET', '/users/me', { key: org.member.key })),
    );
    expect(noisy.filter((r) => r.status === 200)).toHaveLength(PER_KEY);
    for (const rejected of noisy.filter((r) => r.status === 429)) expect(rejected.headers.get('x-ratelimit-limit')).toBe(String(PER_KEY));

    // Another key of the organization finds the organization's quota lowered only by the admitted ones.
    const other = await call(second.baseUrl, 'GET', '/users/me', { key: org.admin.key });
    expect(other.status).toBe(200);
    // PER_ORG - PER_KEY - 1 (4) is below the admin key's own PER_KEY - 1 (6): the headers report the organization.
    const orgRemaining = PER_ORG - PER_KEY - 1;
    expect(other.headers.get('x-ratelimit-limit')).toBe(String(PER_ORG));
    expect(other.headers.get('x-ratelimit-remaining')).toBe(String(orgRemaining));
  });
});
