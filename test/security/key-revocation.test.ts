// Attacker's tests for SECURITY.md's third round (bounded work and billing), finding 4: revocation is final. A holder of key P starts many
// key creations with P and races them against P's revocation, hoping a child commits after the
// revocation has read the keys under P (an active child, missing from the audit). And a key
// whose ancestor is revoked while its own row is not (a row from before the fix, or a race)
// must not authenticate, whether it is read from the database or served from the cache. A key a
// user creates in a browser session while an admin disables them ends with the user's other keys,
// so re-enabling the user does not bring it back.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiKey } from '../../src/identity/api-keys.service.js';
import { authenticateApiKey } from '../../src/identity/authenticate.js';
import type { Caller } from '../../src/identity/caller.js';
import { ApiKey } from '../../src/identity/entities.js';
import { disableUser, setUserStatus } from '../../src/identity/users.service.js';
import { call, waitFor, type HttpResult } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.stop();
});

const createKey = (key: string, name = 'k') => call<any>(stack.baseUrl, 'POST', '/api-keys', { key, body: { name } });
const useKey = (key: string) => call<any>(stack.baseUrl, 'GET', '/api-keys', { key });
const revokeKey = (org: TestOrganization, id: string) => call(stack.baseUrl, 'DELETE', `/api-keys/${id}`, { key: org.member.key });

async function keysCreatedUnder(org: TestOrganization, revokedId: string): Promise<string[]> {
  const audit = await call<any>(stack.baseUrl, 'GET', '/audit-logs?limit=200', { key: org.owner.key });
  expect(audit.status, audit.text).toBe(200);
  const revocations = audit.body.auditLogs.filter((e: any) => e.action === 'api_key.revoked' && e.targetId === revokedId);
  expect(revocations).toHaveLength(1);
  return revocations[0].metadata.keysCreatedUnder ?? [];
}

/** Settles once `count` of the requests have answered. */
function answered(requests: Array<Promise<HttpResult<any>>>, count: number): Promise<void> {
  if (count === 0) return Promise.resolve();
  let settled = 0;
  return new Promise((resolve) => {
    for (const request of requests) {
      const one = () => ++settled === count && resolve();
      request.then(one, one);
    }
  });
}

/** How many transactions of this run's database wait on a row lock in a statement starting with `statement`. */
async function lockWaiters(statement: string): Promise<number> {
  const rows = await stack.runtime.orm.em.fork().getConnection().execute<{ n: number }[]>(
    `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike ?`,
    [`${statement}%`],
  );
  return Number(rows[0]?.n);
}

/** Waits until `count` transactions of this run's database wait to lock a key's line (key-locks.ts). */
async function waitForKeyLockWaiters(count: number): Promise<void> {
  await waitFor(async () => (await lockWaiters('select k."id", k."revoked_at" from "api_keys" k')) >= count, { what: `${count} transactions waiting on the key's row` });
}

describe('revocation is final', () => {
  it('a key created with a key in flight while that key is revoked is never active', async () => {
    // Embedded PGlite runs one transaction at a time: there the rounds check the outcome, not the race.
    const rounds = inject('databaseUrl') ? 6 : 2;
    const perRound = 8;
    for (let round = 0; round < rounds; round++) {
      const org = await createTestOrganization(stack.runtime.orm);
      const parent = await createKey(org.member.key, 'parent');
      const child = await createKey(parent.body.key, 'child');
      expect([parent.status, child.status], child.text).toEqual([201, 201]);
      // Both keys authenticate from the cache, so the creations reach their transaction at once.
      for (const key of [parent, child]) expect((await useKey(key.body.key)).status).toBe(200);

      // Half the creations use P, half a key created under P; P's revocation starts once a
      // different number of them has answered each round, so it lands all along the stream.
      const creating = Array.from({ length: perRound }, (_, i) => createKey(i % 2 ? child.body.key : parent.body.key, `racer-${i}`));
      const revocation = answered(creating, round % (perRound / 2)).then(() => revokeKey(org, parent.body.id));
      const [revoked, ...answers] = await Promise.all([revocation, ...creating]);
      expect(revoked.status, revoked.text).toBe(204);

      const under = await keysCreatedUnder(org, parent.body.id);
      expect(under).toContain(child.body.id);
      for (const answer of answers) {
        if (answer.status === 401) {
          expect(answer.body.error).toMatchObject({ code: 'unauthorized' });
          continue;
        }
        expect(answer.status, answer.text).toBe(201);
        expect(under, `round ${round}: ${answer.body.id} created under P is missing from the revocation's audit`).toContain(answer.body.id);
        expect((await useKey(answer.body.key)).status, `round ${round}: a key created with P still works after P was revoked`).toBe(401);
      }
      // A refused creation created nothing: every key of the organization's member is either revoked or the member's own.
      const active = await stack.runtime.orm.em.fork().find(ApiKey, { organization: org.id, revokedAt: null });
      expect(active.map((key) => key.name).sort()).toEqual(['admin key', 'member key', 'owner key']);
    }
  }, 120_000);

  it.skipIf(!inject('databaseUrl'))('a creation that reaches its transaction after the revocation of its key is refused 401 and creates nothing (PostgreSQL)', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const parent = await createKey(org.member.key, 'parent');
    const child = await createKey(parent.body.key, 'child');
    for (const key of [parent, child]) expect((await useKey(key.body.key)).status).toBe(200);
    // Hold P's row so the revocation waits first in line, then the creations behind it (they
    // authenticated from the cache: the revocation has not evicted P yet).
    const connection = stack.runtime.orm.em.fork().getConnection();
    const trx = await connection.begin();
    let revocation: Promise<HttpResult>;
    let creations: Array<Promise<HttpResult<any>>>;
    try {
      await connection.execute('select "id" from "api_keys" where "id" = ? for update', [parent.body.id], 'all', trx);
      revocation = revokeKey(org, parent.body.id);
      await waitForKeyLockWaiters(1);
      creations = [createKey(parent.body.key, 'late-1'), createKey(child.body.key, 'late-2')];
      await waitForKeyLockWaiters(3);
    } finally {
      await connection.rollback(trx);
    }
    expect((await revocation).status).toBe(204);
    for (const res of await Promise.all(creations)) {
      expect(res.status, res.text).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'unauthorized' });
    }
    expect(await keysCreatedUnder(org, parent.body.id)).toEqual([child.body.id]);
    const active = await stack.runtime.orm.em.fork().find(ApiKey, { organization: org.id, name: { $like: 'late-%' } });
    expect(active).toEqual([]);
  });

  it.skipIf(!inject('databaseUrl'))("a key created in a browser session while its user is disabled is revoked with the user's keys: re-enabling the user brings back none (PostgreSQL)", async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const member = await createTestUser(stack.runtime.orm, org.id, 'member');
    const context = (caller: Caller) => ({ em: stack.runtime.orm.em.fork(), clock: stack.runtime.clock, credentials: stack.runtime.credentials, caller });
    const session: Caller = { organizationId: org.id, userId: member.id, email: member.email, role: 'member', via: 'session' };
    const owner: Caller = { organizationId: org.id, userId: org.owner.id, email: org.owner.email, role: 'owner', via: 'api_key' };
    // Hold the organization's row, which the creation's quota check locks after it has begun:
    // the creation is in flight (authenticated, its transaction open) when the disable starts.
    const connection = stack.runtime.orm.em.fork().getConnection();
    const trx = await connection.begin();
    let creation: Promise<unknown>;
    let disabling: Promise<unknown>;
    try {
      // (for no key update: the disable's audit row still takes its key share of the organization.)
      await connection.execute('select "id" from "organizations" where "id" = ? for no key update', [org.id], 'all', trx);
      creation = createApiKey(context(session), { name: 'in flight' }, stack.runtime.config, stack.runtime.gateway.models()).catch((error: unknown) => error);
      await waitFor(async () => (await lockWaiters('select "id" from "organizations"')) >= 1, { what: 'the creation waiting on the organization' });
      let disabled = false;
      disabling = disableUser(context(owner), member.id).finally(() => (disabled = true));
      // The disable either waits for the creation (the user's row) or, without that lock, commits before the key exists.
      await waitFor(async () => disabled || (await lockWaiters('update "users"')) >= 1, { what: 'the disable to wait or finish' });
    } finally {
      await connection.rollback(trx);
    }
    await Promise.all([creation, disabling]);
    await setUserStatus(context(owner), member.id, 'active');
    const active = await stack.runtime.orm.em.fork().find(ApiKey, { user: member.id, revokedAt: null });
    expect(active.map((key) => key.name)).toEqual([]);
  });

  it('a key whose ancestor is revoked does not authenticate, from the database or from the cache', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const parent = await createKey(org.member.key, 'parent');
    const child = await createKey(parent.body.key, 'child');
    const grandchild = await createKey(child.body.key, 'grandchild');
    const neverUsed = await createKey(parent.body.key, 'never used');
    expect([parent, child, grandchild, neverUsed].map((res) => res.status)).toEqual([201, 201, 201, 201]);
    // Cached on this instance before the change.
    for (const key of [child, grandchild]) expect((await useKey(key.body.key)).status).toBe(200);

    // As a row from before the fix (or a lost race) would look: the parent revoked, the keys under it not.
    const em = stack.runtime.orm.em.fork();
    expect(await em.nativeUpdate(ApiKey, { id: parent.body.id }, { revokedAt: new Date() })).toBe(1);
    const under = await em.find(ApiKey, { id: { $in: [child.body.id, grandchild.body.id, neverUsed.body.id] } });
    expect(under.map((key) => key.revokedAt)).toEqual([null, null, null]);

    // Read from the database: refused.
    expect((await useKey(neverUsed.body.key)).status).toBe(401);
    await expect(authenticateApiKey(stack.runtime.orm.em.fork(), child.body.key)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(authenticateApiKey(stack.runtime.orm.em.fork(), grandchild.body.key)).rejects.toMatchObject({ code: 'unauthorized' });
    // Cached: the eviction revocation sends for the parent evicts every key under it too.
    await stack.runtime.credentials.invalidate({ apiKeyId: parent.body.id });
    for (const key of [child, grandchild]) {
      const res = await useKey(key.body.key);
      expect(res.status, res.text).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'unauthorized' });
    }
    // A key of the same member outside that line is untouched.
    expect((await useKey(org.member.key)).status).toBe(200);
  });
});
