// Helpers for identity tests: local accounts with passwords, and reading the session cookie.
import { randomUUID } from 'node:crypto';
import type { Orm } from '../../src/db/orm.js';
import { Organization, User, type Role } from '../../src/identity/entities.js';
import { hashPassword } from '../../src/identity/passwords.js';

export async function createPasswordUser(orm: Orm, organizationId: string, role: Role = 'member'): Promise<{ id: string; email: string; password: string }> {
  const em = orm.em.fork();
  const password = `pw-${randomUUID()}`;
  const user = em.create(User, {
    organization: em.getReference(Organization, organizationId),
    email: `${role}-${randomUUID()}@example.test`,
    name: 'Password User',
    role,
    status: 'active',
    passwordHash: await hashPassword(password),
  });
  await em.flush();
  return { id: user.id, email: user.email, password };
}

/** The raw Set-Cookie line for `name`, if the response set it. */
export function setCookieLine(headers: Headers, name: string): string | undefined {
  return headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

/** The value of cookie `name` in a response's Set-Cookie. */
export function cookieValue(headers: Headers, name: string): string | undefined {
  const line = setCookieLine(headers, name);
  return line ? decodeURIComponent(line.slice(name.length + 1).split(';')[0]!) : undefined;
}
