// The Redis flavour of the budget store: every operation is one Lua script, so the check
// "spent + reserved + amount <= cap" and the hold it admits happen atomically for all API
// instances and workers sharing the Redis. Keys carry the organization in a hash tag, so one
// organization's keys live in one cluster slot:
//   budget:{org}:cap            "<version>:<cap nanos>" or "<version>:none"
//   budget:{org}:<YYYY-MM>      hash: spent, reserved, h:<holdId> -> amount; for keys with a
//                               budget k:<keyId> -> spent through the key (its own and its
//                               descendants'), kr:<keyId> -> reserved, hk:<holdId> -> the hold's
//                               budgeted keys, comma-separated (the calling key and those above it)
//   budget:{org}:<YYYY-MM>:exp  sorted set: holdId scored by expiry (ms)
import type { Redis } from 'ioredis';
import type { BudgetStore, CapSetting, HoldOutcome, HoldRequest, KeyBudget, KeySpend, PeriodRef, PeriodState } from './budget-store.js';

// Integers are formatted with %d: Lua numbers are doubles and tostring() would turn large ones
// into exponent notation that HINCRBY rejects.
const LIST_OF = `
local function list_of(csv)
  local out = {}
  for item in string.gmatch(csv, '[^,]+') do out[#out + 1] = item end
  return out
end
`;

export const CLOSE_HOLD = `${LIST_OF}
local function close_hold(state, exp, id)
  local held = redis.call('HGET', state, 'h:' .. id)
  if held then
    local minus = string.format('%d', -tonumber(held))
    redis.call('HINCRBY', state, 'reserved', minus)
    local keys = redis.call('HGET', state, 'hk:' .. id)
    if keys then
      for _, key in ipairs(list_of(keys)) do
        if redis.call('HEXISTS', state, 'kr:' .. key) == 1 then redis.call('HINCRBY', state, 'kr:' .. key, minus) end
      end
      redis.call('HDEL', state, 'hk:' .. id)
    end
    redis.call('HDEL', state, 'h:' .. id)
  end
  redis.call('ZREM', exp, id)
end
`;

export const DROP_EXPIRED = `${CLOSE_HOLD}
local function drop_expired(state, exp, now)
  local expired = redis.call('ZRANGEBYSCORE', exp, '-inf', now)
  for _, id in ipairs(expired) do close_hold(state, exp, id) end
end
local function cap_of(value)
  local sep = string.find(value, ':', 1, true)
  return string.sub(value, sep + 1)
end
-- Opens hold id of size nanos (HINCRBY with a string: see %d above), lapsing at expiresAt; the
-- expiry set lives as long as the period's hash.
local function place_hold(state, exp, id, size, expiresAt)
  redis.call('HINCRBY', state, 'reserved', size)
  redis.call('HSET', state, 'h:' .. id, size)
  redis.call('ZADD', exp, expiresAt, id)
  local ttl = redis.call('PTTL', state)
  if ttl > 0 then redis.call('PEXPIRE', exp, ttl) end
end
local function cap_version_of(value)
  local sep = string.find(value, ':', 1, true)
  return string.sub(value, 1, sep - 1)
end
-- Key budgets: ids and caps comma-separated ('' = none), the calling key first.
local function keys_loaded(state, ids)
  for _, key in ipairs(ids) do
    if redis.call('HEXISTS', state, 'k:' .. key) == 0 then return false end
  end
  return true
end
-- The first key budget that amount would pass, as {cap, spent, reserved}; nil when all fit.
local function key_over(state, ids, caps, amount)
  for i, key in ipairs(ids) do
    local keySpent = tonumber(redis.call('HGET', state, 'k:' .. key) or '0')
    local keyReserved = tonumber(redis.call('HGET', state, 'kr:' .. key) or '0')
    if keySpent + keyReserved + amount > tonumber(caps[i]) then
      return {caps[i], string.format('%d', keySpent), string.format('%d', keyReserved)}
    end
  end
  return nil
end
local function hold_keys(state, id, ids, csv, size)
  if #ids == 0 then return end
  for _, key in ipairs(ids) do redis.call('HINCRBY', state, 'kr:' .. key, size) end
  redis.call('HSET', state, 'hk:' .. id, csv)
end
`;

// KEYS: cap, state, exp. ARGV: now, amount, holdId, expiresAt, key ids and key caps
// (comma-separated, '' = no key budget). Order: loaded? -> organization cap -> key budgets -> hold.
// Reply: {status, scope, cap, spent, reserved}.
const HOLD = `${DROP_EXPIRED}
local capv = redis.call('GET', KEYS[1])
if (not capv) or redis.call('EXISTS', KEYS[2]) == 0 then return {'uninitialised'} end
local keyIds, keyCaps = list_of(ARGV[5]), list_of(ARGV[6])
if not keys_loaded(KEYS[2], keyIds) then return {'uninitialised'} end
local function reply(status, scope, cap, spent, reserved)
  return {status, scope, cap, spent, reserved}
end
drop_expired(KEYS[2], KEYS[3], ARGV[1])
local spent = tonumber(redis.call('HGET', KEYS[2], 'spent') or '0')
local reserved = tonumber(redis.call('HGET', KEYS[2], 'reserved') or '0')
local amount = tonumber(ARGV[2])
local cap = cap_of(capv)
if cap ~= 'none' and spent + reserved + amount > tonumber(cap) then
  return reply('exceeded', 'organization', cap, string.format('%d', spent), string.format('%d', reserved))
end
local over = key_over(KEYS[2], keyIds, keyCaps, amount)
if over then return reply('exceeded', 'key', over[1], over[2], over[3]) end
hold_keys(KEYS[2], ARGV[3], keyIds, ARGV[5], ARGV[2])
place_hold(KEYS[2], KEYS[3], ARGV[3], ARGV[2], ARGV[4])
return reply('held', '', '', '', '')
`;

// KEYS: state, exp. ARGV: (holdId, actual, keyIds) for each hold of one organization's period to
// close: each hold is dropped, and a settled one adds its actual cost (empty for a release) to the
// spend, and to the spend of each of its budgeted keys (comma-separated). Without the spend counter (lost or
// never loaded) the usage record alone carries the cost: the next initialisation sums it from
// the database.
const CLOSE_MANY = `${CLOSE_HOLD}
local counting = redis.call('HEXISTS', KEYS[1], 'spent') == 1
for i = 1, #ARGV, 3 do
  local id, actual, keys = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  close_hold(KEYS[1], KEYS[2], id)
  if actual ~= '' and counting then redis.call('HINCRBY', KEYS[1], 'spent', actual) end
  if actual ~= '' then
    for _, key in ipairs(list_of(keys)) do
      if redis.call('HEXISTS', KEYS[1], 'k:' .. key) == 1 then redis.call('HINCRBY', KEYS[1], 'k:' .. key, actual) end
    end
  end
end
return 1
`;

/** Holds closed by one CLOSE_MANY call at most (a burst beyond it starts another batch). */
const MAX_CLOSE_BATCH = 500;

// KEYS: state, exp. ARGV: holdId, now, expiresAt. A hold past its expiry stays lapsed, even
// when no script has dropped it yet.
const RENEW = `
local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
if (not score) or tonumber(score) <= tonumber(ARGV[2]) or redis.call('HEXISTS', KEYS[1], 'h:' .. ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], 'XX', ARGV[3], ARGV[1])
return 1
`;

// KEYS: cap, state. ARGV: cap value, version, spent, period ttl seconds, key ids and their
// spends (comma-separated, '' for none).
const INITIALISE = `${LIST_OF}
redis.call('SET', KEYS[1], ARGV[2] .. ':' .. ARGV[1], 'NX')
if redis.call('HSETNX', KEYS[2], 'spent', ARGV[3]) == 1 then
  redis.call('HSETNX', KEYS[2], 'reserved', '0')
  redis.call('EXPIRE', KEYS[2], ARGV[4])
end
local keySpends = list_of(ARGV[6])
for i, key in ipairs(list_of(ARGV[5])) do
  if redis.call('HSETNX', KEYS[2], 'k:' .. key, keySpends[i]) == 1 then
    redis.call('HSETNX', KEYS[2], 'kr:' .. key, '0')
  end
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
  budgetHold(...keysAndArgs: (string | number)[]): Promise<(string | number)[]>;
  budgetCloseMany(state: string, exp: string, ...holds: string[]): Promise<number>;
  budgetRenew(state: string, exp: string, holdId: string, now: number, expiresAt: number): Promise<number>;
  budgetInitialise(cap: string, state: string, capValue: string, version: number, spent: number, ttl: number, keyIds: string, keySpends: string): Promise<number>;
  budgetSetCap(cap: string, capValue: string, version: number): Promise<number>;
  budgetRead(cap: string, state: string, exp: string, now: number): Promise<string[] | null>;
}

type RedisWithBudget = Redis & BudgetCommands;

export class RedisBudgetStore implements BudgetStore {
  private readonly redis: RedisWithBudget;
  /** Closes waiting for the end of this event-loop turn, by period state key. */
  private readonly closing = new Map<string, { holds: string[]; done: Promise<void> }>();

  constructor(redis: Redis) {
    redis.defineCommand('budgetHold', { numberOfKeys: 3, lua: HOLD });
    redis.defineCommand('budgetCloseMany', { numberOfKeys: 2, lua: CLOSE_MANY });
    redis.defineCommand('budgetRenew', { numberOfKeys: 2, lua: RENEW });
    redis.defineCommand('budgetInitialise', { numberOfKeys: 2, lua: INITIALISE });
    redis.defineCommand('budgetSetCap', { numberOfKeys: 1, lua: SET_CAP });
    redis.defineCommand('budgetRead', { numberOfKeys: 3, lua: READ });
    this.redis = redis as RedisWithBudget;
  }

  async hold(request: HoldRequest): Promise<HoldOutcome> {
    const keys = keysOf(request);
    const reply = await this.redis.budgetHold(
      keys.cap, keys.state, keys.expiry,
      request.nowMs, request.amount, request.holdId, request.expiresAtMs, ...keyBudgetArgs(request.keys),
    );
    const [status, scope, cap, spent, reserved] = reply;
    if (status === 'uninitialised') return { status: 'uninitialised' };
    if (status === 'exceeded') {
      return { status: 'exceeded', scope: scope === 'key' ? 'key' : 'organization', cap: Number(cap), spent: Number(spent), reserved: Number(reserved) };
    }
    return { status: 'held' };
  }

  settle(ref: PeriodRef, holdId: string, actual: number, keyIds: readonly string[] = []): Promise<void> {
    return this.close(ref, holdId, String(actual), keyIds.join(','));
  }

  release(ref: PeriodRef, holdId: string): Promise<void> {
    return this.close(ref, holdId, '', '');
  }

  /**
   * Closes a hold together with the other holds of the same organization and period closed in
   * this event-loop turn: one script call for all of them instead of one each. The batch is sent
   * before the loop reads more I/O, so a request that arrives after an answer still finds its
   * settlement ahead of it on the connection.
   */
  private close(ref: PeriodRef, holdId: string, actual: string, keyIds: string): Promise<void> {
    const keys = keysOf(ref);
    let batch = this.closing.get(keys.state);
    if (!batch) {
      const holds: string[] = [];
      const done = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        if (this.closing.get(keys.state)?.holds === holds) this.closing.delete(keys.state);
        await this.redis.budgetCloseMany(keys.state, keys.expiry, ...holds);
      });
      batch = { holds, done };
      this.closing.set(keys.state, batch);
    }
    batch.holds.push(holdId, actual, keyIds);
    if (batch.holds.length >= MAX_CLOSE_BATCH * 3) this.closing.delete(keys.state);
    return batch.done;
  }

  async renew(ref: PeriodRef, holdId: string, nowMs: number, expiresAtMs: number): Promise<boolean> {
    const keys = keysOf(ref);
    return (await this.redis.budgetRenew(keys.state, keys.expiry, holdId, nowMs, expiresAtMs)) === 1;
  }

  async initialise(ref: PeriodRef, cap: CapSetting, spent: number, periodTtlSeconds: number, keySpends: readonly KeySpend[] = []): Promise<void> {
    const keys = keysOf(ref);
    const keyIds = keySpends.map((key) => key.keyId).join(',');
    const spends = keySpends.map((key) => String(key.spent)).join(',');
    await this.redis.budgetInitialise(keys.cap, keys.state, capValue(cap), cap.version, spent, periodTtlSeconds, keyIds, spends);
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

export function keysOf(ref: PeriodRef): { cap: string; state: string; expiry: string } {
  const state = `budget:{${ref.organizationId}}:${ref.period}`;
  return { cap: capKey(ref.organizationId), state, expiry: `${state}:exp` };
}

/** The key ids and caps of a hold's key budgets, as the scripts take them (comma-separated). */
export function keyBudgetArgs(budgets: readonly KeyBudget[] = []): [string, string] {
  return [budgets.map((budget) => budget.keyId).join(','), budgets.map((budget) => String(budget.cap)).join(',')];
}

function capValue(cap: CapSetting): string {
  return cap.cap === null ? 'none' : String(cap.cap);
}
