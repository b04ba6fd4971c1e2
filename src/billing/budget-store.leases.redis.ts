// The Redis scripts behind local admission (lease-store.ts): ADMIT counts a request's rate-limit
// counters (leasing blocks of them while far from the limit) and takes a budget lease (an
// ordinary hold, sized from the headroom, while far from the cap) or today's per-request hold,
// in one round trip; SYNC moves a lease's locally settled spend into `spent`, resizes, renews or
// retires its hold in one atomic step. Besides the fields of budget-store.redis.ts the period
// hash keeps ls:<leaseId> -> the lease's settled total already added to `spent`, so a repeated
// SYNC (a lost reply) never counts spend twice.
import type { Redis } from 'ioredis';
import { leaseCounterArgs, leasedCountsFrom, LUA_LEASE_COUNTERS, LUA_RETURN_TOKENS } from '../rate-limit/leases.js';
import { DROP_EXPIRED, keyBudgetArgs, keysOf } from './budget-store.redis.js';
import type { PeriodRef } from './budget-store.js';
import type { AdmitOutcome, AdmitRequest, LeaseStore, LeaseSync, LeaseSyncOutcome } from './lease-store.js';

// KEYS: cap, state, exp, then the rate counters. ARGV: now, amount, mode (none|hold|lease),
// holdId, expiresAt, key ids and key caps (comma-separated, '' = none), lease expiresAt, lease ceiling, divisor, min
// requests, then window, limit, lease per counter. Order as in HOLD: loaded? -> counters (a
// rejection counts nothing and holds nothing) -> lease when the block covers min requests ->
// else the organization cap -> key budgets -> hold.
// Reply: {status, scope, cap, spent, reserved, leased, capVersion, count1, ttl1, granted1, ...}.
const ADMIT = `${DROP_EXPIRED}${LUA_LEASE_COUNTERS}
local capv = redis.call('GET', KEYS[1])
if (not capv) or redis.call('EXISTS', KEYS[2]) == 0 then return {'uninitialised'} end
local keyIds, keyCaps = list_of(ARGV[6]), list_of(ARGV[7])
if not keys_loaded(KEYS[2], keyIds) then return {'uninitialised'} end
local n = #KEYS - 3
local admitted, counts, ttls, granted = lease_counters(4, n, 12)
local function reply(status, scope, cap, spent, reserved, leased)
  local out = {status, scope, cap, spent, reserved, leased, cap_version_of(capv)}
  for i = 1, n do
    out[#out + 1] = counts[i]
    out[#out + 1] = ttls[i]
    out[#out + 1] = granted[i]
  end
  return out
end
if admitted == 0 then return reply('limited', '', '', '', '', '') end
local mode = ARGV[3]
if mode == 'none' then return reply('counted', '', '', '', '', '') end
drop_expired(KEYS[2], KEYS[3], ARGV[1])
local spent = tonumber(redis.call('HGET', KEYS[2], 'spent') or '0')
local reserved = tonumber(redis.call('HGET', KEYS[2], 'reserved') or '0')
local amount = tonumber(ARGV[2])
local cap = cap_of(capv)
local id = ARGV[4]
local function hold(size, expiresAt) place_hold(KEYS[2], KEYS[3], id, size, expiresAt) end
if mode == 'lease' then
  local ceiling, divisor = tonumber(ARGV[9]), tonumber(ARGV[10])
  local headroom = ceiling * divisor
  if cap ~= 'none' then headroom = tonumber(cap) - spent - reserved end
  local block = math.min(ceiling, math.floor(headroom / divisor))
  if block > 0 and block >= amount * tonumber(ARGV[11]) then
    local size = string.format('%d', block)
    hold(size, ARGV[8])
    return reply('leased', '', '', '', '', size)
  end
end
if cap ~= 'none' and spent + reserved + amount > tonumber(cap) then
  return reply('exceeded', 'organization', cap, string.format('%d', spent), string.format('%d', reserved), '')
end
local over = key_over(KEYS[2], keyIds, keyCaps, amount)
if over then return reply('exceeded', 'key', over[1], over[2], over[3], '') end
hold_keys(KEYS[2], id, keyIds, ARGV[6], ARGV[2])
hold(ARGV[2], ARGV[5])
return reply('held', '', '', '', '', '')
`;

// KEYS: cap, state, exp. ARGV: leaseId, settled total, amount, now, expiresAt, cap version, min
// headroom, final (1/0). Spend first (so it counts even for a lapsed lease), then: lapsed ->
// dropped; else resized to `amount` (0 closes it) and renewed, and reported 'retired' when the
// cap changed or the headroom besides this lease is below the minimum.
const SYNC = `${DROP_EXPIRED}
local id = ARGV[1]
if redis.call('HEXISTS', KEYS[2], 'spent') == 1 then
  local applied = tonumber(redis.call('HGET', KEYS[2], 'ls:' .. id) or '0')
  local total = tonumber(ARGV[2])
  if total > applied then
    redis.call('HINCRBY', KEYS[2], 'spent', string.format('%d', total - applied))
    redis.call('HSET', KEYS[2], 'ls:' .. id, ARGV[2])
  end
end
local status = 'kept'
local held = redis.call('HGET', KEYS[2], 'h:' .. id)
local score = redis.call('ZSCORE', KEYS[3], id)
if (not held) or (not score) or tonumber(score) <= tonumber(ARGV[4]) then
  close_hold(KEYS[2], KEYS[3], id)
  status = 'lapsed'
else
  held = tonumber(held)
  local amount = tonumber(ARGV[3])
  local capv = redis.call('GET', KEYS[1])
  if capv then
    local cap = cap_of(capv)
    local spent = tonumber(redis.call('HGET', KEYS[2], 'spent') or '0')
    local others = tonumber(redis.call('HGET', KEYS[2], 'reserved') or '0') - held
    if cap_version_of(capv) ~= ARGV[6] or (cap ~= 'none' and tonumber(cap) - spent - others < tonumber(ARGV[7])) then
      status = 'retired'
    end
  end
  if amount <= 0 then
    close_hold(KEYS[2], KEYS[3], id)
  else
    redis.call('HINCRBY', KEYS[2], 'reserved', string.format('%d', amount - held))
    redis.call('HSET', KEYS[2], 'h:' .. id, string.format('%d', amount))
    redis.call('ZADD', KEYS[3], 'XX', ARGV[5], id)
  end
end
if ARGV[8] == '1' then redis.call('HDEL', KEYS[2], 'ls:' .. id) end
return status
`;

interface LeaseCommands {
  budgetAdmit(numberOfKeys: number, ...keysAndArgs: (string | number)[]): Promise<(string | number)[]>;
  budgetLeaseSync(cap: string, state: string, exp: string, ...args: (string | number)[]): Promise<string>;
  rateReturnTokens(numberOfKeys: number, ...keysAndArgs: (string | number)[]): Promise<number>;
}

export class RedisLeaseStore implements LeaseStore {
  private readonly redis: Redis & LeaseCommands;
  /** Counts the client's `ready` events: each reconnect is a new connection. */
  private connections = 0;

  constructor(redis: Redis) {
    redis.on('ready', () => {
      this.connections += 1;
    });
    redis.defineCommand('budgetAdmit', { lua: ADMIT });
    redis.defineCommand('budgetLeaseSync', { numberOfKeys: 3, lua: SYNC });
    redis.defineCommand('rateReturnTokens', { lua: LUA_RETURN_TOKENS });
    this.redis = redis as Redis & LeaseCommands;
  }

  connection(): number | undefined {
    return this.redis.status === 'ready' ? this.connections : undefined;
  }

  async admit(request: AdmitRequest): Promise<AdmitOutcome> {
    const keys = keysOf(request);
    const { budget, counters } = request;
    const hold = budget.mode === 'none' ? undefined : budget;
    const keyBudgets = budget.mode === 'hold' ? budget.keys : undefined;
    const lease = budget.mode === 'lease' ? budget : undefined;
    const reply = await this.redis.budgetAdmit(
      3 + counters.length,
      keys.cap, keys.state, keys.expiry, ...counters.map((c) => c.hit.key),
      request.nowMs, request.amount, budget.mode, hold?.holdId ?? '', hold?.expiresAtMs ?? 0, ...keyBudgetArgs(keyBudgets),
      lease?.leaseExpiresAtMs ?? 0, lease?.sizing.ceiling ?? 0, lease?.sizing.divisor ?? 1, lease?.sizing.minRequests ?? 1,
      ...leaseCounterArgs(counters),
    );
    const [status, scope, cap, spent, reserved, leased, capVersion] = reply;
    if (status === 'uninitialised') return { status: 'uninitialised' };
    const counts = leasedCountsFrom(reply, 7, counters.length);
    switch (status) {
      case 'limited':
      case 'counted':
      case 'held':
        return { status, counts };
      case 'leased':
        return { status, amount: Number(leased), capVersion: String(capVersion), counts };
      default:
        return { status: 'exceeded', scope: scope === 'key' ? 'key' : 'organization', cap: Number(cap), spent: Number(spent), reserved: Number(reserved), counts };
    }
  }

  async sync(ref: PeriodRef, sync: LeaseSync): Promise<LeaseSyncOutcome> {
    const keys = keysOf(ref);
    const outcome = await this.redis.budgetLeaseSync(
      keys.cap, keys.state, keys.expiry,
      sync.holdId, sync.settledTotal, sync.amount, sync.nowMs, sync.expiresAtMs, sync.capVersion, sync.minHeadroom, sync.final ? 1 : 0,
    );
    return outcome === 'retired' || outcome === 'lapsed' ? outcome : 'kept';
  }

  async returnTokens(tokens: { key: string; tokens: number }[]): Promise<void> {
    if (tokens.length === 0) return;
    await this.redis.rateReturnTokens(tokens.length, ...tokens.map((t) => t.key), ...tokens.map((t) => t.tokens));
  }
}
