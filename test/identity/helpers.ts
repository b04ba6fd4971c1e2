// Helpers for identity tests: local accounts with passwords, reading the session cookie and the
// invitation link of an email, and a minimal browser for OpenID Connect sign-in.
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

/** The invitation token of an email's link (the body may be quoted-printable). */
export function invitationTokenOf(rawMail: string): string | undefined {
  const body = rawMail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  return /invitations\/accept\?token=([A-Za-z0-9_-]+)/.exec(body)?.[1];
}

/**
 * A minimal browser for OpenID Connect sign-in: manual redirects, one cookie jar per origin, and
 * the public API address (`publicBase`, what the provider redirects to) mapped to the test's API
 * instance (`apiBase`), as a reverse proxy would.
 */
export class OidcBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  constructor(
    private readonly publicBase: string,
    private readonly apiBase: string,
  ) {}

  async get(url: string): Promise<Response> {
    const target = new URL(url.replace(this.publicBase, this.apiBase));
    const jar = this.jars.get(target.origin) ?? new Map<string, string>();
    this.jars.set(target.origin, jar);
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(target, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }

  /** The cookies this browser holds for the API instance, as a Cookie header. */
  apiCookies(): string {
    const jar = this.jars.get(new URL(this.apiBase).origin) ?? new Map<string, string>();
    return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** Follows redirects from `url` until a response is not a redirect or leaves for `stopAt`. */
  async follow(url: string, stopAt: string): Promise<{ res: Response; url: string; hops: string[] }> {
    const hops: string[] = [];
    let current = url;
    for (let i = 0; i < 15; i++) {
      hops.push(current);
      const res = await this.get(current);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { res, url: current, hops };
      const next = new URL(location, current.replace(this.publicBase, this.apiBase)).href;
      if (next.startsWith(stopAt)) return { res, url: next, hops };
      current = next;
    }
    throw new Error(`too many redirects: ${hops.join(' -> ')}`);
  }
}
