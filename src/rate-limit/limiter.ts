// Rate limiters (shared runtime, used by the API middleware and the webhook ingress): fixed
// windows counted atomically in Redis so every API instance shares them: one Lua script checks
// every counter a request is subject to and, only when all of them have room, counts it in all of
// them, in a single round trip. A rejected request consumes nothing, so a key over its own limit
// cannot use up its organization's quota and lock out the organization's other keys. A rejected
// request is 429 rate_limited with Retry-After (rateLimitedError).
//
// When Redis is unreachable the limits stay enforced, per instance: counting falls back to an
// in-memory twin with the same budget and the same rule (so N instances let through at most N
// times the limit) and logs a warning at most every 30 s. Requests are never refused because
// Redis is down.
import type { Redis } from 'ioredis';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { SharedState } from '../redis.js';

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

/** One counter a request is subject to: its full key, its window and how many requests it admits. */
interface CounterHit {
  key: string;
  windowMs: number;
  limit: number;
}

/** A counter after the request: requests counted in its window, and ms until the window ends. */
interface WindowCount {
  count: number;
  msLeft: number;
}

/** The outcome of one request against all its counters. */
interface HitResult {
  /** True when every counter had room; only then was the request counted (in all of them). */
  admitted: boolean;
  windows: WindowCount[];
}

interface CounterStore {
  /** Counts the request in every counter if each has room, else in none. */
  hit(hits: CounterHit[]): Promise<HitResult>;
}

const FALLBACK_WARNING_INTERVAL_MS = 30_000;

// KEYS: the counters; ARGV[i]: window of KEYS[i] in ms, ARGV[#KEYS + i]: its limit. First reads
// every counter; only if each has room for one more request increments them all (starting a
// window's expiry on its first hit). Returns {admitted (1/0), count1, pttl1, count2, pttl2, ...};
// a counter with no window yet reports its full window length.
const HIT_SCRIPT = `
local n = #KEYS
local counts = {}
local ttls = {}
local admitted = 1
for i = 1, n do
  counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  ttls[i] = redis.call('PTTL', KEYS[i])
  if counts[i] >= tonumber(ARGV[n + i]) then admitted = 0 end
end
if admitted == 1 then
  for i = 1, n do
    counts[i] = redis.call('INCR', KEYS[i])
    if ttls[i] < 0 then
      ttls[i] = tonumber(ARGV[i])
      redis.call('PEXPIRE', KEYS[i], ttls[i])
    end
  end
end
local out = {admitted}
for i = 1, n do
  if ttls[i] < 0 then ttls[i] = tonumber(ARGV[i]) end
  out[2 * i] = counts[i]
  out[2 * i + 1] = ttls[i]
end
return out`;

type ScriptedRedis = Redis & { svcRateHit: (numberOfKeys: number, ...keysWindowsLimits: (string | number)[]) => Promise<number[]> };

class RedisCounterStore implements CounterStore {
  private readonly redis: ScriptedRedis;

  constructor(redis: Redis) {
    // ioredis applies its keyPrefix to the script's keys and sends EVALSHA (EVAL on a cache miss).
    if (!('svcRateHit' in redis)) redis.defineCommand('svcRateHit', { lua: HIT_SCRIPT });
    this.redis = redis as ScriptedRedis;
  }

  async hit(hits: CounterHit[]): Promise<HitResult> {
    const reply = await this.redis.svcRateHit(
      hits.length,
      ...hits.map((h) => h.key),
      ...hits.map((h) => h.windowMs),
      ...hits.map((h) => h.limit),
    );
    return {
      admitted: Number(reply[0]) === 1,
      windows: hits.map((_, i) => ({ count: Number(reply[2 * i + 1]), msLeft: Number(reply[2 * i + 2]) })),
    };
  }
}

const MEMORY_SWEEP_SIZE = 10_000;

class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  // The same rule as HIT_SCRIPT: check every window, then count in all of them or in none.
  async hit(hits: CounterHit[]): Promise<HitResult> {
    const now = Date.now();
    if (this.windows.size >= MEMORY_SWEEP_SIZE) this.sweep(now);
    const windows = hits.map(({ key, windowMs }) => {
      const window = this.windows.get(key);
      return window && window.endsAt > now ? window : { count: 0, endsAt: now + windowMs };
    });
    const admitted = windows.every((window, i) => window.count < hits[i]!.limit);
    if (admitted) {
      windows.forEach((window, i) => {
        window.count += 1;
        this.windows.set(hits[i]!.key, window);
      });
    }
    return { admitted, windows: windows.map((window) => ({ count: window.count, msLeft: window.endsAt - now })) };
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
 * request against every limiter when each has room, else against none (keys in the order of
 * `options`). The request is admitted when every decision is `allowed`.
 */
export function createRateLimiters(deps: { shared: SharedState; logger: Logger }, options: RateLimiterOptions[]) {
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
export function createRateLimiter(deps: { shared: SharedState; logger: Logger }, options: RateLimiterOptions): RateLimiter {
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
function decision(limit: number, counted: WindowCount, admitted: boolean): RateLimitDecision {
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
