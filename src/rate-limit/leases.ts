// Rate-limit leases: an instance counts a block of k requests into a shared fixed-window counter
// at once (INCRBY k, in the budget lease script, budget-store.leases.redis.ts) and then admits
// requests from that block locally, without a Redis call, until the block or the window runs out.
// The guarantee does not change: the shared counter is only ever raised while the raise fits the
// limit, and a request is admitted only against a counted slot (a block token or its own INCR), so
// the requests admitted in one window never pass the limit, whatever the number of instances.
// A block is only leased while the counter stays far from the limit (after the raise, at least
// LEASE_SPARE_BLOCKS - 1 more blocks fit); nearer, the script counts the request alone, as before.
// Unused tokens are given back (DECRBY) when the instance closes, so others are not starved.
import { LUA_COUNT_REQUESTS, type CounterHit, type WindowCount } from './counters.js';

/** A block is leased only while `count + k * LEASE_SPARE_BLOCKS <= limit`. */
export const LEASE_SPARE_BLOCKS = 4;
/** Blocks smaller than this are not worth leasing: the request is counted alone. */
const MIN_BLOCK = 4;
/**
 * Local admission from a block stops this long before the window's end as measured at the lease
 * (from the moment the script was sent, so it is never later than Redis's end): a token is never
 * spent in the next window.
 */
const WINDOW_END_MARGIN_MS = 50;
/** Tokens are given back only while the window has at least this long left (it is surely the same window). */
const RETURN_MARGIN_MS = 1_000;

interface TokenBlock {
  tokens: number;
  /** The counter's count right after the lease, the block included. */
  countAtLease: number;
  /** Local ms (Date.now) after which the block is void. */
  endsAtMs: number;
}

/** A counter to count in Redis for this request, with the block to lease (0: this request only). */
export interface CounterLease {
  hit: CounterHit;
  lease: number;
}

/** What the script did to one counter: its count after, ms left in its window, and slots it counted (0 when rejected). */
export interface LeasedCount extends WindowCount {
  granted: number;
}

export class TokenBlocks {
  private readonly blocks = new Map<string, TokenBlock>();

  /** `divisor`: a block is `floor(limit / divisor)` requests; 0 turns rate leases off. */
  constructor(private readonly divisor: number) {}

  /** The block to lease for a counter of this limit (0: count each request alone). */
  leaseSize(limit: number): number {
    if (this.divisor <= 0) return 0;
    const size = Math.floor(limit / this.divisor);
    return size >= MIN_BLOCK ? size : 0;
  }

  /** True when `hit` has a live block with a token left. */
  has(hit: CounterHit, nowMs: number): boolean {
    const block = this.blocks.get(hit.key);
    return block !== undefined && block.tokens > 0 && nowMs < block.endsAtMs;
  }

  /** Takes one token of `hit`'s block (call only after `has`); returns the window as the caller sees it. */
  take(hit: CounterHit, nowMs: number): WindowCount {
    const block = this.blocks.get(hit.key)!;
    block.tokens -= 1;
    return this.windowOf(block, nowMs);
  }

  /** Gives back a token taken for a request that was then refused. */
  giveBack(hit: CounterHit): void {
    const block = this.blocks.get(hit.key);
    if (block) block.tokens += 1;
  }

  /** The caller's view of a block: counted so far (its unused tokens left out), ms left. */
  windowOf(block: TokenBlock, nowMs: number): WindowCount {
    return { count: block.countAtLease - block.tokens, msLeft: Math.max(0, block.endsAtMs + WINDOW_END_MARGIN_MS - nowMs) };
  }

  /**
   * Keeps what the script counted beyond this request's own slot as a local block. `sentAtMs`:
   * when the script was sent, so the block's end is never later than the counter's.
   */
  store(hit: CounterHit, counted: LeasedCount, sentAtMs: number): void {
    if (counted.granted <= 1) return;
    const endsAtMs = sentAtMs + counted.msLeft - WINDOW_END_MARGIN_MS;
    const current = this.blocks.get(hit.key);
    // A concurrent lease of the same window (two credentials' refills): keep both blocks' tokens.
    const carried = current && current.endsAtMs > sentAtMs && Math.abs(current.endsAtMs - endsAtMs) < 1_000 ? current.tokens : 0;
    this.blocks.set(hit.key, { tokens: counted.granted - 1 + carried, countAtLease: counted.count, endsAtMs });
  }

  /** The caller's view of a counter the script counted for this request (its block's unused tokens left out). */
  static counted(counted: LeasedCount): WindowCount {
    return { count: counted.count - Math.max(0, counted.granted - 1), msLeft: counted.msLeft };
  }

  /** Empties every block; returns the unused tokens of windows that surely have not ended, to give back. */
  drain(nowMs: number): { key: string; tokens: number }[] {
    const unused = [...this.blocks].filter(([, block]) => block.tokens > 0 && block.endsAtMs - nowMs > RETURN_MARGIN_MS);
    this.blocks.clear();
    return unused.map(([key, block]) => ({ key, tokens: block.tokens }));
  }
}

/**
 * Lua: `lease_counters(first, n, argFirst)`, LUA_HIT_COUNTERS's rule with a block size per counter
 * (ARGV per counter from `argFirst`: window, limit, lease): admits when every counter has room for
 * one, then raises each counter by its lease when the raise leaves LEASE_SPARE_BLOCKS - 1 more
 * blocks of room, else by one.
 */
export const LUA_LEASE_COUNTERS = `${LUA_COUNT_REQUESTS}
local function lease_counters(first, n, argFirst)
  return count_requests(first, n, argFirst, 3, ${LEASE_SPARE_BLOCKS})
end
`;

/** Script arguments of `counters` in LUA_LEASE_COUNTERS's order. */
export function leaseCounterArgs(counters: CounterLease[]): number[] {
  return counters.flatMap(({ hit, lease }) => [hit.windowMs, hit.limit, lease]);
}

/** Reads the `count, ttl, granted` triples a script appended after `offset` entries of its reply. */
export function leasedCountsFrom(reply: unknown[], offset: number, n: number): LeasedCount[] {
  return Array.from({ length: n }, (_, i) => ({
    count: Number(reply[offset + 3 * i]),
    msLeft: Number(reply[offset + 3 * i + 1]),
    granted: Number(reply[offset + 3 * i + 2]),
  }));
}

/** Lua (KEYS: counters; ARGV: tokens each): gives unused tokens back while the window lives on. */
export const LUA_RETURN_TOKENS = `
for i = 1, #KEYS do
  local n = tonumber(ARGV[i])
  if redis.call('PTTL', KEYS[i]) > ${RETURN_MARGIN_MS / 2} and tonumber(redis.call('GET', KEYS[i]) or '0') >= n then
    redis.call('DECRBY', KEYS[i], n)
  end
end
return 1
`;
