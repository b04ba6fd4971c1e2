// Public sign-in endpoints (no credential yet): local password sign-in, invitation accept,
// OpenID Connect sign-in, an API key exchanged for a session (the console), and logout. Each successful sign-in sets a fresh `svc_session` cookie.
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { AppError, forbidden } from '../../errors.js';
import { readCookie } from '../../identity/cookies.js';
import { acceptInvitationBody, apiKeySignInBody, loginBody, oidcLoginQuery, parseInput } from '../../identity/identity.schemas.js';
import { signInWithApiKey } from '../../identity/api-key-sign-in.js';
import { acceptInvitation } from '../../identity/invitations.service.js';
import { createOidcSignIn, OIDC_FLOW_COOKIE, OIDC_FLOW_TTL_MS } from '../../identity/oidc.js';
import { SESSION_COOKIE, sessionSettings, type SessionSettings } from '../../identity/session-settings.js';
import { endSession, type IssuedSession } from '../../identity/sessions.js';
import { signInWithPassword, signInWithVerifiedEmail } from '../../identity/sign-in.service.js';
import type { AppDeps } from '../../runtime-deps.js';
import { clearSessionCookie, setSessionCookie } from '../middleware/auth.js';
import { createRateLimiter, rateLimitedError } from '../../rate-limit/limiter.js';
import { setRateLimitHeaders } from '../middleware/rate-limit.js';
import { metrics } from '../../metrics.js';
import { clientRateKey } from '../../net/addresses.js';

export function authRoutes(deps: AppDeps): Router {
  const router = Router();
  const settings = sessionSettings(deps.config);
  const oidc = createOidcSignIn(deps.config, deps.secrets);
  const previousSession = (req: Request) => readCookie(req.get('cookie'), SESSION_COOKIE);
  // Sign-in is unauthenticated, so it is limited per client IP (password guessing, token probing).
  const signInLimiter = createRateLimiter(deps, { name: 'sign-in', points: deps.config.RATE_LIMIT_SIGN_IN_PER_MINUTE, durationSeconds: 60 });
  const limitSignIn: RequestHandler = async (req, res, next) => {
    const decision = await signInLimiter.consume(`ip:${clientRateKey(req.ip ?? 'unknown')}`);
    if (!decision.allowed) {
      metrics.rateLimitRejections.inc({ scope: 'sign_in' });
      throw rateLimitedError(decision);
    }
    setRateLimitHeaders(res, decision);
    next();
  };

  function issue(res: Response, session: IssuedSession): void {
    setSessionCookie(res, settings, session.token, session.expiresAt.getTime() - deps.clock.now().getTime());
  }

  router.post('/auth/login', limitSignIn, async (req, res) => {
    rejectForeignOrigin(req, settings);
    const body = parseInput(loginBody, req.body);
    const result = await signInWithPassword(deps.orm.em.fork(), deps.clock, {
      ...body,
      previousSessionToken: previousSession(req),
      requestId: req.requestId,
    });
    issue(res, result.session);
    res.json({ user: result.user });
  });

  router.post('/auth/api-key', limitSignIn, async (req, res) => {
    rejectForeignOrigin(req, settings);
    const body = parseInput(apiKeySignInBody, req.body);
    const result = await signInWithApiKey(deps.orm.em.fork(), deps.clock, { ...body, previousSessionToken: previousSession(req), requestId: req.requestId });
    issue(res, result.session);
    res.json({ user: result.user });
  });

  router.post('/auth/invitations/accept', limitSignIn, async (req, res) => {
    rejectForeignOrigin(req, settings);
    const body = parseInput(acceptInvitationBody, req.body);
    const result = await acceptInvitation(deps.orm.em.fork(), deps.clock, { ...body, previousSessionToken: previousSession(req) });
    issue(res, result.session);
    res.json({ user: result.user });
  });

  router.post('/auth/logout', async (req, res) => {
    rejectForeignOrigin(req, settings);
    const token = previousSession(req);
    if (token) await endSession(deps.orm.em.fork(), token);
    clearSessionCookie(res, settings);
    res.status(204).end();
  });

  router.get('/auth/oidc/login', async (req, res) => {
    if (!oidc) throw new AppError('not_found', 'OpenID Connect sign-in is not configured');
    const intent = parseInput(oidcLoginQuery, req.query);
    const { authorizationUrl, flowCookie } = await oidc.begin(deps.clock.now(), intent);
    res.cookie(OIDC_FLOW_COOKIE, flowCookie, {
      httpOnly: true,
      secure: settings.secure,
      sameSite: 'lax',
      path: '/v1/auth/oidc',
      maxAge: OIDC_FLOW_TTL_MS,
    });
    res.redirect(302, authorizationUrl);
  });

  router.get('/auth/oidc/callback', limitSignIn, async (req, res) => {
    if (!oidc) throw new AppError('not_found', 'OpenID Connect sign-in is not configured');
    const identity = await oidc.complete(callbackUrl(deps, req), readCookie(req.get('cookie'), OIDC_FLOW_COOKIE), deps.clock.now());
    const result = await signInWithVerifiedEmail(deps.orm.em.fork(), deps.clock, {
      ...identity,
      previousSessionToken: previousSession(req),
      requestId: req.requestId,
    });
    res.clearCookie(OIDC_FLOW_COOKIE, { path: '/v1/auth/oidc' });
    issue(res, result.session);
    // A sign-in started from the console (returnTo=console, carried in the sealed flow cookie) returns there.
    res.redirect(302, identity.returnTo === 'console' ? new URL('/console/', deps.config.publicBaseUrl).href : settings.signInRedirectUrl);
  });

  return router;
}

/** The callback as the provider addressed it: the registered redirect URI plus this query. */
function callbackUrl(deps: AppDeps, req: Request): URL {
  const url = new URL(deps.config.OIDC_REDIRECT_URI ?? `${deps.config.publicBaseUrl}/auth/oidc/callback`);
  const query = req.originalUrl.indexOf('?');
  url.search = query === -1 ? '' : req.originalUrl.slice(query);
  return url;
}

/** Browsers always send Origin on these POSTs: a foreign one is a cross-site attempt. */
function rejectForeignOrigin(req: Request, settings: SessionSettings): void {
  const origin = req.get('origin');
  if (origin && !settings.allowedOrigins.has(origin)) throw forbidden('Origin not allowed');
}
