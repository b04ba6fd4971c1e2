// Creates an isolated organization with one user per role, each with an API key.
import { randomUUID } from 'node:crypto';
import type { Orm } from '../../src/db/orm.js';
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/identity/api-keys.js';
import { ApiKey, Organization, User, type Role } from '../../src/identity/entities.js';

export interface TestUser {
  id: string;
  email: string;
  role: Role;
  key: string;
}

export interface TestOrganization {
  id: string;
  owner: TestUser;
  admin: TestUser;
  member: TestUser;
}

export async function createTestUser(orm: Orm, organizationId: string, role: Role, email?: string): Promise<TestUser> {
  const em = orm.em.fork();
  const organization = em.getReference(Organization, organizationId);
  const user = em.create(User, {
    organization,
    email: email ?? `${role}-${randomUUID()}@example.test`,
    name: `Test ${role}`,
    role,
    status: 'active',
  });
  const key = generateApiKey();
  em.create(ApiKey, { organization, user, name: `${role} key`, keyHash: hashApiKey(key), prefix: displayPrefix(key) });
  await em.flush();
  return { id: user.id, email: user.email, role, key };
}

export async function createTestOrganization(orm: Orm, name = `Org ${randomUUID()}`): Promise<TestOrganization> {
  const em = orm.em.fork();
  const organization = em.create(Organization, { name });
  await em.flush();
  const [owner, admin, member] = await Promise.all([
    createTestUser(orm, organization.id, 'owner'),
    createTestUser(orm, organization.id, 'admin'),
    createTestUser(orm, organization.id, 'member'),
  ]);
  return { id: organization.id, owner: owner!, admin: admin!, member: member! };
}
