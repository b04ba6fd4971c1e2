// User lifecycle (SECURITY.md), sign-in side: an invitation never reveals that its address has an account
// in another organization (users are unique per organization and email, so the invitation just
// succeeds); password sign-in stays unambiguous for a person with accounts in two
// organizations; OIDC activates an invited user only through their invitation; and the
// operator's owner-recovery command issues a working owner key.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startOidcProvider, type OidcProviderFixture } from '../fixtures/oidc-provider.js';
import { startSmtpListener, type SmtpListener } from '../fixtures/smtp.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, testEnv, type Stack } from '../helpers/stack.js';
import { cookieValue, createPasswordUser, invitationTokenOf, OidcBrowser, setCookieLine } from '../identity/helpers.js';

const PUBLIC_BASE = 'https://api.example.test/v1';
const PORTAL = 'https://portal.example.test';
const REDIRECT_URI = `${PUBLIC_BASE}/auth/oidc/callback`;
let provider: OidcProviderFixture;
let smtp: SmtpListener;
let stack: Stack;
let org: TestOrganization;
let other: TestOrganization;

beforeAll(async () => {
  [provider, smtp] = await Promise.all([startOidcProvider({ redirectUri: REDIRECT_URI }), startSmtpListener()]);
  stack = await startStack({
    worker: false,
    env: {
      SMTP_URL: smtp.url,
      PUBLIC_BASE_URL: PUBLIC_BASE,
      SIGN_IN_REDIRECT_URL: `${PORTAL}/home`,
      SESSION_ALLOWED_ORIGINS: PORTAL,
      INVITATION_URL: `${PORTAL}/invitations/accept`,
      RATE_LIMIT_SIGN_IN_PER_MINUTE: '1000',
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_REDIRECT_URI: REDIRECT_URI,
    },
  });
  [org, other] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([provider?.stop(), smtp?.stop()]);
});

async function invite(email: string, key = org.admin.key) {
  return call(stack.baseUrl, 'POST', '/users/invite', { key, body: { email } });
}

async function invitationToken(email: string): Promise<string> {
  const mail = await waitFor(async () => [...smtp.messages].reverse().find((m) => m.to.includes(email)), { what: `invitation to ${email}` });
  return invitationTokenOf(mail.raw)!;
}

const login = (body: Record<string, unknown>) => call(stack.baseUrl, 'POST', '/auth/login', { body, headers: { origin: PORTAL } });

describe('invitations', () => {
  it('answer an address with an account in another organization exactly like a new one', async () => {
    const elsewhere = await createPasswordUser(stack.runtime.orm, other.id);
    const fresh = `fresh-${Date.now()}@example.test`;
    const [known, unknown] = [await invite(elsewhere.email), await invite(fresh)];
    expect(known.status, known.text).toBe(201);
    expect(unknown.status).toBe(201);
    const shape = (body: any) => ({ ...body, id: 'x', email: 'x', createdAt: 'x' });
    expect(shape(known.body)).toEqual(shape(unknown.body));
    // A second invitation of the same address to the same organization is that organization's own business.
    expect((await invite(elsewhere.email)).status).toBe(409);
  });

  it('a person with accounts in two organizations signs in to the one whose password they give, or names it', async () => {
    const elsewhere = await createPasswordUser(stack.runtime.orm, other.id);
    await invite(elsewhere.email);
    const token = await invitationToken(elsewhere.email);
    const accepted = await call(stack.baseUrl, 'POST', '/auth/invitations/accept', { body: { token, name: 'Two Orgs', password: 'another long password' } });
    expect(accepted.status, accepted.text).toBe(200);

    const inOther = await login({ email: elsewhere.email, password: elsewhere.password });
    expect(inOther.status, inOther.text).toBe(200);
    expect(inOther.body.user.id).not.toBe(accepted.body.user.id);
    const inOrg = await login({ email: elsewhere.email, password: 'another long password' });
    expect(inOrg.body.user.id).toBe(accepted.body.user.id);
    expect((await login({ email: elsewhere.email, password: 'wrong password here' })).status).toBe(401);
  });

  it('password sign-in with one password for both accounts asks which organization (only after the password matched)', async () => {
    const elsewhere = await createPasswordUser(stack.runtime.orm, other.id);
    await invite(elsewhere.email);
    const token = await invitationToken(elsewhere.email);
    await call(stack.baseUrl, 'POST', '/auth/invitations/accept', { body: { token, name: 'Same', password: elsewhere.password } });
    const ambiguous = await login({ email: elsewhere.email, password: elsewhere.password });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.error.param).toBe('organizationId');
    const named = await login({ email: elsewhere.email, password: elsewhere.password, organizationId: org.id });
    expect(named.status, named.text).toBe(200);
  });
});

describe('OIDC and invitations', () => {
  const browser = () => new OidcBrowser(PUBLIC_BASE, stack.baseUrl);

  async function oidcSignIn(email: string, query = '') {
    const b = browser();
    provider.signInAs({ email, name: 'Invitee' });
    const start = await b.get(`${PUBLIC_BASE}/auth/oidc/login${query}`);
    expect(start.status, await start.clone().text()).toBe(302);
    const toCallback = await b.follow(start.headers.get('location')!, REDIRECT_URI);
    return b.get(toCallback.url);
  }

  it('does not activate an invited user whose email merely matches', async () => {
    const email = `oidc-invitee-${Date.now()}@example.test`;
    expect((await invite(email)).status).toBe(201);
    const callback = await oidcSignIn(email);
    expect(callback.status).toBe(403);
    expect(setCookieLine(callback.headers, 'svc_session')).toBeUndefined();
    const users = await call(stack.baseUrl, 'GET', '/users', { key: org.admin.key });
    expect(users.body.users.find((u: any) => u.email === email).status).toBe('invited');
  });

  it('activates the invited user through the invitation token, once', async () => {
    const email = `oidc-accept-${Date.now()}@example.test`;
    expect((await invite(email)).status).toBe(201);
    const token = await invitationToken(email);
    const callback = await oidcSignIn(email, `?invitation=${token}`);
    expect(callback.status, await callback.clone().text()).toBe(302);
    const session = cookieValue(callback.headers, 'svc_session')!;
    const me = await call(stack.baseUrl, 'GET', '/users/me', { headers: { cookie: `svc_session=${session}` } });
    expect(me.body).toMatchObject({ email, status: 'active' });
    // The token is spent: a second accept with it fails.
    const again = await call(stack.baseUrl, 'POST', '/auth/invitations/accept', { body: { token, name: 'x', password: 'a long enough password' } });
    expect(again.status).toBe(401);
  });

  it("refuses an invitation token presented by someone else's identity", async () => {
    const email = `oidc-victim-${Date.now()}@example.test`;
    await invite(email);
    const token = await invitationToken(email);
    const callback = await oidcSignIn(org.member.email, `?invitation=${token}`);
    expect(callback.status).toBe(401);
    const users = await call(stack.baseUrl, 'GET', '/users', { key: org.admin.key });
    expect(users.body.users.find((u: any) => u.email === email).status).toBe('invited');
  });
});

// The script and the API share the run's PostgreSQL database; on the embedded defaults the stack's
// PGlite is in memory, so the embedded case below runs the script on a PGlite directory instead.
describe.skipIf(!inject('databaseUrl'))('owner recovery', () => {
  const run = promisify(execFile);
  const recover = (args: string[]) =>
    // tsx directly (not through npx): each start compiles the script, slow on a loaded machine.
    run(path.join('node_modules', '.bin', 'tsx'), ['scripts/owner-recover.ts', ...args], { env: { ...process.env, ...(testEnv() as Record<string, string>) }, cwd: process.cwd() });

  it('issues a new owner key, printed once, that works at once', async () => {
    const team = await createTestOrganization(stack.runtime.orm);
    const { stdout } = await recover(['--email', team.owner.email]);
    const key = /svc_live_[A-Za-z0-9]{32,}/.exec(stdout)?.[0];
    expect(key, stdout).toBeDefined();
    const me = await call(stack.baseUrl, 'GET', '/users/me', { key });
    expect(me.body).toMatchObject({ id: team.owner.id, role: 'owner' });
    const audit = await call(stack.baseUrl, 'GET', '/audit-logs?limit=100', { key });
    expect(audit.body.auditLogs.map((e: any) => e.action)).toContain('api_key.recovery_issued');
  }, 180_000);

  it('refuses an address that is not an owner, issuing nothing', async () => {
    const team = await createTestOrganization(stack.runtime.orm);
    const before = (await call(stack.baseUrl, 'GET', '/api-keys', { key: team.owner.key })).body.total;
    await Promise.all([
      expect(recover(['--email', team.admin.email])).rejects.toMatchObject({ code: 1 }),
      expect(recover([])).rejects.toMatchObject({ code: 1 }),
    ]);
    expect((await call(stack.baseUrl, 'GET', '/api-keys', { key: team.owner.key })).body.total).toBe(before);
  }, 180_000);
});

// On the embedded defaults the operator stops the service (PGlite serves one process at a time),
// runs the script on its DATA_DIR, and starts it again: the new key is in the database, hashed,
// for the owner, and audited.
describe.skipIf(Boolean(inject('databaseUrl')))('owner recovery on the embedded database', () => {
  it('issues a new owner key on DATA_DIR\'s PGlite, stored hashed for the owner and audited', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'owner-recover-'));
    try {
      const { openDatabase } = await import('../../src/db/orm.js');
      const { entities } = await import('../../src/orm-entities.js');
      const { hashApiKey } = await import('../../src/identity/api-keys.js');
      const { ApiKey } = await import('../../src/identity/entities.js');
      const { AuditEvent } = await import('../../src/audit/entities.js');
      const target = { pgliteDir: path.join(dataDir, 'pglite') };
      let orm = await openDatabase(target, { entities });
      const team = await createTestOrganization(orm).finally(() => orm.close(true));
      const env = { ...process.env, ...(testEnv({ DATABASE_URL: undefined, DATA_DIR: dataDir }) as Record<string, string>) };
      delete env.DATABASE_URL;
      const { stdout } = await promisify(execFile)(path.join('node_modules', '.bin', 'tsx'), ['scripts/owner-recover.ts', '--email', team.owner.email], { env, cwd: process.cwd() });
      const key = /svc_live_[A-Za-z0-9]{32,}/.exec(stdout)?.[0];
      expect(key, stdout).toBeDefined();
      orm = await openDatabase(target, { entities });
      try {
        const stored = await orm.em.fork().findOne(ApiKey, { keyHash: hashApiKey(key!) });
        expect(stored?.user.id).toBe(team.owner.id);
        const audit = await orm.em.fork().find(AuditEvent, { organizationId: team.id });
        expect(audit.map((entry) => entry.action)).toContain('api_key.recovery_issued');
      } finally {
        await orm.close(true);
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
