// The rate-limit middleware: per API key (or session user) and per organization, one-minute
// windows counted by the shared limiters (src/rate-limit/limiter.ts). Every authenticated response
// carries X-RateLimit-Limit / -Remaining / -Reset (seconds until the window resets) for the
// tighter of the two; a rejected request is 429 rate_limited with Retry-After.
import type { RequestHandler, Response } from 'express';
import { metrics } from '../../metrics.js';
import { createRateLimiters, rateLimitedError, type RateLimitDecision } from '../../rate-limit/limiter.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf } from './auth.js';

export function setRateLimitHeaders(res: Response, decision: RateLimitDecision): void {
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
}

/** The tighter of two decisions: the rejected one, else the one with fewer requests left. */
function tighter(a: RateLimitDecision, b: RateLimitDecision): RateLimitDecision {
  if (a.allowed !== b.allowed) return a.allowed ? b : a;
  return a.remaining <= b.remaining ? a : b;
}

/** Per credential and per organization limits for authenticated routes (mount after `authenticate`). */
export function rateLimit(deps: Pick<AppDeps, 'shared' | 'logger' | 'config'>): RequestHandler {
  const limiters = createRateLimiters(deps, [
    { name: 'credential', points: deps.config.RATE_LIMIT_PER_KEY_PER_MINUTE, durationSeconds: 60 },
    { name: 'organization', points: deps.config.RATE_LIMIT_PER_ORG_PER_MINUTE, durationSeconds: 60 },
  ]);
  return async (req, res, next) => {
    const caller = callerOf(req);
    const credential = caller.apiKeyId ? `key:${caller.apiKeyId}` : `user:${caller.userId}`;
    const [byCredential, byOrganization] = await limiters.consume([credential, caller.organizationId]);
    const binding = tighter(byCredential!, byOrganization!);
    if (!binding.allowed) {
      metrics.rateLimitRejections.inc({ scope: byCredential!.allowed ? 'organization' : 'credential' });
      throw rateLimitedError(binding);
    }
    setRateLimitHeaders(res, binding);
    next();
  };
}
