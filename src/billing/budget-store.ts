// Where budget counters live (the interface; implementations in budget-store.redis.ts and
// budget-store.memory.ts, chosen by budget-store-for.ts): per organization, the cap (versioned, so
// the newest change wins whatever order instances write it in) and per monthly period the settled
// spend, the reserved total and the open holds, each hold with an expiry so a crashed caller's
// reservation lapses. Amounts are integer nano-USD so sums are exact and comparisons at the cap
// have no rounding drift.

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

export interface HoldRequest extends PeriodRef {
  holdId: string;
  amount: number;
  nowMs: number;
  expiresAtMs: number;
}

export type HoldOutcome =
  | { status: 'held' }
  | { status: 'exceeded'; cap: number; spent: number; reserved: number }
  /** The cap or the period's spend is not loaded yet: load them from the database and retry. */
  | { status: 'uninitialised' };

export interface PeriodState {
  cap: number | null;
  spent: number;
  reserved: number;
}

export interface BudgetStore {
  hold(request: HoldRequest): Promise<HoldOutcome>;
  /** Closes the hold (if still open) and adds `actual` to the period's spend. */
  settle(ref: PeriodRef, holdId: string, actual: number): Promise<void>;
  /** Closes the hold (if still open) without spending. */
  release(ref: PeriodRef, holdId: string): Promise<void>;
  /** Moves an open hold's expiry; false when it is closed or already expired (a lapsed hold never comes back). */
  renew(ref: PeriodRef, holdId: string, nowMs: number, expiresAtMs: number): Promise<boolean>;
  /** Loads cap and spend where they are missing; values already present win. */
  initialise(ref: PeriodRef, cap: CapSetting, spent: number, periodTtlSeconds: number): Promise<void>;
  /** Stores the cap unless a newer version is already there. */
  setCap(organizationId: string, cap: CapSetting): Promise<void>;
  /** Current counters after dropping expired holds; undefined when not loaded. */
  read(ref: PeriodRef, nowMs: number): Promise<PeriodState | undefined>;
}
