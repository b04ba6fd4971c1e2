// OpenID Connect sign-in (authorization code + PKCE) against the configured issuer, with
// openid-client. The per-attempt secrets (PKCE verifier, state, nonce) travel in a short-lived
// cookie encrypted with the service's SecretBox, so any API instance can finish the flow. The same
// cookie carries what the sign-in was started for (an invitation token being accepted, or the
// organization to sign in to), so the callback cannot be pointed elsewhere by its query.
import * as oidc from 'openid-client';
import type { Config } from '../config.js';
import type { SecretBox } from '../crypto/secrets.js';
import { AppError, unauthorized } from '../errors.js';

export const OIDC_FLOW_COOKIE = 'svc_oidc';
export const OIDC_FLOW_TTL_MS = 10 * 60 * 1000;

interface FlowState {
  verifier: string;
  state: string;
  nonce: string;
  expiresAt: number;
  invitation?: string | undefined;
  organizationId?: string | undefined;
  returnTo?: 'console' | undefined;
}

/** What a sign-in was started for (`GET /auth/oidc/login?invitation=&organizationId=`). */
export interface SignInIntent {
  invitation?: string | undefined;
  organizationId?: string | undefined;
  /** Where the browser goes once signed in: the web console, else SIGN_IN_REDIRECT_URL. */
  returnTo?: 'console' | undefined;
}

type IdentityClaims = { sub: string; email?: unknown; email_verified?: unknown; name?: unknown };

export interface VerifiedIdentity extends SignInIntent {
  subject: string;
  email: string;
  name: string | undefined;
}

export interface OidcSignIn {
  begin(now: Date, intent?: SignInIntent): Promise<{ authorizationUrl: string; flowCookie: string }>;
  complete(callbackUrl: URL, flowCookie: string | undefined, now: Date): Promise<VerifiedIdentity>;
}

type OidcConfig = Pick<Config, 'OIDC_ISSUER' | 'OIDC_CLIENT_ID' | 'OIDC_CLIENT_SECRET' | 'OIDC_REDIRECT_URI' | 'OIDC_SCOPES' | 'publicBaseUrl'>;

// Plain http is accepted only for an issuer on this machine (development and tests).
const LOOPBACK_HTTP = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/;

/** undefined when OIDC is not configured. */
export function createOidcSignIn(config: OidcConfig, secrets: SecretBox): OidcSignIn | undefined {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId } = config;
  if (!issuer || !clientId) return undefined;
  const redirectUri = config.OIDC_REDIRECT_URI ?? `${config.publicBaseUrl}/auth/oidc/callback`;
  let discovered: Promise<oidc.Configuration> | undefined;

  function configuration(): Promise<oidc.Configuration> {
    discovered ??= oidc
      .discovery(new URL(issuer!), clientId!, config.OIDC_CLIENT_SECRET, undefined, {
        ...(LOOPBACK_HTTP.test(issuer!) ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .catch((error: unknown) => {
        discovered = undefined; // try discovery again on the next sign-in
        throw new AppError('service_unavailable', 'The identity provider is unreachable', { cause: error });
      });
    return discovered;
  }

  return {
    async begin(now, intent = {}) {
      const flow: FlowState = {
        verifier: oidc.randomPKCECodeVerifier(),
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        expiresAt: now.getTime() + OIDC_FLOW_TTL_MS,
        invitation: intent.invitation,
        organizationId: intent.organizationId,
        returnTo: intent.returnTo,
      };
      const url = oidc.buildAuthorizationUrl(await configuration(), {
        redirect_uri: redirectUri,
        scope: config.OIDC_SCOPES,
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
      return { authorizationUrl: url.href, flowCookie: secrets.encrypt(JSON.stringify(flow)) };
    },

    async complete(callbackUrl, flowCookie, now) {
      const flow = readFlow(secrets, flowCookie, now);
      let claims: IdentityClaims | undefined;
      try {
        const client = await configuration();
        const tokens = await oidc.authorizationCodeGrant(client, callbackUrl, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
        // Many providers keep profile claims out of the ID token: ask the UserInfo endpoint.
        if (claims && typeof claims.email !== 'string') {
          claims = { ...claims, ...(await oidc.fetchUserInfo(client, tokens.access_token, claims.sub)) };
        }
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw new AppError('unauthorized', 'Sign-in with the identity provider failed', { cause: error });
      }
      return { ...identityFrom(claims), invitation: flow.invitation, organizationId: flow.organizationId, returnTo: flow.returnTo };
    },
  };
}

function readFlow(secrets: SecretBox, cookie: string | undefined, now: Date): FlowState {
  if (!cookie) throw unauthorized('Sign-in expired or was started elsewhere; start again');
  let flow: FlowState;
  try {
    flow = JSON.parse(secrets.decrypt(cookie)) as FlowState;
  } catch {
    throw unauthorized('Sign-in expired or was started elsewhere; start again');
  }
  if (now.getTime() > flow.expiresAt) throw unauthorized('Sign-in expired; start again');
  return flow;
}

function identityFrom(claims: IdentityClaims | undefined): VerifiedIdentity {
  const email = typeof claims?.email === 'string' ? claims.email : undefined;
  // An unverified email could be anyone's: it must not open that account.
  if (!claims || !email || claims.email_verified !== true) {
    throw unauthorized('The identity provider did not return a verified email');
  }
  return { subject: claims.sub, email, name: typeof claims.name === 'string' ? claims.name : undefined };
}
