// The same database behaviour on embedded PGlite and on PostgreSQL: committed migrations apply
// from scratch, the first-start bootstrap creates exactly one owner (also when two processes
// race), and a bootstrapped key authenticates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Orm } from '../src/db/orm.js';
import { migrationsList } from '../src/db/migrations/index.js';
import { authenticateApiKey } from '../src/identity/authenticate.js';
import { bootstrapOwner } from '../src/identity/bootstrap.js';
import { ApiKey, Organization, User } from '../src/identity/entities.js';
import { generateApiKey, hashApiKey } from '../src/identity/api-keys.js';
import { databaseTargets } from './helpers/database-targets.js';

// A database of its own: the bootstrap tests need one where no user exists yet.
const targets = databaseTargets('test_bootstrap', inject('databaseUrl'));

describe.each(targets)('database on $name', (target) => {
  let orm: Orm;
  beforeAll(async () => {
    orm = await target.open();
  }, 120_000);
  afterAll(async () => {
    await orm?.close();
    await target.cleanup?.();
  });

  it('has applied every committed migration', async () => {
    const executed = await orm.getMigrator().getExecutedMigrations();
    expect(executed.map((m) => m.name)).toEqual(migrationsList.map((m) => m.name));
    expect(await orm.getMigrator().getPendingMigrations()).toEqual([]);
  });

  it('bootstraps one organization and owner on first start, once, even when two starts race', async () => {
    const options = { ownerEmail: 'Owner@Example.test', organizationName: 'Acme' };
    const results = await Promise.all([bootstrapOwner(orm.em.fork(), options), bootstrapOwner(orm.em.fork(), options)]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const again = await bootstrapOwner(orm.em.fork(), options);
    expect(again).toEqual({ created: false });

    const em = orm.em.fork();
    const users = await em.find(User, {}, { populate: ['organization'] });
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ email: 'owner@example.test', role: 'owner', status: 'active' });
    expect(users[0]!.organization.name).toBe('Acme');
    expect(await em.count(Organization, {})).toBe(1);
  });

  it('stores only the hash of the bootstrap key, and the key authenticates as the owner', async () => {
    const em = orm.em.fork();
    await em.nativeDelete(ApiKey, {});
    await em.nativeDelete(User, {});
    await em.nativeDelete(Organization, {});
    const chosenKey = generateApiKey();
    const result = await bootstrapOwner(orm.em.fork(), { ownerEmail: 'boss@example.test', organizationName: 'B', ownerApiKey: chosenKey });
    expect(result).toMatchObject({ created: true, apiKey: chosenKey, generated: false });

    const rows = await orm.em.getConnection().execute<{ key_hash: string; prefix: string }[]>('select key_hash, prefix from api_keys');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toBe(hashApiKey(chosenKey));
    expect(JSON.stringify(rows)).not.toContain(chosenKey);

    const caller = await authenticateApiKey(orm.em.fork(), chosenKey);
    expect(caller).toMatchObject({ email: 'boss@example.test', role: 'owner', via: 'api_key' });
    await expect(authenticateApiKey(orm.em.fork(), generateApiKey())).rejects.toMatchObject({ code: 'unauthorized' });
  });
});
