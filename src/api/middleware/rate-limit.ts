// Rate limits: fixed one-minute windows per API key (or session user) and per organization,
// counted atomically in Redis so every API instance shares them: one Lua script increments every
// counter a request is subject to in a single round trip. Every authenticated response carries
// X-RateLimit-Limit / -Remaining / -Reset (seconds until the window resets) for the tighter of
// the two; a rejected request is 429 rate_limited with Retry-After.
//
// When Redis is unreachable the limits stay enforced, per instance: counting falls back to an
// in-memory twin with the same budget (so N instances let through at most N times the limit)
// and logs a warning at most every 30 s. Requests are never refused because Redis is down.
import type { Redis } from 'ioredis';
import type { RequestHandler, Response } from 'express';
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

/** One counter to increment: its full key and its window. */
interface CounterHit {
  key: string;
  windowMs: number;
}

/** A counter after the increment: requests counted in its window, and ms until the window ends. */
interface WindowCount {
  count: number;
  msLeft: number;
}

interface CounterStore {
  hit(hits: CounterHit[]): Promise<WindowCount[]>;
}

const FALLBACK_WARNING_INTERVAL_MS = 30_000;

// Increments each key, starting its window (expiry) on the first hit; returns count and PTTL pairs.
const HIT_SCRIPT = `
local out = {}
for i = 1, #KEYS do
  local count = redis.call('INCR', KEYS[i])
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then
    ttl = tonumber(ARGV[i])
    redis.call('PEXPIRE', KEYS[i], ttl)
  end
  out[2 * i - 1] = count
  out[2 * i] = ttl
end
return out`;

type ScriptedRedis = Redis & { svcRateHit: (numberOfKeys: number, ...keysThenWindows: (string | number)[]) => Promise<number[]> };

class RedisCounterStore implements CounterStore {
  private readonly redis: ScriptedRedis;

  constructor(redis: Redis) {
    // ioredis applies its keyPrefix to the script's keys and sends EVALSHA (EVAL on a cache miss).
    if (!('svcRateHit' in redis)) redis.defineCommand('svcRateHit', { lua: HIT_SCRIPT });
    this.redis = redis as ScriptedRedis;
  }

  async hit(hits: CounterHit[]): Promise<WindowCount[]> {
    const reply = await this.redis.svcRateHit(hits.length, ...hits.map((h) => h.key), ...hits.map((h) => h.windowMs));
    return hits.map((_, i) => ({ count: Number(reply[2 * i]), msLeft: Number(reply[2 * i + 1]) }));
  }
}

const MEMORY_SWEEP_SIZE = 10_000;

class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  async hit(hits: CounterHit[]): Promise<WindowCount[]> {
    const now = Date.now();
    if (this.windows.size >= MEMORY_SWEEP_SIZE) this.sweep(now);
    return hits.map(({ key, windowMs }) => {
      let window = this.windows.get(key);
      if (!window || window.endsAt <= now) {
        window = { count: 0, endsAt: now + windowMs };
        this.windows.set(key, window);
      }
      window.count += 1;
      return { count: window.count, msLeft: window.endsAt - now };
    });
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}

/** Counters on the shared Redis, falling back to this instance's memory while Redis fails. */
function counterStoreFor(deps: { shared: SharedState; logger: Logger }): CounterStore {
  const memory = new MemoryCounterStore();
  if (deps.shared.kind !== 'redis' || !deps.shared.redis) return memory;
  const redis = new RedisCounterStore(deps.shared.redis);
  let lastWarning = 0;
  return {
    async hit(hits) {
      try {
        return await redis.hit(hits);
      } catch (error) {
        if (Date.now() - lastWarning > FALLBACK_WARNING_INTERVAL_MS) {
          lastWarning = Date.now();
          deps.logger.warn({ err: error, limiters: hits.map((h) => h.key.split(':')[1]) }, 'rate limit store unreachable: limiting in memory on this instance');
        }
        return memory.hit(hits);
      }
    },
  };
}

/**
 * Limiters whose counters are hit together, in one round trip: `consume(keys)` counts one
 * request against each limiter (keys in the order of `options`).
 */
export function createRateLimiters(deps: { shared: SharedState; logger: Logger }, options: RateLimiterOptions[]) {
  const store = counterStoreFor(deps);
  return {
    async consume(keys: string[]): Promise<RateLimitDecision[]> {
      const counts = await store.hit(options.map((o, i) => ({ key: `rl:${o.name}:${keys[i]}`, windowMs: o.durationSeconds * 1000 })));
      return counts.map((counted, i) => decision(options[i]!.points, counted));
    },
  };
}

/** A limiter on the shared Redis (or in memory without it). Reusable: webhooks limit per id and IP. */
export function createRateLimiter(deps: { shared: SharedState; logger: Logger }, options: RateLimiterOptions): RateLimiter {
  const limiters = createRateLimiters(deps, [options]);
  return {
    points: options.points,
    consume: async (key) => (await limiters.consume([key]))[0]!,
  };
}

function decision(limit: number, counted: WindowCount): RateLimitDecision {
  return {
    allowed: counted.count <= limit,
    limit,
    remaining: Math.max(0, limit - counted.count),
    resetSeconds: Math.max(1, Math.ceil(counted.msLeft / 1000)),
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
