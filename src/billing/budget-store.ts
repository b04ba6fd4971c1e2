// Where budget counters live (the interface; implementations in budget-store.redis.ts and
// budget-store.memory.ts, chosen by budget-store-for.ts): per organization, the cap (versioned, so
// the newest change wins whatever order instances write it in) and per monthly period the settled
// spend, the reserved total and the open holds, each hold with an expiry so a crashed caller's
// reservation lapses. Amounts are integer nano-USD so sums are exact and comparisons at the cap
// have no rounding drift.
// An API key with its own budget has its spend and reserved total tracked beside its
// organization's; a key created with a key counts against each budgeted key above it too (a
// hold names the whole chain), so a key's counters hold the spend through it and its descendants.

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

/** A key's spend through it (its own and its descendants'), nano-USD, as loaded from the database. */
export interface KeySpend {
  keyId: string;
  spent: number;
}

/** An API key with a budget of its own (nano-USD per period): the calling key or a key above it. */
export interface KeyBudget {
  keyId: string;
  cap: number;
}

export interface HoldRequest extends PeriodRef {
  holdId: string;
  amount: number;
  nowMs: number;
  expiresAtMs: number;
  /** The hold must also fit each of these keys' budgets, and counts in each reserved total. */
  keys?: readonly KeyBudget[] | undefined;
}

export type HoldOutcome =
  | { status: 'held' }
  | { status: 'exceeded'; scope: 'organization' | 'key'; cap: number; spent: number; reserved: number }
  /** The cap or the period's spend (the organization's or the key's) is not loaded yet: load them and retry. Nothing was held. */
  | { status: 'uninitialised' };

export interface PeriodState {
  cap: number | null;
  spent: number;
  reserved: number;
}

export interface BudgetStore {
  hold(request: HoldRequest): Promise<HoldOutcome>;
  /** Closes the hold (if still open) and adds `actual` to the period's spend (and to each of `keyIds` tracked). */
  settle(ref: PeriodRef, holdId: string, actual: number, keyIds?: readonly string[]): Promise<void>;
  /** Closes the hold (if still open) without spending. */
  release(ref: PeriodRef, holdId: string): Promise<void>;
  /** Moves an open hold's expiry; false when it is closed or already expired (a lapsed hold never comes back). */
  renew(ref: PeriodRef, holdId: string, nowMs: number, expiresAtMs: number): Promise<boolean>;
  /** Loads cap and spend (and a key's spend) where they are missing; values already present win. */
  initialise(ref: PeriodRef, cap: CapSetting, spent: number, periodTtlSeconds: number, keys?: readonly KeySpend[]): Promise<void>;
  /** Stores the cap unless a newer version is already there. */
  setCap(organizationId: string, cap: CapSetting): Promise<void>;
  /** Current counters after dropping expired holds; undefined when not loaded. */
  read(ref: PeriodRef, nowMs: number): Promise<PeriodState | undefined>;
}
