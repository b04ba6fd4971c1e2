// Rate limits: fixed one-minute windows per API key (or session user) and per organization,
// counted atomically in Redis (rate-limiter-flexible) so every API instance shares them. Every
// authenticated response carries X-RateLimit-Limit / -Remaining / -Reset (seconds until the
// window resets) for the tighter of the two; a rejected request is 429 rate_limited with
// Retry-After.
//
// When Redis is unreachable the limits stay enforced, per instance: each limiter falls back to
// an in-memory twin with the same budget (so N instances let through at most N times the limit)
// and logs a warning at most every 30 s. Requests are never refused because Redis is down.
import type { RequestHandler, Response } from 'express';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { metrics } from '../../metrics.js';
import type { SharedState } from '../../redis.js';
import type { AppDeps } from '../deps.js';
import { callerOf } from './auth.js';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

export interface RateLimiter {
  readonly points: number;
  /** Counts one request for `key` and says whether it is within the limit. */
  consume(key: string): Promise<RateLimitDecision>;
}

export interface RateLimiterOptions {
  /** Distinguishes counters of different limiters, e.g. `webhook-id`. */
  name: string;
  points: number;
  durationSeconds: number;
}

const FALLBACK_WARNING_INTERVAL_MS = 30_000;

/** A limiter on the shared Redis (or in memory without it). Reusable: webhooks limit per id and IP. */
export function createRateLimiter(deps: { shared: SharedState; logger: Logger }, options: RateLimiterOptions): RateLimiter {
  const settings = { keyPrefix: `rl:${options.name}`, points: options.points, duration: options.durationSeconds };
  const memory = new RateLimiterMemory(settings);
  const store: RateLimiterAbstract =
    deps.shared.kind === 'redis' && deps.shared.redis ? new RateLimiterRedis({ ...settings, storeClient: deps.shared.redis }) : memory;
  let lastWarning = 0;

  async function consumeWith(limiter: RateLimiterAbstract, key: string): Promise<RateLimitDecision> {
    try {
      return decision(options.points, await limiter.consume(key), true);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return decision(options.points, rejection, false);
      throw rejection;
    }
  }

  return {
    points: options.points,
    async consume(key) {
      try {
        return await consumeWith(store, key);
      } catch (error) {
        if (store === memory) throw error;
        if (Date.now() - lastWarning > FALLBACK_WARNING_INTERVAL_MS) {
          lastWarning = Date.now();
          deps.logger.warn({ err: error, limiter: options.name }, 'rate limit store unreachable: limiting in memory on this instance');
        }
        return consumeWith(memory, key);
      }
    },
  };
}

function decision(limit: number, res: RateLimiterRes, allowed: boolean): RateLimitDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

export function setRateLimitHeaders(res: Response, decision: RateLimitDecision): void {
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
}

/** The error for a rejected request; its headers survive the error middleware. */
export function rateLimitedError(decision: RateLimitDecision): AppError {
  return new AppError('rate_limited', `Rate limit of ${decision.limit} requests per minute exceeded; retry after ${decision.resetSeconds} s`, {
    headers: {
      'Retry-After': String(decision.resetSeconds),
      'X-RateLimit-Limit': String(decision.limit),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(decision.resetSeconds),
    },
  });
}

/** The tighter of two decisions: the rejected one, else the one with fewer requests left. */
function tighter(a: RateLimitDecision, b: RateLimitDecision): RateLimitDecision {
  if (a.allowed !== b.allowed) return a.allowed ? b : a;
  return a.remaining <= b.remaining ? a : b;
}

/** Per credential and per organization limits for authenticated routes (mount after `authenticate`). */
export function rateLimit(deps: Pick<AppDeps, 'shared' | 'logger' | 'config'>): RequestHandler {
  const perCredential = createRateLimiter(deps, { name: 'credential', points: deps.config.RATE_LIMIT_PER_KEY_PER_MINUTE, durationSeconds: 60 });
  const perOrganization = createRateLimiter(deps, { name: 'organization', points: deps.config.RATE_LIMIT_PER_ORG_PER_MINUTE, durationSeconds: 60 });
  return async (req, res, next) => {
    const caller = callerOf(req);
    const credential = caller.apiKeyId ? `key:${caller.apiKeyId}` : `user:${caller.userId}`;
    const [byCredential, byOrganization] = await Promise.all([
      perCredential.consume(credential),
      perOrganization.consume(caller.organizationId),
    ]);
    const binding = tighter(byCredential, byOrganization);
    if (!binding.allowed) {
      metrics.rateLimitRejections.inc({ scope: byCredential.allowed ? 'organization' : 'credential' });
      throw rateLimitedError(binding);
    }
    setRateLimitHeaders(res, binding);
    next();
  };
}
