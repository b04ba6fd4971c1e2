// The Redis flavour of the budget store: every operation is one Lua script, so the check
// "spent + reserved + amount <= cap" and the hold it admits happen atomically for all API
// instances and workers sharing the Redis. Keys carry the organization in a hash tag, so one
// organization's keys live in one cluster slot:
//   budget:{org}:cap            "<version>:<cap nanos>" or "<version>:none"
//   budget:{org}:<YYYY-MM>      hash: spent, reserved, h:<holdId> -> amount
//   budget:{org}:<YYYY-MM>:exp  sorted set: holdId scored by expiry (ms)
import type { Redis } from 'ioredis';
import type { BudgetStore, CapSetting, HoldOutcome, HoldRequest, PeriodRef, PeriodState } from './budget-store.js';

// Integers are formatted with %d: Lua numbers are doubles and tostring() would turn large ones
// into exponent notation that HINCRBY rejects.
const DROP_EXPIRED = `
local function drop_expired(state, exp, now)
  local expired = redis.call('ZRANGEBYSCORE', exp, '-inf', now)
  for _, id in ipairs(expired) do
    local held = redis.call('HGET', state, 'h:' .. id)
    if held then
      redis.call('HINCRBY', state, 'reserved', string.format('%d', -tonumber(held)))
      redis.call('HDEL', state, 'h:' .. id)
    end
    redis.call('ZREM', exp, id)
  end
end
local function cap_of(value)
  local sep = string.find(value, ':', 1, true)
  return string.sub(value, sep + 1)
end
`;

const CLOSE_HOLD = `
local function close_hold(state, exp, id)
  local held = redis.call('HGET', state, 'h:' .. id)
  if held then
    redis.call('HINCRBY', state, 'reserved', string.format('%d', -tonumber(held)))
    redis.call('HDEL', state, 'h:' .. id)
  end
  redis.call('ZREM', exp, id)
end
`;

// KEYS: cap, state, exp. ARGV: now, amount, holdId, expiresAt.
const HOLD = `${DROP_EXPIRED}
local capv = redis.call('GET', KEYS[1])
if (not capv) or redis.call('EXISTS', KEYS[2]) == 0 then return {'uninitialised'} end
drop_expired(KEYS[2], KEYS[3], ARGV[1])
local spent = tonumber(redis.call('HGET', KEYS[2], 'spent') or '0')
local reserved = tonumber(redis.call('HGET', KEYS[2], 'reserved') or '0')
local amount = tonumber(ARGV[2])
local cap = cap_of(capv)
if cap ~= 'none' and spent + reserved + amount > tonumber(cap) then
  return {'exceeded', cap, string.format('%d', spent), string.format('%d', reserved)}
end
redis.call('HINCRBY', KEYS[2], 'reserved', ARGV[2])
redis.call('HSET', KEYS[2], 'h:' .. ARGV[3], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
local ttl = redis.call('PTTL', KEYS[2])
if ttl > 0 then redis.call('PEXPIRE', KEYS[3], ttl) end
return {'held'}
`;

// KEYS: state, exp. ARGV: holdId, actual (empty for a release).
const CLOSE = `${CLOSE_HOLD}
close_hold(KEYS[1], KEYS[2], ARGV[1])
-- Without the spend counter (lost or never loaded) the usage record alone carries this cost:
-- the next initialisation sums it from the database.
if ARGV[2] ~= '' and redis.call('HEXISTS', KEYS[1], 'spent') == 1 then
  redis.call('HINCRBY', KEYS[1], 'spent', ARGV[2])
end
return 1
`;

// KEYS: state, exp. ARGV: holdId, now, expiresAt. A hold past its expiry stays lapsed, even
// when no script has dropped it yet.
const RENEW = `
local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
if (not score) or tonumber(score) <= tonumber(ARGV[2]) or redis.call('HEXISTS', KEYS[1], 'h:' .. ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], 'XX', ARGV[3], ARGV[1])
return 1
`;

// KEYS: cap, state. ARGV: cap value, version, spent, period ttl seconds.
const INITIALISE = `
redis.call('SET', KEYS[1], ARGV[2] .. ':' .. ARGV[1], 'NX')
if redis.call('HSETNX', KEYS[2], 'spent', ARGV[3]) == 1 then
  redis.call('HSETNX', KEYS[2], 'reserved', '0')
  redis.call('EXPIRE', KEYS[2], ARGV[4])
end
return 1
`;

// KEYS: cap. ARGV: cap value, version.
const SET_CAP = `
local current = redis.call('GET', KEYS[1])
if current then
  local sep = string.find(current, ':', 1, true)
  if tonumber(string.sub(current, 1, sep - 1)) >= tonumber(ARGV[2]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2] .. ':' .. ARGV[1])
return 1
`;

// KEYS: cap, state, exp. ARGV: now.
const READ = `${DROP_EXPIRED}
local capv = redis.call('GET', KEYS[1])
if (not capv) or redis.call('EXISTS', KEYS[2]) == 0 then return false end
drop_expired(KEYS[2], KEYS[3], ARGV[1])
return {cap_of(capv), redis.call('HGET', KEYS[2], 'spent') or '0', redis.call('HGET', KEYS[2], 'reserved') or '0'}
`;

interface BudgetCommands {
  budgetHold(cap: string, state: string, exp: string, now: number, amount: number, holdId: string, expiresAt: number): Promise<string[]>;
  budgetClose(state: string, exp: string, holdId: string, actual: string): Promise<number>;
  budgetRenew(state: string, exp: string, holdId: string, now: number, expiresAt: number): Promise<number>;
  budgetInitialise(cap: string, state: string, capValue: string, version: number, spent: number, ttl: number): Promise<number>;
  budgetSetCap(cap: string, capValue: string, version: number): Promise<number>;
  budgetRead(cap: string, state: string, exp: string, now: number): Promise<string[] | null>;
}

type RedisWithBudget = Redis & BudgetCommands;

export class RedisBudgetStore implements BudgetStore {
  private readonly redis: RedisWithBudget;

  constructor(redis: Redis) {
    redis.defineCommand('budgetHold', { numberOfKeys: 3, lua: HOLD });
    redis.defineCommand('budgetClose', { numberOfKeys: 2, lua: CLOSE });
    redis.defineCommand('budgetRenew', { numberOfKeys: 2, lua: RENEW });
    redis.defineCommand('budgetInitialise', { numberOfKeys: 2, lua: INITIALISE });
    redis.defineCommand('budgetSetCap', { numberOfKeys: 1, lua: SET_CAP });
    redis.defineCommand('budgetRead', { numberOfKeys: 3, lua: READ });
    this.redis = redis as RedisWithBudget;
  }

  async hold(request: HoldRequest): Promise<HoldOutcome> {
    const keys = keysOf(request);
    const [status, cap, spent, reserved] = await this.redis.budgetHold(
      keys.cap, keys.state, keys.expiry, request.nowMs, request.amount, request.holdId, request.expiresAtMs,
    );
    if (status === 'held') return { status: 'held' };
    if (status === 'exceeded') return { status: 'exceeded', cap: Number(cap), spent: Number(spent), reserved: Number(reserved) };
    return { status: 'uninitialised' };
  }

  async settle(ref: PeriodRef, holdId: string, actual: number): Promise<void> {
    const keys = keysOf(ref);
    await this.redis.budgetClose(keys.state, keys.expiry, holdId, String(actual));
  }

  async release(ref: PeriodRef, holdId: string): Promise<void> {
    const keys = keysOf(ref);
    await this.redis.budgetClose(keys.state, keys.expiry, holdId, '');
  }

  async renew(ref: PeriodRef, holdId: string, nowMs: number, expiresAtMs: number): Promise<boolean> {
    const keys = keysOf(ref);
    return (await this.redis.budgetRenew(keys.state, keys.expiry, holdId, nowMs, expiresAtMs)) === 1;
  }

  async initialise(ref: PeriodRef, cap: CapSetting, spent: number, periodTtlSeconds: number): Promise<void> {
    const keys = keysOf(ref);
    await this.redis.budgetInitialise(keys.cap, keys.state, capValue(cap), cap.version, spent, periodTtlSeconds);
  }

  async setCap(organizationId: string, cap: CapSetting): Promise<void> {
    await this.redis.budgetSetCap(capKey(organizationId), capValue(cap), cap.version);
  }

  async read(ref: PeriodRef, nowMs: number): Promise<PeriodState | undefined> {
    const keys = keysOf(ref);
    const result = await this.redis.budgetRead(keys.cap, keys.state, keys.expiry, nowMs);
    if (!result) return undefined;
    const [cap, spent, reserved] = result;
    return { cap: cap === 'none' ? null : Number(cap), spent: Number(spent), reserved: Number(reserved) };
  }
}

function capKey(organizationId: string): string {
  return `budget:{${organizationId}}:cap`;
}

function keysOf(ref: PeriodRef): { cap: string; state: string; expiry: string } {
  const state = `budget:{${ref.organizationId}}:${ref.period}`;
  return { cap: capKey(ref.organizationId), state, expiry: `${state}:exp` };
}

function capValue(cap: CapSetting): string {
  return cap.cap === null ? 'none' : String(cap.cap);
}
