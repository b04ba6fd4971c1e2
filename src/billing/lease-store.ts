// What a budget store offers for local admission (the interface; the Redis implementation is
// budget-store.leases.redis.ts; the in-process twin has none and keeps admitting per request,
// which is already cheap on one instance). A lease is an ordinary hold (it counts in `reserved`
// for every instance, expires unless renewed) that one instance spends from locally; its size
// and the spend settled against it are synced back in batches (`sync`).
import type { KeyBudget, PeriodRef } from './budget-store.js';
import type { CounterLease, LeasedCount } from '../rate-limit/leases.js';

/** How big a budget lease may be, and when leasing is worth it (nano-USD amounts). */
export interface LeaseSizing {
  /** Largest block one lease holds. */
  ceiling: number;
  /** A lease holds at most the headroom (cap - spent - reserved) divided by this. */
  divisor: number;
  /** Lease only when the block covers at least this many of the request's worst case; else hold per request. */
  minRequests: number;
}

export type BudgetAsk =
  /** The budget is covered locally: only count the counters. */
  | { mode: 'none' }
  /** A hold for this request alone (today's admission), with the key budgets it counts against, if any. */
  | { mode: 'hold'; holdId: string; expiresAtMs: number; keys?: readonly KeyBudget[] | undefined }
  /** A lease when far from the cap, else (same id) a hold for this request alone. */
  | { mode: 'lease'; holdId: string; expiresAtMs: number; leaseExpiresAtMs: number; sizing: LeaseSizing };

export interface AdmitRequest extends PeriodRef {
  nowMs: number;
  /** The request's worst case, nano-USD. */
  amount: number;
  budget: BudgetAsk;
  /** Counters still to count for this request (those without a local token), each with its block size. */
  counters: CounterLease[];
}

export type AdmitOutcome =
  | { status: 'uninitialised' }
  /** Rejected by a counter: nothing counted, nothing held. */
  | { status: 'limited'; counts: LeasedCount[] }
  | { status: 'exceeded'; scope: 'organization' | 'key'; cap: number; spent: number; reserved: number; counts: LeasedCount[] }
  /** Counted; the budget was covered locally. */
  | { status: 'counted'; counts: LeasedCount[] }
  /** Counted and held for this request alone. */
  | { status: 'held'; counts: LeasedCount[] }
  /** Counted, and a lease of `amount` taken under the cap of `capVersion`. */
  | { status: 'leased'; amount: number; capVersion: string; counts: LeasedCount[] };

export interface LeaseSync {
  holdId: string;
  /** Actual spend settled against the lease since it was taken (cumulative: a repeated sync adds nothing twice). */
  settledTotal: number;
  /** The hold's new size; 0 closes it. */
  amount: number;
  nowMs: number;
  expiresAtMs: number;
  capVersion: string;
  /** Retire when the headroom besides this lease is below this (near the cap: per-request holds). */
  minHeadroom: number;
  /** Last sync of a drained lease: forget its settlement record. */
  final: boolean;
}

/**
 * `kept`: the hold has the asked size; `retired`: the same, but the cap changed or the org is near
 * it: stop admitting against the lease (its hold shrinks to what is in flight at the next sync,
 * so requests admitted while the reply travelled stay covered); `lapsed`: the hold had expired
 * (the spend still counted).
 */
export type LeaseSyncOutcome = 'kept' | 'retired' | 'lapsed';

export interface LeaseStore {
  /**
   * Which connection to the store is up now (it changes at every reconnect), or undefined while
   * there is none. A lease admits locally only on the connection it was taken on: a Redis outage
   * fails paid calls closed (503) at once, as without leases, and a Redis that came back empty
   * (its holds gone) is never spent from on the strength of a lease it no longer holds.
   */
  connection(): number | undefined;
  admit(request: AdmitRequest): Promise<AdmitOutcome>;
  sync(ref: PeriodRef, sync: LeaseSync): Promise<LeaseSyncOutcome>;
  /** Gives unused rate tokens back to their counters (while their window lives on). */
  returnTokens(tokens: { key: string; tokens: number }[]): Promise<void>;
}

export function isLeaseStore(store: object): store is LeaseStore {
  return 'admit' in store && 'sync' in store;
}
