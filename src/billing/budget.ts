// The budget hook the gateway calls around every upstream call: reserve the worst-case cost
// before (refused with 402 budget_exceeded past the monthly cap), keep the reservation alive
// while the call runs, settle to the real cost after, release on failure. The billing feature
// provides the real guard.
import type { CounterHit, HitResult } from '../rate-limit/counters.js';
import type { CapSetting } from './budget-store.js';

export interface BudgetReservation {
  id: string;
  organizationId: string;
  amount: number;
}

/**
 * A request's rate-limit counters, still to be counted. Gateway calls count them first, before
 * any work on the request's bytes and before any budget hold (`countLocally` from local rate
 * blocks where the ledger has leases, else `countAlone`).
 */
export interface PendingAdmission {
  readonly counters: CounterHit[];
  /** True once counted. */
  readonly counted: boolean;
  /** Takes the counters' outcome; throws 429 rate_limited when the request was not admitted. */
  apply(result: HitResult): void;
  /** Counts the counters alone unless already counted; throws 429 when not admitted. */
  countAlone(): Promise<void>;
  /** Counts them now if it can without waiting (local rate blocks); true once counted. Throws 429 when not admitted. */
  countLocally(): boolean;
}

export interface ReserveKey {
  id: string;
  monthlyBudget: number | null;
  /** The keys this key was created under (nearest first) that have a monthly budget (USD). */
  budgetsAbove?: readonly { id: string; monthlyBudget: number }[] | undefined;
}

export interface ReserveOptions {
  /** The API key of the call, with its own monthly budget (USD) if it has one, and the budgeted keys above it. */
  apiKey?: ReserveKey | undefined;
}

export interface BudgetGuard {
  /**
   * Throws AppError('budget_exceeded') when the reservation would pass the organization's cap or
   * the key's budget.
   */
  reserve(organizationId: string, worstCaseCost: number, options?: ReserveOptions): Promise<BudgetReservation>;
  /**
   * Renews the reservation's expiry until the returned function is called: a call that runs
   * longer than the reservation TTL (a long stream) keeps its budget held, while the holds of a
   * crashed process still lapse. Callers stop it in a `finally` around the upstream call.
   */
  keepAlive(reservation: BudgetReservation): () => void;
  settle(reservation: BudgetReservation, actualCost: number): Promise<void>;
  release(reservation: BudgetReservation): Promise<void>;
  /**
   * Counts rate-limit counters alone, from local rate blocks where it can (no round trip);
   * undefined when it cannot count them (the caller counts them in its own store).
   */
  countRate?(organizationId: string, counters: CounterHit[]): Promise<HitResult | undefined>;
  /** `countRate` from local rate blocks only, synchronously; undefined when they cannot count them all. */
  countRateLocally?(counters: CounterHit[]): HitResult | undefined;
}

/** No cap: reservations always succeed. */
export const unlimitedBudget: BudgetGuard = {
  async reserve(organizationId, worstCaseCost) {
    return { id: 'unlimited', organizationId, amount: worstCaseCost };
  },
  keepAlive: () => () => {},
  async settle() {},
  async release() {},
};

export interface BudgetStatus {
  /** USD, or null for no cap. */
  monthlyCap: number | null;
  periodStart: Date;
  /** Settled spend of the current period, USD. */
  spent: number;
  /** Open reservations, USD. */
  reserved: number;
  /** Cap minus settled spend, never below zero; null without a cap. */
  remaining: number | null;
}

/** What the billing endpoints read and change: the runtime's one ledger (budget-ledger.ts). */
export interface BudgetControl {
  /** The organization's cap and the current period's spend, loading them when needed. */
  status(organizationId: string): Promise<BudgetStatus>;
  /** Makes a committed cap change effective for every instance sharing the store. */
  applyCap(organizationId: string, setting: CapSetting): Promise<void>;
}
