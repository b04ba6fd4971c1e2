// Where budget counters live: per organization, the cap (versioned, so the newest change wins
// whatever order instances write it in) and per monthly period the settled spend, the reserved
// total and the open holds, each hold with an expiry so a crashed caller's reservation lapses.
// Redis (one Lua script per operation, atomic across instances) when the shared state is Redis,
// otherwise an in-process twin with the same semantics (single instance). Amounts are integer
// nano-USD so sums are exact and comparisons at the cap have no rounding drift. An API key with
// its own budget has its spend and reserved total tracked beside its organization's, and a hold
// may carry the request's rate-limit counters, counted in the same atomic step.
import { memoryCountersFor, type CounterHit, type MemoryCounters, type WindowCount } from '../rate-counters.js';
import type { SharedState } from '../redis.js';
import { RedisBudgetStore } from './budget-store.redis.js';

export interface CapSetting {
  /** Nano-USD, or null for no cap. */
  cap: number | null;
  /** Increases with every change; a store keeps the highest version it has seen. */
  version: number;
}

export interface PeriodRef {
  organizationId: string;
  /** `YYYY-MM` */
  period: string;
}

/** An API key with a budget of its own (nano-USD per period). */
export interface KeyBudget {
  keyId: string;
  cap: number;
}

export interface HoldRequest extends PeriodRef {
  holdId: string;
  amount: number;
  nowMs: number;
  expiresAtMs: number;
  /** The hold must also fit this key's budget, and counts in its reserved total. */
  key?: KeyBudget | undefined;
  /** Rate-limit counters: counted first, and the hold is taken only when they admit the request. */
  counters?: CounterHit[] | undefined;
}

/** The counters' outcome, when the hold carried counters (else absent). */
interface Counted {
  rate?: { admitted: boolean; windows: WindowCount[] };
}

export type HoldOutcome =
  | ({ status: 'held' } & Counted)
  | ({ status: 'exceeded'; scope: 'organization' | 'key'; cap: number; spent: number; reserved: number } & Counted)
  /** Rejected by a rate-limit counter: nothing was counted or held. */
  | ({ status: 'limited' } & Required<Counted>)
  /** The cap or the period's spend (the organization's or the key's) is not loaded yet: load them and retry. Nothing was counted. */
  | { status: 'uninitialised' };

export interface PeriodState {
  cap: number | null;
  spent: number;
  reserved: number;
}

export interface BudgetStore {
  hold(request: HoldRequest): Promise<HoldOutcome>;
  /** Closes the hold (if still open) and adds `actual` to the period's spend (and to `keyId`'s when tracked). */
  settle(ref: PeriodRef, holdId: string, actual: number, keyId?: string): Promise<void>;
  /** Closes the hold (if still open) without spending. */
  release(ref: PeriodRef, holdId: string): Promise<void>;
  /** Moves an open hold's expiry; false when it is closed or already expired (a lapsed hold never comes back). */
  renew(ref: PeriodRef, holdId: string, nowMs: number, expiresAtMs: number): Promise<boolean>;
  /** Loads cap and spend (and a key's spend) where they are missing; values already present win. */
  initialise(ref: PeriodRef, cap: CapSetting, spent: number, periodTtlSeconds: number, key?: { keyId: string; spent: number }): Promise<void>;
  /** Stores the cap unless a newer version is already there. */
  setCap(organizationId: string, cap: CapSetting): Promise<void>;
  /** Current counters after dropping expired holds; undefined when not loaded. */
  read(ref: PeriodRef, nowMs: number): Promise<PeriodState | undefined>;
}

const memoryStores = new WeakMap<SharedState, MemoryBudgetStore>();
const redisStores = new WeakMap<SharedState, RedisBudgetStore>();

/**
 * The store behind `shared`. The same shared state always yields the same store, so the guard
 * the gateway calls and the billing endpoints see one set of in-process counters.
 */
export function budgetStoreFor(shared: SharedState): BudgetStore {
  if (shared.kind === 'redis' && shared.redis) {
    const existing = redisStores.get(shared);
    if (existing) return existing;
    const store = new RedisBudgetStore(shared.redis);
    redisStores.set(shared, store);
    return store;
  }
  const existing = memoryStores.get(shared);
  if (existing) return existing;
  const store = new MemoryBudgetStore(memoryCountersFor(shared));
  memoryStores.set(shared, store);
  return store;
}

interface MemoryPeriod {
  spent: number;
  reserved: number;
  holds: Map<string, { amount: number; expiresAtMs: number; keyId: string | undefined }>;
  /** Keys with a budget: spend and reserved total. */
  keys: Map<string, { spent: number; reserved: number }>;
}

/**
 * The single-instance twin of the Redis scripts. Every method body runs without awaiting
 * between its check and its update, which is what makes it atomic on one event loop.
 */
export class MemoryBudgetStore implements BudgetStore {
  private readonly caps = new Map<string, CapSetting>();
  private readonly periods = new Map<string, MemoryPeriod>();

  constructor(private readonly counters: MemoryCounters) {}

  async hold(request: HoldRequest): Promise<HoldOutcome> {
    const cap = this.caps.get(request.organizationId);
    const period = this.periods.get(periodKey(request));
    if (!cap || !period) return { status: 'uninitialised' };
    const key = request.key ? period.keys.get(request.key.keyId) : undefined;
    if (request.key && !key) return { status: 'uninitialised' };
    let rate: Counted['rate'];
    if (request.counters) {
      rate = this.counters.hit(request.counters);
      if (!rate.admitted) return { status: 'limited', rate };
    }
    dropExpiredHolds(period, request.nowMs);
    if (cap.cap !== null && period.spent + period.reserved + request.amount > cap.cap) {
      return { status: 'exceeded', scope: 'organization', cap: cap.cap, spent: period.spent, reserved: period.reserved, rate };
    }
    if (request.key && key && key.spent + key.reserved + request.amount > request.key.cap) {
      return { status: 'exceeded', scope: 'key', cap: request.key.cap, spent: key.spent, reserved: key.reserved, rate };
    }
    period.reserved += request.amount;
    if (key) key.reserved += request.amount;
    period.holds.set(request.holdId, { amount: request.amount, expiresAtMs: request.expiresAtMs, keyId: key ? request.key!.keyId : undefined });
    return { status: 'held', rate };
  }

  async settle(ref: PeriodRef, holdId: string, actual: number, keyId?: string): Promise<void> {
    const period = this.periods.get(periodKey(ref));
    if (!period) return;
    closeHold(period, holdId);
    period.spent += actual;
    const key = keyId === undefined ? undefined : period.keys.get(keyId);
    if (key) key.spent += actual;
  }

  async release(ref: PeriodRef, holdId: string): Promise<void> {
    const period = this.periods.get(periodKey(ref));
    if (period) closeHold(period, holdId);
  }

  async renew(ref: PeriodRef, holdId: string, nowMs: number, expiresAtMs: number): Promise<boolean> {
    const hold = this.periods.get(periodKey(ref))?.holds.get(holdId);
    if (!hold || hold.expiresAtMs <= nowMs) return false;
    hold.expiresAtMs = expiresAtMs;
    return true;
  }

  async initialise(ref: PeriodRef, cap: CapSetting, spent: number, _ttl: number, key?: { keyId: string; spent: number }): Promise<void> {
    if (!this.caps.has(ref.organizationId)) this.caps.set(ref.organizationId, cap);
    const id = periodKey(ref);
    if (!this.periods.has(id)) this.periods.set(id, { spent, reserved: 0, holds: new Map(), keys: new Map() });
    const period = this.periods.get(id)!;
    if (key && !period.keys.has(key.keyId)) period.keys.set(key.keyId, { spent: key.spent, reserved: 0 });
  }

  async setCap(organizationId: string, cap: CapSetting): Promise<void> {
    const current = this.caps.get(organizationId);
    if (!current || current.version < cap.version) this.caps.set(organizationId, cap);
  }

  async read(ref: PeriodRef, nowMs: number): Promise<PeriodState | undefined> {
    const cap = this.caps.get(ref.organizationId);
    const period = this.periods.get(periodKey(ref));
    if (!cap || !period) return undefined;
    dropExpiredHolds(period, nowMs);
    return { cap: cap.cap, spent: period.spent, reserved: period.reserved };
  }
}

function periodKey(ref: PeriodRef): string {
  return `${ref.organizationId}:${ref.period}`;
}

function closeHold(period: MemoryPeriod, holdId: string): void {
  const hold = period.holds.get(holdId);
  if (!hold) return;
  period.reserved -= hold.amount;
  const key = hold.keyId === undefined ? undefined : period.keys.get(hold.keyId);
  if (key) key.reserved -= hold.amount;
  period.holds.delete(holdId);
}

function dropExpiredHolds(period: MemoryPeriod, nowMs: number): void {
  for (const [holdId, hold] of period.holds) {
    if (hold.expiresAtMs <= nowMs) closeHold(period, holdId);
  }
}
