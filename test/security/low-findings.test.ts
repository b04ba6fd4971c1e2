// Attacker's tests for SECURITY.md's second round (trust), finding 9 (the low items): an admin revoking another admin's
// key; an ownership transfer racing a disable of the new owner; an IPv6 client escaping per-IP
// limits by rotating addresses inside its /64; /readyz telling anonymous callers what failed.
import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { User } from '../../src/identity/entities.js';
import { hashPassword } from '../../src/identity/passwords.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let behindProxy: Stack;
let broken: Stack;
let org: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  behindProxy = await startStack({ worker: false, env: { TRUST_PROXY: '127.0.0.1,::1,::ffff:127.0.0.1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '3' } });
  broken = await startStack({ worker: false });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await behindProxy?.stop();
  await broken?.stop().catch(() => {});
});

const api = (key: string, method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key, body });

describe('keys of admins', () => {
  it("refuses an admin revoking another admin's key; the owner may", async () => {
    const other = await createTestUser(stack.runtime.orm, org.id, 'admin');
    const key = await api(other.key, 'POST', '/api-keys', { name: 'other admin key' });
    expect(key.status, key.text).toBe(201);
    const refused = await api(org.admin.key, 'DELETE', `/api-keys/${key.body.id}`);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await call(stack.baseUrl, 'GET', '/users/me', { key: key.body.key })).status).toBe(200);
    expect((await api(org.owner.key, 'DELETE', `/api-keys/${key.body.id}`)).status).toBe(204);
  });
});

describe('ownership transfer', () => {
  it.skipIf(!inject('databaseUrl'))('never leaves the organization without an owner when the new owner is disabled meanwhile', async () => {
    const team = await createTestOrganization(stack.runtime.orm);
    const em = stack.runtime.orm.em.fork();
    const connection = em.getConnection();
    // Hold the new owner's row, so the transfer waits on it after demoting the owner.
    const trx = await connection.begin();
    await connection.execute('select "id" from "users" where "id" = ? for update', [team.member.id], 'all', trx);
    const transfer = call(stack.baseUrl, 'POST', `/users/${team.member.id}/transfer-ownership`, { key: team.owner.key });
    await waitFor(async () => {
      const rows = await stack.runtime.orm.em.fork().getConnection().execute<{ n: number }[]>(
        `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike 'update "users"%'`,
      );
      return Number(rows[0]?.n) > 0;
    }, { what: 'the transfer to wait on the new owner row' });
    await connection.execute('update "users" set "status" = \'disabled\' where "id" = ?', [team.member.id], 'run', trx);
    await connection.commit(trx);
    const res = await transfer;
    expect(res.status, res.text).toBe(409);
    const owners = await stack.runtime.orm.em.fork().getConnection().execute<{ id: string }[]>(
      `select "id" from "users" where "organization_id" = ? and "role" = 'owner'`,
      [team.id],
    );
    expect(owners.map((row) => row.id)).toEqual([team.owner.id]);
  });
});

describe('password sign-in', () => {
  it('checks as many password hashes for an address with one account as for one with three (timing tells nothing)', async () => {
    const hash = await hashPassword('the right password');
    const single = `single-${Date.now()}@example.test`;
    const several = `several-${Date.now()}@example.test`;
    for (const [email, count] of [[single, 1], [several, 3]] as const) {
      for (let i = 0; i < count; i += 1) {
        const team = await createTestOrganization(stack.runtime.orm);
        const user = await createTestUser(stack.runtime.orm, team.id, 'member', email);
        await stack.runtime.orm.em.fork().nativeUpdate(User, { id: user.id }, { passwordHash: hash });
      }
    }
    const verify = vi.spyOn(argon2, 'verify');
    try {
      const checks: number[] = [];
      for (const email of [single, several, 'nobody-at-all@example.test']) {
        verify.mockClear();
        const res = await call(stack.baseUrl, 'POST', '/auth/login', { body: { email, password: 'a wrong password' } });
        expect(res.status, res.text).toBe(401);
        checks.push(verify.mock.calls.length);
      }
      expect(checks[0]).toBeGreaterThan(0);
      expect(new Set(checks).size, `hash checks per sign-in: ${checks.join(', ')}`).toBe(1);
    } finally {
      verify.mockRestore();
    }
  });
});

describe('per-IP limits', () => {
  it('count an IPv6 /64 as one client: rotating addresses inside it does not escape the sign-in limit', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i += 1) {
      const res = await call(behindProxy.baseUrl, 'POST', '/auth/login', {
        body: { email: 'nobody@example.test', password: 'wrong password' },
        headers: { 'x-forwarded-for': `2001:db8:29:1::${i.toString(16)}` },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses[3]).toBe(429);
    // Another /64 is another client.
    const elsewhere = await call(behindProxy.baseUrl, 'POST', '/auth/login', {
      body: { email: 'nobody@example.test', password: 'wrong password' },
      headers: { 'x-forwarded-for': '2001:db8:29:2::1' },
    });
    expect(elsewhere.status).not.toBe(429);
  });
});

describe('/readyz', () => {
  it('tells an anonymous caller which dependency failed, never its error text', async () => {
    // The database answers with an error whose text names an address and a cause.
    const database = broken.runtime.orm.em.getConnection() as unknown as { execute: (...args: unknown[]) => Promise<unknown> };
    database.execute = async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432 (Connection terminated)');
    };
    const res = await call(new URL(broken.baseUrl).origin, 'GET', '/readyz');
    expect(res.status).toBe(503);
    expect(JSON.stringify(res.body)).not.toMatch(/error: |ECONNREFUSED|closed|Connection|127\.0\.0\.1/i);
    expect(res.body.error.checks.database).toBe('unreachable');
  });
});
