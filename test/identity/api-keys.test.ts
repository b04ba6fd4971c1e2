// API keys on the real stack: the raw key is shown once and only its hash is stored, revocation
// is effective on the next request on every API instance, lastUsedAt is kept, and removing a
// user or demoting them applies to their keys at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/identity/api-keys.js';
import { ApiKey } from '../../src/identity/entities.js';
import { disableUser } from '../../src/identity/users.service.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let second: Stack;
let org: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  // A second API instance shares state only on PostgreSQL + Redis; on PGlite and the in-process
  // fallback each stack is alone, so the "other instance" is this one.
  const sharesState = Boolean(stack.config.DATABASE_URL && stack.config.REDIS_URL);
  second = sharesState ? await startStack({ shareWith: stack, worker: false }) : stack;
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  if (second !== stack) await second?.stop();
  await stack?.stop();
});

async function createKey(key: string, name = 'ci'): Promise<{ id: string; key: string; prefix: string }> {
  const res = await call(stack.baseUrl, 'POST', '/api-keys', { key, body: { name } });
  expect(res.status).toBe(201);
  return res.body;
}

describe('POST /api-keys', () => {
  it('returns the raw key once, in the documented format, and stores only its SHA-256', async () => {
    const res = await call(stack.baseUrl, 'POST', '/api-keys', { key: org.member.key, body: { name: 'laptop' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), name: 'laptop', key: expect.stringMatching(/^svc_live_[A-Za-z0-9]{32,}$/), prefix: expect.any(String), createdAt: expect.any(String), models: null, monthlyBudget: null, rateLimitPerMinute: null, mcpTools: null });
    expect(res.body.key.startsWith(res.body.prefix)).toBe(true);

    const stored = await stack.runtime.orm.em.fork().findOneOrFail(ApiKey, { id: res.body.id });
    expect(stored.keyHash).toBe(hashApiKey(res.body.key));

    const list = await call(stack.baseUrl, 'GET', '/api-keys', { key: org.member.key });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(res.body.key);
    expect(list.body.apiKeys.map((k: any) => k.id)).toContain(res.body.id);
  });

  it('works with the new key and rejects unknown or privileged fields', async () => {
    const created = await createKey(org.member.key);
    const me = await call(stack.baseUrl, 'GET', '/users/me', { key: created.key });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(org.member.id);

    const res = await call(stack.baseUrl, 'POST', '/api-keys', { key: org.member.key, body: { name: 'x', organizationId: 'other' } });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('organizationId');
    const missing = await call(stack.baseUrl, 'POST', '/api-keys', { key: org.member.key, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.param).toBe('name');
  });
});

describe('GET /api-keys', () => {
  it('shows a member only their own keys and an admin every key of the organization', async () => {
    const memberKey = await createKey(org.member.key, 'member-only');
    const adminKey = await createKey(org.admin.key, 'admin-only');
    const asMember = await call(stack.baseUrl, 'GET', '/api-keys', { key: org.member.key });
    const memberIds = asMember.body.apiKeys.map((k: any) => k.id);
    expect(memberIds).toContain(memberKey.id);
    expect(memberIds).not.toContain(adminKey.id);
    const asAdmin = await call(stack.baseUrl, 'GET', '/api-keys', { key: org.admin.key });
    expect(asAdmin.body.apiKeys.map((k: any) => k.id)).toEqual(expect.arrayContaining([memberKey.id, adminKey.id]));
    expect(asAdmin.body.total).toBe(asAdmin.body.apiKeys.length);
  });

  it('records lastUsedAt after the key is used', async () => {
    const created = await createKey(org.member.key);
    expect((await call(stack.baseUrl, 'GET', '/users/me', { key: created.key })).status).toBe(200);
    await waitFor(async () => {
      const list = await call(stack.baseUrl, 'GET', '/api-keys', { key: org.member.key });
      return list.body.apiKeys.find((k: any) => k.id === created.id)?.lastUsedAt;
    }, { what: 'lastUsedAt' });
  });
});

describe('DELETE /api-keys/{id}', () => {
  it('revokes a key: the next request with it gets 401 on this and on a second API instance', async () => {
    const created = await createKey(org.member.key);
    // Warm both instances' caches so revocation must evict them.
    expect((await call(stack.baseUrl, 'GET', '/users/me', { key: created.key })).status).toBe(200);
    expect((await call(second.baseUrl, 'GET', '/users/me', { key: created.key })).status).toBe(200);

    const revoke = await call(stack.baseUrl, 'DELETE', `/api-keys/${created.id}`, { key: org.member.key });
    expect(revoke.status).toBe(204);

    const onSecond = await call(second.baseUrl, 'GET', '/users/me', { key: created.key });
    expect(onSecond.status).toBe(401);
    expect(onSecond.body.error.code).toBe('unauthorized');
    expect((await call(stack.baseUrl, 'GET', '/users/me', { key: created.key })).status).toBe(401);

    const listed = await call(stack.baseUrl, 'GET', '/api-keys', { key: org.member.key });
    expect(listed.body.apiKeys.find((k: any) => k.id === created.id).revokedAt).toEqual(expect.any(String));
  });

  it('revokes through the second instance too, effective on the first', async () => {
    const created = await createKey(org.admin.key);
    expect((await call(stack.baseUrl, 'GET', '/users/me', { key: created.key })).status).toBe(200);
    expect((await call(second.baseUrl, 'DELETE', `/api-keys/${created.id}`, { key: org.admin.key })).status).toBe(204);
    expect((await call(stack.baseUrl, 'GET', '/users/me', { key: created.key })).status).toBe(401);
  });

  it("answers 404 when a member revokes another user's key, and the key keeps working", async () => {
    const adminKey = await createKey(org.admin.key);
    const res = await call(stack.baseUrl, 'DELETE', `/api-keys/${adminKey.id}`, { key: org.member.key });
    expect(res.status).toBe(404);
    expect((await call(stack.baseUrl, 'GET', '/users/me', { key: adminKey.key })).status).toBe(200);
  });

  it('answers 400 naming id for a malformed id', async () => {
    const res = await call(stack.baseUrl, 'DELETE', '/api-keys/not-a-uuid', { key: org.member.key });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('id');
  });
});

describe('changes to the key owner', () => {
  it('ends the keys of a removed user at once, on every instance', async () => {
    const user = await createTestUser(stack.runtime.orm, org.id, 'member');
    expect((await call(second.baseUrl, 'GET', '/users/me', { key: user.key })).status).toBe(200);
    expect((await call(stack.baseUrl, 'DELETE', `/users/${user.id}`, { key: org.admin.key })).status).toBe(204);
    expect((await call(second.baseUrl, 'GET', '/users/me', { key: user.key })).status).toBe(401);
    expect((await call(stack.baseUrl, 'GET', '/users/me', { key: user.key })).status).toBe(401);
  });

  it('ends the keys of a disabled user at once, on every instance', async () => {
    const user = await createTestUser(stack.runtime.orm, org.id, 'member');
    expect((await call(second.baseUrl, 'GET', '/users/me', { key: user.key })).status).toBe(200);
    const owner = { organizationId: org.id, userId: org.owner.id, email: org.owner.email, role: 'owner' as const, via: 'api_key' as const };
    const disabled = await disableUser({ em: stack.runtime.orm.em.fork(), clock: stack.runtime.clock, credentials: stack.runtime.credentials, caller: owner }, user.id);
    expect(disabled.user.status).toBe('disabled');
    expect((await call(second.baseUrl, 'GET', '/users/me', { key: user.key })).status).toBe(401);
    const listed = await call(stack.baseUrl, 'GET', '/users', { key: org.admin.key });
    expect(listed.body.users.find((u: any) => u.id === user.id).status).toBe('disabled');
  });

  it('applies a demotion to the user’s keys on the next request', async () => {
    const admin = await createTestUser(stack.runtime.orm, org.id, 'admin');
    expect((await call(second.baseUrl, 'GET', '/users', { key: admin.key })).status).toBe(200);
    const demote = await call(stack.baseUrl, 'PUT', `/users/${admin.id}/role`, { key: org.owner.key, body: { role: 'member' } });
    expect(demote.status).toBe(200);
    expect(demote.body.role).toBe('member');
    expect((await call(second.baseUrl, 'GET', '/users', { key: admin.key })).status).toBe(403);
  });
});

describe('audit log', () => {
  it('records key creation and revocation, newest first, without the key', async () => {
    const created = await createKey(org.admin.key, 'audited');
    await call(stack.baseUrl, 'DELETE', `/api-keys/${created.id}`, { key: org.admin.key });
    const res = await call(stack.baseUrl, 'GET', '/audit-logs?limit=2', { key: org.admin.key });
    expect(res.status).toBe(200);
    expect(res.body.auditLogs.map((e: any) => e.action)).toEqual(['api_key.revoked', 'api_key.created']);
    expect(res.body.auditLogs[0]).toMatchObject({ targetType: 'api_key', targetId: created.id, actorUserId: org.admin.id });
    expect(res.body.total).toBeGreaterThanOrEqual(2);
    expect(res.text).not.toContain(created.key);
    const page2 = await call(stack.baseUrl, 'GET', '/audit-logs?limit=1&offset=1', { key: org.admin.key });
    expect(page2.body.auditLogs[0].id).toBe(res.body.auditLogs[1].id);
    expect((await call(stack.baseUrl, 'GET', '/audit-logs?limit=0', { key: org.admin.key })).body.error.param).toBe('limit');
  });
});
