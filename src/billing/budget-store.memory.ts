// The in-process budget store: the single-instance twin of the Redis scripts
// (budget-store.redis.ts), used when no Redis is configured. A hold checks the organization's cap
// and the budgets of the API key and the keys above it in one step, as the Redis hold script does.
import type { BudgetStore, CapSetting, HoldOutcome, HoldRequest, KeySpend, PeriodRef, PeriodState } from './budget-store.js';

const NO_KEYS: readonly string[] = Object.freeze([]);

interface MemoryPeriod {
  spent: number;
  reserved: number;
  holds: Map<string, { amount: number; expiresAtMs: number; keyIds: readonly string[] }>;
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

  async hold(request: HoldRequest): Promise<HoldOutcome> {
    const cap = this.caps.get(request.organizationId);
    const period = this.periods.get(periodKey(request));
    if (!cap || !period) return { status: 'uninitialised' };
    const budgets = request.keys ?? [];
    const keys = budgets.map((budget) => period.keys.get(budget.keyId));
    if (keys.some((key) => !key)) return { status: 'uninitialised' };
    dropExpiredHolds(period, request.nowMs);
    if (cap.cap !== null && period.spent + period.reserved + request.amount > cap.cap) {
      return { status: 'exceeded', scope: 'organization', cap: cap.cap, spent: period.spent, reserved: period.reserved };
    }
    for (const [i, budget] of budgets.entries()) {
      const key = keys[i]!;
      if (key.spent + key.reserved + request.amount > budget.cap) {
        return { status: 'exceeded', scope: 'key', cap: budget.cap, spent: key.spent, reserved: key.reserved };
      }
    }
    period.reserved += request.amount;
    for (const key of keys) key!.reserved += request.amount;
    period.holds.set(request.holdId, { amount: request.amount, expiresAtMs: request.expiresAtMs, keyIds: budgets.length ? budgets.map((budget) => budget.keyId) : NO_KEYS });
    return { status: 'held' };
  }

  async settle(ref: PeriodRef, holdId: string, actual: number, keyIds: readonly string[] = []): Promise<void> {
    const period = this.periods.get(periodKey(ref));
    if (!period) return;
    closeHold(period, holdId);
    period.spent += actual;
    for (const keyId of keyIds) {
      const key = period.keys.get(keyId);
      if (key) key.spent += actual;
    }
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

  async initialise(ref: PeriodRef, cap: CapSetting, spent: number, _ttl: number, keys: readonly KeySpend[] = []): Promise<void> {
    if (!this.caps.has(ref.organizationId)) this.caps.set(ref.organizationId, cap);
    const id = periodKey(ref);
    if (!this.periods.has(id)) this.periods.set(id, { spent, reserved: 0, holds: new Map(), keys: new Map() });
    const period = this.periods.get(id)!;
    for (const key of keys) {
      if (!period.keys.has(key.keyId)) period.keys.set(key.keyId, { spent: key.spent, reserved: 0 });
    }
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
  for (const keyId of hold.keyIds) {
    const key = period.keys.get(keyId);
    if (key) key.reserved -= hold.amount;
  }
  period.holds.delete(holdId);
}

function dropExpiredHolds(period: MemoryPeriod, nowMs: number): void {
  for (const [holdId, hold] of period.holds) {
    if (hold.expiresAtMs <= nowMs) closeHold(period, holdId);
  }
}
