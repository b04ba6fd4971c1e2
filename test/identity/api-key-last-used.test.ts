// lastUsedAt of API keys is kept without a database write on every request: at most one write a
// minute per key and API instance (src/api/middleware/auth.ts). The test moves an injected
// clock and counts the UPDATEs of api_keys.last_used_at the API sends, as the database driver
// reports each query it sends. The writes leave the request unawaited, but the pool hands out
// connections in request order: once the write of a later request was sent, a write of any
// earlier request would have been sent too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { ApiKey } from '../../src/identity/entities.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization, type TestUser } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const SECOND = 1000;
const clock = new ManualClock(new Date('2026-05-04T10:00:00Z'));
let stack: Stack;
let org: TestOrganization;
/** Every lastUsedAt write the API sent: the key and the time written. */
const writes: Array<{ apiKeyId: string; at: number }> = [];

interface KnexQuery {
  sql: string;
}

beforeAll(async () => {
  stack = await startStack({ clock, worker: false });
  org = await createTestOrganization(stack.runtime.orm);
  stack.runtime.orm.em
    .getConnection()
    .getKnex()
    .on('query', (query: KnexQuery) => {
      // MikroORM sends the values inlined: update "api_keys" set "last_used_at" = '<iso>' where "id" = '<uuid>'
      const write = /^update "api_keys" set "last_used_at" = '([^']+)' where "id" = '([^']+)'$/i.exec(query.sql);
      if (write) writes.push({ at: new Date(write[1]!).getTime(), apiKeyId: write[2]! });
    });
});
afterAll(async () => stack?.stop());

/** A fresh user with a key (made in the database: no request, no write yet) and the key's id. */
async function freshKey(): Promise<TestUser & { apiKeyId: string }> {
  const user = await createTestUser(stack.runtime.orm, org.id, 'member');
  const key = await stack.runtime.orm.em.fork().findOneOrFail(ApiKey, { user: user.id });
  return { ...user, apiKeyId: key.id };
}

async function use(key: string): Promise<void> {
  expect((await call(stack.baseUrl, 'GET', '/users/me', { key })).status).toBe(200);
}

/** Once a fresh key's first write was sent, every write requested before it was sent too. */
async function writesSettled(): Promise<void> {
  const sentinel = await freshKey();
  await use(sentinel.key);
  await waitFor(async () => writesOf(sentinel.apiKeyId).length > 0, { what: "the sentinel key's write" });
}

const writesOf = (apiKeyId: string) => writes.filter((write) => write.apiKeyId === apiKeyId).map((write) => write.at);

async function storedLastUsedAt(apiKeyId: string): Promise<number | undefined> {
  const key = await stack.runtime.orm.em.fork().findOneOrFail(ApiKey, { id: apiKeyId });
  return key.lastUsedAt?.getTime();
}

describe('API key lastUsedAt', () => {
  it('is written on the first use, not again within the minute, and again once the minute has passed', async () => {
    const user = await freshKey();
    const first = clock.now().getTime();
    await use(user.key);
    await waitFor(async () => writesOf(user.apiKeyId).length === 1, { what: 'the first lastUsedAt write' });
    await waitFor(async () => (await storedLastUsedAt(user.apiKeyId)) === first, { what: 'lastUsedAt stored' });

    // Seven more requests within the minute, the last one a millisecond short of it.
    for (let i = 0; i < 6; i++) {
      clock.advance(9 * SECOND);
      await use(user.key);
    }
    clock.advance(first + 60 * SECOND - 1 - clock.now().getTime());
    await use(user.key);

    clock.advance(1);
    const second = clock.now().getTime();
    await use(user.key);
    await waitFor(async () => writesOf(user.apiKeyId).includes(second), { what: 'the write after the minute' });

    expect(writesOf(user.apiKeyId)).toEqual([first, second]);
    // The write is seen when it is sent; it lands (off the request path) a moment later.
    await waitFor(async () => (await storedLastUsedAt(user.apiKeyId)) === second, { what: 'the second lastUsedAt stored' });
    expect(writesOf(user.apiKeyId)).toEqual([first, second]);
    const listed = await call(stack.baseUrl, 'GET', '/api-keys', { key: user.key });
    expect(listed.body.apiKeys.find((key: { id: string }) => key.id === user.apiKeyId).lastUsedAt).toBe(new Date(second).toISOString());
  });

  it('keeps the minute per key: another key used meanwhile is written on its own first use', async () => {
    const [one, other] = await Promise.all([freshKey(), freshKey()]);
    const start = clock.now().getTime();
    await use(one.key);
    clock.advance(SECOND);
    await use(other.key);
    clock.advance(SECOND);
    await use(one.key);
    await writesSettled();

    expect(writesOf(one.apiKeyId)).toEqual([start]);
    expect(writesOf(other.apiKeyId)).toEqual([start + SECOND]);
  });
});
