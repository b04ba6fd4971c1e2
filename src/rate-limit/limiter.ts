// Rate limiters (shared runtime, used by the API middleware and the webhook ingress): fixed
// windows counted atomically in Redis so every API instance shares them: one Lua script checks
// every counter a request is subject to and, only when all of them have room, counts it in all of
// them, in a single round trip. A rejected request consumes nothing, so a key over its own limit
// cannot use up its organization's quota and lock out the organization's other keys. A rejected
// request is 429 rate_limited with Retry-After (rateLimitedError). The counters and their Lua
// live in counters.ts, shared with the budget hold, which counts a gateway request's limits in
// its own script (one Redis round trip for both).
//
// When Redis is unreachable the limits stay enforced, per instance: counting falls back to an
// in-memory twin with the same budget and the same rule (so N instances let through at most N
// times the limit) and logs a warning at most every 30 s. Requests are never refused because
// Redis is down.
import type { Redis } from 'ioredis';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { counterArgs, LUA_HIT_COUNTERS, windowsFrom, type CounterHit, type HitResult, type MemoryCounters, type WindowCount } from './counters.js';

/** Where counters live: the shared Redis when there is one, and this process's windows (the runtime's SharedState). */
export interface CounterBackend {
  readonly kind: 'redis' | 'memory';
  readonly redis: Redis | undefined;
  readonly counters: MemoryCounters;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

export interface RateLimiter {
  readonly points: number;
  /** Counts one request for `key` if it is within the limit (a rejected one is not counted). */
  consume(key: string): Promise<RateLimitDecision>;
}

export interface RateLimiterOptions {
  /** Distinguishes counters of different limiters, e.g. `webhook-id`. */
  name: string;
  points: number;
  durationSeconds: number;
}

export interface CounterStore {
  /** Counts the request in every counter if each has room, else in none. */
  hit(hits: CounterHit[]): Promise<HitResult>;
}

const FALLBACK_WARNING_INTERVAL_MS = 30_000;

// Returns {admitted (1/0), count1, pttl1, count2, pttl2, ...}.
const HIT_SCRIPT = `${LUA_HIT_COUNTERS}
local admitted, counts, ttls = hit_counters(1, #KEYS, 1)
local out = {admitted}
for i = 1, #KEYS do
  out[2 * i] = counts[i]
  out[2 * i + 1] = ttls[i]
end
return out`;

type ScriptedRedis = Redis & { svcRateHit: (numberOfKeys: number, ...keysAndArgs: (string | number)[]) => Promise<number[]> };

class RedisCounterStore implements CounterStore {
  private readonly redis: ScriptedRedis;

  constructor(redis: Redis) {
    // ioredis applies its keyPrefix to the script's keys and sends EVALSHA (EVAL on a cache miss).
    if (!('svcRateHit' in redis)) redis.defineCommand('svcRateHit', { lua: HIT_SCRIPT });
    this.redis = redis as ScriptedRedis;
  }

  async hit(hits: CounterHit[]): Promise<HitResult> {
    const reply = await this.redis.svcRateHit(hits.length, ...hits.map((h) => h.key), ...counterArgs(hits));
    return { admitted: Number(reply[0]) === 1, windows: windowsFrom(reply, 1, hits.length) };
  }
}

/** Counters on the shared Redis, falling back to this instance's memory while Redis fails. */
export function counterStoreFor(deps: { shared: CounterBackend; logger: Logger }): CounterStore {
  const { counters } = deps.shared;
  const memory: CounterStore = { hit: async (hits) => counters.hit(hits) };
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
 * request against every limiter when each has room, else against none (keys in the order of
 * `options`). The request is admitted when every decision is `allowed`.
 */
export function createRateLimiters(deps: { shared: CounterBackend; logger: Logger }, options: RateLimiterOptions[]) {
  const store = counterStoreFor(deps);
  return {
    async consume(keys: string[]): Promise<RateLimitDecision[]> {
      const result = await store.hit(
        options.map((o, i) => ({ key: `rl:${o.name}:${keys[i]}`, windowMs: o.durationSeconds * 1000, limit: o.points })),
      );
      return result.windows.map((counted, i) => decision(options[i]!.points, counted, result.admitted));
    },
  };
}

/** A limiter on the shared Redis (or in memory without it). Reusable: webhooks limit per id and IP. */
export function createRateLimiter(deps: { shared: CounterBackend; logger: Logger }, options: RateLimiterOptions): RateLimiter {
  const limiters = createRateLimiters(deps, [options]);
  return {
    points: options.points,
    consume: async (key) => (await limiters.consume([key]))[0]!,
  };
}

/**
 * One limiter's view of a request. When the request was not admitted it was counted nowhere;
 * `allowed` then says whether this limiter had room (false for the one that rejected it).
 */
export function decision(limit: number, counted: WindowCount, admitted: boolean): RateLimitDecision {
  return {
    allowed: admitted || counted.count < limit,
    limit,
    remaining: Math.max(0, limit - counted.count),
    resetSeconds: Math.max(1, Math.ceil(counted.msLeft / 1000)),
  };
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

