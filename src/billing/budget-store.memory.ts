// The in-process budget store: the single-instance twin of the Redis scripts
// (budget-store.redis.ts), used when no Redis is configured.
import type { BudgetStore, CapSetting, HoldOutcome, HoldRequest, PeriodRef, PeriodState } from './budget-store.js';

interface MemoryPeriod {
  spent: number;
  reserved: number;
  holds: Map<string, { amount: number; expiresAtMs: number }>;
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
    dropExpiredHolds(period, request.nowMs);
    if (cap.cap !== null && period.spent + period.reserved + request.amount > cap.cap) {
      return { status: 'exceeded', cap: cap.cap, spent: period.spent, reserved: period.reserved };
    }
    period.reserved += request.amount;
    period.holds.set(request.holdId, { amount: request.amount, expiresAtMs: request.expiresAtMs });
    return { status: 'held' };
  }

  async settle(ref: PeriodRef, holdId: string, actual: number): Promise<void> {
    const period = this.periods.get(periodKey(ref));
    if (!period) return;
    closeHold(period, holdId);
    period.spent += actual;
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

  async initialise(ref: PeriodRef, cap: CapSetting, spent: number): Promise<void> {
    if (!this.caps.has(ref.organizationId)) this.caps.set(ref.organizationId, cap);
    const key = periodKey(ref);
    if (!this.periods.has(key)) this.periods.set(key, { spent, reserved: 0, holds: new Map() });
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
  period.holds.delete(holdId);
}

function dropExpiredHolds(period: MemoryPeriod, nowMs: number): void {
  for (const [holdId, hold] of period.holds) {
    if (hold.expiresAtMs <= nowMs) closeHold(period, holdId);
  }
}
