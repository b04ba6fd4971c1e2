// The console's API key sign-in (POST /v1/auth/api-key), attacker first: a limited child key, a
// member's key, a revoked key or a malformed one never becomes a session; the refusal of a valid
// key is audited; the exchange is limited per client address like the other sign-ins; a foreign
// Origin is refused. Then the way it should work: an owner's or admin's key without limits opens
// a session (cookie only, the key is not echoed back), audited with method api_key, and the
// session ends the moment the key is revoked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type HttpResult } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const SIGN_IN_PER_MINUTE = 30;
let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ worker: false, env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: String(SIGN_IN_PER_MINUTE) } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => stack?.stop());

/** Each call from its own client address (X-Forwarded-For is not trusted here, so all share 127.0.0.1). */
function exchange(apiKey: unknown, headers: Record<string, string> = {}): Promise<HttpResult<any>> {
  return call(stack.baseUrl, 'POST', '/auth/api-key', { body: { apiKey }, headers });
}

function sessionCookie(res: HttpResult): string | undefined {
  const match = /svc_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '');
  return match ? `svc_session=${match[1]}` : undefined;
}

async function createKey(creatorKey: string, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const res = await call(stack.baseUrl, 'POST', '/api-keys', { key: creatorKey, body: { name: `console ${Math.random()}`, ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function auditActions(): Promise<Array<{ action: string; metadata: Record<string, unknown>; actorApiKeyId?: string | null }>> {
  const res = await call(stack.baseUrl, 'GET', '/audit-logs?limit=100', { key: org.owner.key });
  expect(res.status).toBe(200);
  return res.body.auditLogs;
}

describe('POST /v1/auth/api-key refuses what must not become a session', () => {
  it('returns 403 for a child key with a monthly budget, and audits the refusal', async () => {
    const child = await createKey(org.owner.key, { monthlyBudget: 5 });
    const res = await exchange(child.key);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect(sessionCookie(res)).toBeUndefined();
    const refused = (await auditActions()).filter((e) => e.action === 'user.sign_in_refused');
    expect(refused.some((e) => e.metadata.method === 'api_key')).toBe(true);
  });

  it('returns 403 for keys limited by models, rate or mcpTools', async () => {
    for (const limits of [{ models: ['standard'] }, { rateLimitPerMinute: 10 }, { mcpTools: ['fs__*'] }]) {
      const key = await createKey(org.admin.key, limits);
      const res = await exchange(key.key);
      expect(res.status, JSON.stringify(limits)).toBe(403);
      expect(sessionCookie(res)).toBeUndefined();
    }
  });

  it('returns 403 for a key created without limits under a limited key (it inherits them)', async () => {
    const limited = await createKey(org.owner.key, { rateLimitPerMinute: 100 });
    const grandchild = await createKey(limited.key, {});
    const res = await exchange(grandchild.key);
    expect(res.status).toBe(403);
  });

  it("returns 403 for a member's key, however unlimited", async () => {
    const res = await exchange(org.member.key);
    expect(res.status).toBe(403);
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('returns 401 for a revoked key, an unknown key and a malformed one; 400 without apiKey', async () => {
    const revoked = await createKey(org.owner.key, {});
    expect((await call(stack.baseUrl, 'DELETE', `/api-keys/${revoked.id}`, { key: org.owner.key })).status).toBe(204);
    expect((await exchange(revoked.key)).status).toBe(401);
    expect((await exchange(`svc_live_${'A'.repeat(40)}`)).status).toBe(401);
    expect((await exchange('not a key')).status).toBe(401);
    const missing = await call(stack.baseUrl, 'POST', '/auth/api-key', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.param).toBe('apiKey');
  });

  it('returns 403 for a foreign Origin, before looking at the key', async () => {
    const res = await exchange(org.owner.key, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(sessionCookie(res)).toBeUndefined();
  });
});

describe('POST /v1/auth/api-key with an unlimited owner or admin key', () => {
  it('sets a session cookie, does not return the key, and audits user.signed_in with method api_key', async () => {
    const key = await createKey(org.admin.key, {});
    const res = await exchange(key.key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.user.email).toBe(org.admin.email);
    expect(res.text).not.toContain(key.key);
    const cookie = sessionCookie(res)!;
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    const me = await call(stack.baseUrl, 'GET', '/users/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body.role).toBe('admin');
    const signedIn = (await auditActions()).find((e) => e.action === 'user.signed_in' && e.metadata.apiKeyId === key.id);
    expect(signedIn?.metadata.method).toBe('api_key');
  });

  it('ends the session when the key is revoked', async () => {
    const key = await createKey(org.owner.key, {});
    const cookie = sessionCookie(await exchange(key.key))!;
    expect((await call(stack.baseUrl, 'GET', '/users/me', { headers: { cookie } })).status).toBe(200);
    expect((await call(stack.baseUrl, 'DELETE', `/api-keys/${key.id}`, { key: org.owner.key })).status).toBe(204);
    expect((await call(stack.baseUrl, 'GET', '/users/me', { headers: { cookie } })).status).toBe(401);
    expect((await call(stack.baseUrl, 'GET', '/users/me', { headers: { cookie } })).status).toBe(401);
  });

  it('is limited per client address with the other sign-ins: 429 once the minute is spent', async () => {
    let last: HttpResult<any> | undefined;
    for (let i = 0; i <= SIGN_IN_PER_MINUTE; i++) {
      last = await exchange('not a key');
      if (last.status === 429) break;
    }
    expect(last?.status).toBe(429);
    expect(last?.body.error.code).toBe('rate_limited');
    // The limit is per address, not per endpoint: a password sign-in from the same address is refused too.
    const login = await call(stack.baseUrl, 'POST', '/auth/login', { body: { email: org.owner.email, password: 'whatever-it-is' } });
    expect(login.status).toBe(429);
  });
});
