// Authentication for every /v1 route but the public ones: a bearer API key, else the
// `svc_session` cookie. Deny by default: a route is reachable only after this middleware set
// req.caller. API key lookups are cached per instance (see identity/credential-cache.ts);
// sessions are read from the database, slid forward and the cookie re-issued on each request.
import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import { forbidden, unauthorized } from '../../errors.js';
import { hashApiKey, isWellFormedApiKey } from '../../identity/api-keys.js';
import type { IdentityContext } from '../../identity/context.js';
import { authenticateApiKey, bearerToken } from '../../identity/authenticate.js';
import { hasRole, type Caller } from '../../identity/caller.js';
import { readCookie } from '../../identity/cookies.js';
import type { Role } from '../../identity/entities.js';
import { ApiKey } from '../../identity/entities.js';
import { SESSION_COOKIE, sessionSettings, type SessionSettings } from '../../identity/session-settings.js';
import { authenticateSession } from '../../identity/sessions.js';
import type { AppDeps } from '../../runtime-deps.js';

/** lastUsedAt is written at most once a minute per key and instance, never on every request. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Bearer API key -> Caller, through the per-instance cache; lastUsedAt written at most once a minute. */
export type ApiKeyAuthenticator = (rawKey: string) => Promise<Caller>;

export function apiKeyAuthenticator(deps: Pick<AppDeps, 'orm' | 'credentials' | 'clock' | 'logger'>): ApiKeyAuthenticator {
  const cache = deps.credentials;
  // Until this instance hears other instances' revocations, a cached key could outlive one:
  // read from the database instead.
  let cacheUsable = false;
  cache.listen().then(
    () => (cacheUsable = true),
    (error: unknown) => deps.logger.warn({ err: error }, 'credential cache cannot listen for revocations; API keys are read from the database'),
  );

  function recordKeyUse(apiKeyId: string): void {
    const now = deps.clock.now();
    if (!cache.claimLastUsedWrite(apiKeyId, now.getTime(), LAST_USED_WRITE_INTERVAL_MS)) return;
    deps.orm.em
      .fork()
      .nativeUpdate(ApiKey, { id: apiKeyId }, { lastUsedAt: now })
      .catch((error: unknown) => deps.logger.warn({ err: error, apiKeyId }, 'could not record API key use'));
  }

  return async (rawKey) => {
    if (!isWellFormedApiKey(rawKey)) throw unauthorized();
    const keyHash = hashApiKey(rawKey);
    let caller = cacheUsable ? cache.get(keyHash) : undefined;
    if (!caller) {
      const generation = cache.generation;
      caller = await authenticateApiKey(deps.orm.em.fork(), rawKey);
      if (cacheUsable) cache.set(keyHash, caller, generation);
    }
    recordKeyUse(caller.apiKeyId!);
    return caller;
  };
}

export function authenticate(
  deps: Pick<AppDeps, 'orm' | 'credentials' | 'clock' | 'config' | 'logger'>,
  /**
   * extraAllowedOrigins: origins allowed besides SESSION_ALLOWED_ORIGINS on these routes (the Web
   * UI on the codec routes); apiKeyHeader: an API key in `x-api-key` counts too (Anthropic's clients send it there).
   */
  options: { extraAllowedOrigins?: string[]; apiKeyHeader?: boolean } = {},
): RequestHandler {
  const viaApiKey = apiKeyAuthenticator(deps);
  const base = sessionSettings(deps.config);
  const settings = options.extraAllowedOrigins?.length
    ? { ...base, allowedOrigins: new Set([...base.allowedOrigins, ...options.extraAllowedOrigins]) }
    : base;

  return async (req, res, next) => {
    const token = (options.apiKeyHeader ? req.get('x-api-key') : undefined) ?? bearerToken(req.get('authorization'));
    if (token) {
      req.caller = await viaApiKey(token);
      next();
      return;
    }
    const sessionToken = readCookie(req.get('cookie'), SESSION_COOKIE);
    if (!sessionToken) throw unauthorized();
    if (!SAFE_METHODS.has(req.method)) assertAllowedOrigin(req, settings);
    const { caller, expiresAt } = await authenticateSession(deps.orm.em.fork(), sessionToken, deps.clock.now());
    req.caller = caller;
    setSessionCookie(res, settings, sessionToken, expiresAt.getTime() - deps.clock.now().getTime());
    next();
  };
}

/** Cookie-authenticated unsafe requests must come from an allowed origin (CSRF defence). */
export function assertAllowedOrigin(req: Request, settings: SessionSettings): void {
  const origin = req.get('origin');
  if (!origin || !settings.allowedOrigins.has(origin)) throw forbidden('Origin not allowed for a cookie-authenticated request');
}

function cookieOptions(settings: SessionSettings): CookieOptions {
  return {
    httpOnly: true,
    secure: settings.secure,
    sameSite: 'lax',
    path: '/',
    ...(settings.cookieDomain ? { domain: settings.cookieDomain } : {}),
  };
}

export function setSessionCookie(res: Response, settings: SessionSettings, token: string, maxAgeMs: number): void {
  res.cookie(SESSION_COOKIE, token, { ...cookieOptions(settings), maxAge: Math.max(0, maxAgeMs) });
}

export function clearSessionCookie(res: Response, settings: SessionSettings): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(settings));
}

/** What the identity services need for one request of an authenticated route. */
export function identityContext(deps: AppDeps, req: Request): IdentityContext {
  return { em: deps.orm.em.fork(), clock: deps.clock, credentials: deps.credentials, caller: callerOf(req), requestId: req.requestId };
}

/** The caller of an authenticated route (the auth middleware ran). */
export function callerOf(req: Request): Caller {
  if (!req.caller) throw unauthorized();
  return req.caller;
}

/** 403 unless the caller holds at least `minimum`. */
export function requireRole(minimum: Role): RequestHandler {
  return (req, _res, next) => {
    if (!hasRole(callerOf(req), minimum)) throw forbidden();
    next();
  };
}
