// Fixed-window request counters shared by the rate-limit middleware and the budget store, which
// counts a gateway request's rate limits in the same Lua script as its budget hold (one Redis
// round trip per request). The rule, in Redis and in memory alike: check every counter a request
// is subject to and, only when all of them have room, count it in all of them. A rejected request
// consumes nothing, so a key over its own limit cannot use up its organization's quota.

/** One counter a request is subject to: its full key, its window and how many requests it admits. */
export interface CounterHit {
  key: string;
  windowMs: number;
  limit: number;
}

/** A counter after the request: requests counted in its window, and ms until the window ends. */
export interface WindowCount {
  count: number;
  msLeft: number;
}

/** The outcome of one request against all its counters. */
export interface HitResult {
  /** True when every counter had room; only then was the request counted (in all of them). */
  admitted: boolean;
  windows: WindowCount[];
}

/**
 * Lua: `n` counters at KEYS[first..first+n-1], each with `stride` arguments from
 * ARGV[argFirst + stride(i-1)]: its window (ms), its limit and, with a stride of 3, the block of
 * slots to lease (rate-limit/leases.ts). Sets `admitted` (1/0), `counts`, `ttls` (a counter with no
 * window yet reports its full window length) and `granted` (slots counted), counting only when
 * every counter has room (starting a window's expiry on its first hit): by the block while that
 * leaves `spare` - 1 more blocks of room, else by one.
 */
export const LUA_COUNT_REQUESTS = `
local function count_requests(first, n, argFirst, stride, spare)
  local counts, ttls, granted = {}, {}, {}
  local admitted = 1
  for i = 1, n do
    local key = KEYS[first + i - 1]
    counts[i] = tonumber(redis.call('GET', key) or '0')
    ttls[i] = redis.call('PTTL', key)
    granted[i] = 0
    if counts[i] >= tonumber(ARGV[argFirst + stride * (i - 1) + 1]) then admitted = 0 end
  end
  for i = 1, n do
    local at = argFirst + stride * (i - 1)
    local window, limit = tonumber(ARGV[at]), tonumber(ARGV[at + 1])
    local lease = 1
    if stride > 2 then lease = tonumber(ARGV[at + 2]) end
    if admitted == 1 then
      local key = KEYS[first + i - 1]
      local by = 1
      if lease > 1 and counts[i] + lease * spare <= limit then by = lease end
      counts[i] = redis.call('INCRBY', key, by)
      granted[i] = by
      if ttls[i] < 0 then
        ttls[i] = window
        redis.call('PEXPIRE', key, window)
      end
    end
    if ttls[i] < 0 then ttls[i] = window end
  end
  return admitted, counts, ttls, granted
end
`;

/**
 * Lua: `hit_counters(first, n, argFirst)`, one request counted in `n` counters whose window and
 * limit are at ARGV[argFirst + 2(i-1)] and the next; returns `admitted`, `counts`, `ttls`.
 */
export const LUA_HIT_COUNTERS = `${LUA_COUNT_REQUESTS}
local function hit_counters(first, n, argFirst)
  local admitted, counts, ttls = count_requests(first, n, argFirst, 2, 1)
  return admitted, counts, ttls
end
`;

/** The script arguments of `hits` in LUA_HIT_COUNTERS's order: window, limit per counter. */
export function counterArgs(hits: CounterHit[]): number[] {
  return hits.flatMap((hit) => [hit.windowMs, hit.limit]);
}

/** Reads the `count, ttl` pairs a script appended after `offset` entries of its reply. */
export function windowsFrom(reply: unknown[], offset: number, n: number): WindowCount[] {
  return Array.from({ length: n }, (_, i) => ({ count: Number(reply[offset + 2 * i]), msLeft: Number(reply[offset + 2 * i + 1]) }));
}

const MEMORY_SWEEP_SIZE = 10_000;

/**
 * The in-process twin of LUA_HIT_COUNTERS. `hit` runs without awaiting, so a caller may combine
 * it with its own check (the budget hold) into one atomic step on this event loop.
 */
export class MemoryCounters {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  /** Checks every counter; counts in all of them only when `commit` and all have room. */
  hit(hits: CounterHit[], now = Date.now(), commit = true): HitResult {
    if (this.windows.size >= MEMORY_SWEEP_SIZE) this.sweep(now);
    const windows = hits.map(({ key, windowMs }) => {
      const window = this.windows.get(key);
      return window && window.endsAt > now ? window : { count: 0, endsAt: now + windowMs };
    });
    const admitted = windows.every((window, i) => window.count < hits[i]!.limit);
    if (admitted && commit) {
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
