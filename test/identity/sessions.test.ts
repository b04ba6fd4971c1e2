// Browser sessions on the real stack: cookie flags, password sign-in with rotation, the Origin
// check, sliding 7-day expiry and the 30-day cap under a manual clock, logout, invitations
// delivered through a real SMTP listener, and no token or password at rest or in the logs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { Session, User } from '../../src/identity/entities.js';
import { hashSessionToken } from '../../src/identity/sessions.js';
import { startSmtpListener, type SmtpListener } from '../fixtures/smtp.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { dumpDatabase } from '../helpers/secrets-dump.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { cookieValue, createPasswordUser, invitationTokenOf, setCookieLine } from './helpers.js';

const DAY = 24 * 60 * 60 * 1000;
const PORTAL = 'https://portal.example.test';
let stack: Stack;
let smtp: SmtpListener;
let org: TestOrganization;
const clock = new ManualClock(new Date('2026-11-22T00:00:00Z'));
const secrets: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpListener();
  stack = await startStack({
    clock,
    worker: false,
    env: {
      SMTP_URL: smtp.url,
      PUBLIC_BASE_URL: 'https://api.example.test/v1',
      SESSION_COOKIE_DOMAIN: 'example.test',
      SESSION_ALLOWED_ORIGINS: `${PORTAL},https://marketplace.example.test`,
      INVITATION_URL: `${PORTAL}/invitations/accept`,
      RATE_LIMIT_SIGN_IN_PER_MINUTE: '1000',
    },
  });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await smtp?.stop();
});

async function login(email: string, password: string, cookie?: string) {
  const res = await call(stack.baseUrl, 'POST', '/auth/login', {
    body: { email, password },
    headers: { origin: PORTAL, ...(cookie ? { cookie: `svc_session=${cookie}` } : {}) },
  });
  const token = cookieValue(res.headers, 'svc_session');
  if (token) secrets.push(token);
  return { res, token };
}

const withSession = (token: string, origin?: string) => ({ headers: { cookie: `svc_session=${token}`, ...(origin ? { origin } : {}) } });

describe('password sign-in', () => {
  it('sets svc_session with HttpOnly, Secure, SameSite=Lax, the configured Domain and 7 days', async () => {
    const user = await createPasswordUser(stack.runtime.orm, org.id);
    secrets.push(user.password);
    const { res, token } = await login(user.email, user.password);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, email: user.email, status: 'active' });
    const line = setCookieLine(res.headers, 'svc_session')!;
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; Secure/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).toMatch(/; Domain=example\.test/);
    expect(line).toMatch(/; Path=\//);
    expect(line).toMatch(/; Max-Age=604800/);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const me = await call(stack.baseUrl, 'GET', '/users/me', withSession(token!));
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
    expect(me.body.lastLoginAt).toBe(clock.now().toISOString());
  });

  it('answers 401 for a wrong password and for an unknown email, with the same message', async () => {
    const user = await createPasswordUser(stack.runtime.orm, org.id);
    const wrong = await login(user.email, 'not-the-password');
    const unknown = await login('nobody@example.test', 'whatever-password');
    expect(wrong.res.status).toBe(401);
    expect(unknown.res.status).toBe(401);
    expect(wrong.res.body.error.message).toBe(unknown.res.body.error.message);
    expect(wrong.token).toBeUndefined();
  });

  it('rotates the session at sign-in: a new token, and the one the browser carried ends', async () => {
    const user = await createPasswordUser(stack.runtime.orm, org.id);
    const first = await login(user.email, user.password);
    const second = await login(user.email, user.password, first.token);
    expect(second.token).toBeDefined();
    expect(second.token).not.toBe(first.token);
    expect((await call(stack.baseUrl, 'GET', '/users/me', withSession(first.token!))).status).toBe(401);
    expect((await call(stack.baseUrl, 'GET', '/users/me', withSession(second.token!))).status).toBe(200);
  });

  it('rejects unknown fields in the body', async () => {
    const res = await call(stack.baseUrl, 'POST', '/auth/login', { body: { email: 'a@example.test', password: 'x', role: 'owner' } });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('role');
  });
});

describe('cookie-authenticated requests', () => {
  it('require an allowed Origin on unsafe methods', async () => {
    const user = await createPasswordUser(stack.runtime.orm, org.id);
    const { token } = await login(user.email, user.password);
    const body = { name: 'from the portal' };
    const none = await call(stack.baseUrl, 'POST', '/api-keys', { ...withSession(token!), body });
    expect(none.status).toBe(403);
    const foreign = await call(stack.baseUrl, 'POST', '/api-keys', { ...withSession(token!, 'https://evil.example'), body });
    expect(foreign.status).toBe(403);
    const allowed = await call(stack.baseUrl, 'POST', '/api-keys', { ...withSession(token!, PORTAL), body });
    expect(allowed.status).toBe(201);
    secrets.push(allowed.body.key);
    // Safe methods need no Origin.
    expect((await call(stack.baseUrl, 'GET', '/api-keys', withSession(token!))).status).toBe(200);
  });

  it('slide the 7-day expiry on use and stop at the 30-day cap', async () => {
    const user = await createPasswordUser(stack.runtime.orm, org.id);
    const { token } = await login(user.email, user.password);
    const started = clock.now().getTime();
    // Used every 6 days, the session outlives 7 days...
    for (let day = 6; day < 30; day += 6) {
      clock.set(new Date(started + day * DAY));
      const res = await call(stack.baseUrl, 'GET', '/users/me', withSession(token!));
      expect(res.status, `day ${day}`).toBe(200);
      const maxAge = Number(/Max-Age=(\d+)/.exec(setCookieLine(res.headers, 'svc_session')!)![1]);
      expect(maxAge).toBe(Math.min(7 * DAY, (30 - day) * DAY) / 1000);
    }
    // ...but not 30 days from sign-in.
    clock.set(new Date(started + 30 * DAY));
    expect((await call(stack.baseUrl, 'GET', '/users/me', withSession(token!))).status).toBe(401);
    clock.set(new Date(started));
  });

  it('expire after 7 days without use', async () => {
    const user = await createPasswordUser(stack.runtime.orm, org.id);
    const { token } = await login(user.email, user.password);
    const started = clock.now().getTime();
    clock.set(new Date(started + 7 * DAY - 1000));
    expect((await call(stack.baseUrl, 'GET', '/users/me', withSession(token!))).status).toBe(200);
    clock.set(new Date(started + 14 * DAY));
    expect((await call(stack.baseUrl, 'GET', '/users/me', withSession(token!))).status).toBe(401);
    clock.set(new Date(started));
  });

  it('end at logout, and the cookie is cleared', async () => {
    const user = await createPasswordUser(stack.runtime.orm, org.id);
    const { token } = await login(user.email, user.password);
    const res = await call(stack.baseUrl, 'POST', '/auth/logout', withSession(token!, PORTAL));
    expect(res.status).toBe(204);
    expect(setCookieLine(res.headers, 'svc_session')).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect((await call(stack.baseUrl, 'GET', '/users/me', withSession(token!))).status).toBe(401);
  });

  it('end at once when the user is removed', async () => {
    const user = await createPasswordUser(stack.runtime.orm, org.id);
    const { token } = await login(user.email, user.password);
    expect((await call(stack.baseUrl, 'DELETE', `/users/${user.id}`, { key: org.admin.key })).status).toBe(204);
    expect((await call(stack.baseUrl, 'GET', '/users/me', withSession(token!))).status).toBe(401);
    expect(await stack.runtime.orm.em.fork().count(Session, { user: user.id })).toBe(0);
  });
});

describe('invitations', () => {
  it('emails a one-time link through SMTP; accepting activates the user and signs them in', async () => {
    const email = `invitee-${Date.now()}@example.test`;
    const invite = await call(stack.baseUrl, 'POST', '/users/invite', { key: org.admin.key, body: { email } });
    expect(invite.status).toBe(201);
    expect(invite.body).toMatchObject({ email, role: 'member', status: 'invited' });

    const mail = await waitFor(async () => smtp.messages.find((m) => m.to.includes(email)), { what: 'invitation email' });
    const token = invitationTokenOf(mail.raw);
    expect(token).toBeDefined();
    secrets.push(token!);

    const password = 'a long enough password';
    secrets.push(password);
    const accept = await call(stack.baseUrl, 'POST', '/auth/invitations/accept', { body: { token, name: 'New Person', password } });
    expect(accept.status).toBe(200);
    expect(accept.body.user).toMatchObject({ id: invite.body.id, name: 'New Person', status: 'active', role: 'member' });
    const session = cookieValue(accept.headers, 'svc_session')!;
    secrets.push(session);
    expect((await call(stack.baseUrl, 'GET', '/users/me', withSession(session))).body.email).toBe(email);

    const again = await call(stack.baseUrl, 'POST', '/auth/invitations/accept', { body: { token, name: 'Again', password } });
    expect(again.status).toBe(401);
    expect((await login(email, password)).res.status).toBe(200);

    const audit = await call(stack.baseUrl, 'GET', '/audit-logs', { key: org.owner.key });
    const actions = audit.body.auditLogs.map((e: any) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['user.invited', 'user.invitation_accepted', 'user.signed_in']));
  });

  it('refuses an expired invitation', async () => {
    const email = `late-${Date.now()}@example.test`;
    expect((await call(stack.baseUrl, 'POST', '/users/invite', { key: org.owner.key, body: { email } })).status).toBe(201);
    const mail = await waitFor(async () => smtp.messages.find((m) => m.to.includes(email)), { what: 'invitation email' });
    const token = invitationTokenOf(mail.raw)!;
    clock.advance(7 * DAY + 1000);
    const res = await call(stack.baseUrl, 'POST', '/auth/invitations/accept', { body: { token, name: 'Late', password: 'a long enough password' } });
    clock.advance(-(7 * DAY + 1000));
    expect(res.status).toBe(401);
  });

  it('lets only the owner invite an admin, and answers 409 for an existing email', async () => {
    const email = `admin-${Date.now()}@example.test`;
    expect((await call(stack.baseUrl, 'POST', '/users/invite', { key: org.admin.key, body: { email, role: 'admin' } })).status).toBe(403);
    expect((await call(stack.baseUrl, 'POST', '/users/invite', { key: org.owner.key, body: { email, role: 'admin' } })).status).toBe(201);
    expect((await call(stack.baseUrl, 'POST', '/users/invite', { key: org.owner.key, body: { email } })).status).toBe(409);
    const owner = await call(stack.baseUrl, 'POST', '/users/invite', { key: org.owner.key, body: { email: `o-${Date.now()}@example.test`, role: 'owner' } });
    expect(owner.status).toBe(400);
    expect(owner.body.error.param).toBe('role');
  });

  it('answers 409, not 500, to the losers of concurrent invitations of one email', async () => {
    const email = `race-${Date.now()}@example.test`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call(stack.baseUrl, 'POST', '/users/invite', { key: org.owner.key, body: { email } })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.error).toMatchObject({ code: 'conflict', param: 'email' });
  });
});

describe('secrets at rest and in logs', () => {
  // The tokens and passwords of every test above; test/identity/secrets-at-rest.test.ts searches
  // Redis and every kind of credential too.
  it('stores session tokens only as SHA-256 and keeps no token or password in any table or log line', async () => {
    const user = await createPasswordUser(stack.runtime.orm, org.id);
    secrets.push(user.password);
    const { token } = await login(user.email, user.password);
    const em = stack.runtime.orm.em.fork();
    const stored = await em.findOneOrFail(Session, { tokenHash: hashSessionToken(token!) });
    expect(stored.tokenHash).not.toContain(token!);
    const dump = [...(await dumpDatabase(stack.runtime.orm)).values()].join('\n');
    expect(dump).toContain(stored.tokenHash);
    const userRow = await em.findOneOrFail(User, { id: user.id }, { populate: ['passwordHash'] });
    expect(userRow.passwordHash).toMatch(/^\$argon2id\$/);
    const logs = stack.logs.join('');
    expect(secrets.length).toBeGreaterThan(5);
    for (const secret of secrets) {
      expect(dump).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});

describe('sign-in rate limit', () => {
  let limited: Stack;
  beforeAll(async () => {
    limited = await startStack({ worker: false, env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '3' } });
  });
  afterAll(async () => limited?.stop());

  it('limits sign-in attempts per client IP with 429 and Retry-After', async () => {
    const attempt = () => call(limited.baseUrl, 'POST', '/auth/login', { body: { email: 'guess@example.test', password: 'guess' } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await attempt()).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const res = await attempt();
    expect(res.body.error.code).toBe('rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
