// OpenID Connect sign-in end to end against a real local provider (oidc-provider): the API
// redirects with PKCE, the provider signs the user in, the callback exchanges the code and sets
// the session cookie. The "browser" here follows redirects and keeps cookies per host; the
// public callback address is mapped to this test's API instance, as a reverse proxy would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type OidcProviderFixture } from '../fixtures/oidc-provider.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { cookieValue, OidcBrowser, setCookieLine } from './helpers.js';

const PUBLIC_BASE = 'https://api.example.test/v1';
const REDIRECT_URI = `${PUBLIC_BASE}/auth/oidc/callback`;
let provider: OidcProviderFixture;
let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  provider = await startOidcProvider({ redirectUri: REDIRECT_URI });
  stack = await startStack({
    worker: false,
    env: {
      PUBLIC_BASE_URL: PUBLIC_BASE,
      SIGN_IN_REDIRECT_URL: 'https://portal.example.test/home',
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_REDIRECT_URI: REDIRECT_URI,
    },
  });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await provider?.stop();
});

/** A browser for this test's provider and API instance. */
const newBrowser = () => new OidcBrowser(PUBLIC_BASE, stack.baseUrl);

describe('OIDC sign-in', () => {
  it('signs an existing user in with authorization code + PKCE and sets the session cookie', async () => {
    const browser = newBrowser();
    provider.signInAs({ email: org.member.email, name: 'Member Person' });

    const start = await browser.get(`${PUBLIC_BASE}/auth/oidc/login`);
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);

    // Provider login + consent, back to the public callback address.
    const toCallback = await browser.follow(authorize.href, REDIRECT_URI);
    expect(toCallback.url.startsWith(REDIRECT_URI)).toBe(true);
    expect(new URL(toCallback.url).searchParams.get('code')).toBeTruthy();

    const callback = await browser.get(toCallback.url);
    expect(callback.status, await callback.clone().text()).toBe(302);
    expect(callback.headers.get('location')).toBe('https://portal.example.test/home');
    const line = setCookieLine(callback.headers, 'svc_session')!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/Secure/);
    expect(line).toMatch(/SameSite=Lax/);

    const token = cookieValue(callback.headers, 'svc_session')!;
    const me = await call(stack.baseUrl, 'GET', '/users/me', { headers: { cookie: `svc_session=${token}` } });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(org.member.id);
    expect(stack.logs.join('')).not.toContain(token);

    // Replaying the same callback (code already used, flow cookie cleared) fails.
    const replay = await browser.get(toCallback.url);
    expect(replay.status).toBe(401);
  });

  it('refuses an identity with no account here and one whose email is not verified', async () => {
    for (const [account, status] of [
      [{ email: `stranger-${Date.now()}@example.test`, name: 'Stranger' }, 403],
      [{ email: org.admin.email, name: 'Unverified', emailVerified: false }, 401],
    ] as const) {
      const browser = newBrowser();
      provider.signInAs(account);
      const start = await browser.get(`${PUBLIC_BASE}/auth/oidc/login`);
      const toCallback = await browser.follow(start.headers.get('location')!, REDIRECT_URI);
      const callback = await browser.get(toCallback.url);
      expect(callback.status, account.email).toBe(status);
      expect(setCookieLine(callback.headers, 'svc_session')).toBeUndefined();
    }
  });

  it('refuses a callback without the flow cookie of the browser that started it', async () => {
    const browser = newBrowser();
    provider.signInAs({ email: org.member.email, name: 'Member' });
    const start = await browser.get(`${PUBLIC_BASE}/auth/oidc/login`);
    const toCallback = await browser.follow(start.headers.get('location')!, REDIRECT_URI);
    const other = newBrowser();
    const callback = await other.get(toCallback.url);
    expect(callback.status).toBe(401);
  });
});
