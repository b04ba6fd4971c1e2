// OpenID Connect sign-in started from the console (GET /v1/auth/oidc/login?returnTo=console)
// returns to the console, not to SIGN_IN_REDIRECT_URL; the choice rides in the sealed flow
// cookie, so nothing in the callback's query can redirect elsewhere. Anything but `console` is 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type OidcProviderFixture } from '../fixtures/oidc-provider.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { cookieValue, OidcBrowser } from '../identity/helpers.js';

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

describe('OIDC sign-in from the console', () => {
  it('returns to /console/ when started with returnTo=console, signed in', async () => {
    const browser = new OidcBrowser(PUBLIC_BASE, stack.baseUrl);
    provider.signInAs({ email: org.admin.email, name: 'Admin Person' });
    const start = await browser.get(`${PUBLIC_BASE}/auth/oidc/login?returnTo=console`);
    expect(start.status).toBe(302);
    const toCallback = await browser.follow(start.headers.get('location')!, REDIRECT_URI);
    const callback = await browser.get(toCallback.url);
    expect(callback.status, await callback.clone().text()).toBe(302);
    expect(callback.headers.get('location')).toBe('https://api.example.test/console/');
    const token = cookieValue(callback.headers, 'svc_session')!;
    const me = await call(stack.baseUrl, 'GET', '/users/me', { headers: { cookie: `svc_session=${token}` } });
    expect(me.body.id).toBe(org.admin.id);
  });

  it('refuses any other returnTo with 400 naming it (no open redirect)', async () => {
    const res = await call(stack.baseUrl, 'GET', `/auth/oidc/login?returnTo=${encodeURIComponent('https://evil.example/')}`, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('returnTo');
  });
});
