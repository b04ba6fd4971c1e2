// The real BudgetGuard: before an upstream call the caller reserves its worst-case cost against
// the organization's monthly cap (refused with 402 budget_exceeded when settled spend plus open
// reservations plus this one would pass the cap), keeps it alive while the call runs (renewed
// every third of the TTL, so only a crashed caller's reservation lapses), then settles to the
// real cost or releases.
// An API key with a monthly budget of its own is held against it too, and against the budget of
// every key above it (a key created with a key), in the same atomic step. A gateway request's
// rate-limit counters are counted before any work on it (countRate, countRateLocally), never here.
// Counters live in the budget store (Redis or in-process); the database stays the truth: the
// cap is read from organization_budgets and a period's spend (the organization's, the spend
// through a key: its own and its descendants') from
// usage_records whenever the store does not hold them (first use, Redis restart, new month).
// On Redis, most gateway requests are admitted locally against a lease (budget-leases.ts):
// reservations so admitted carry ids `lease/<leaseId>` and settle into the lease.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock.js';
import type { Orm } from '../db/orm.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { metrics } from '../metrics.js';
import type { CounterHit, HitResult } from '../rate-limit/counters.js';
import type { SharedState } from '../redis.js';
import type { BudgetControl, BudgetGuard, BudgetReservation, BudgetStatus, ReserveOptions } from './budget.js';
import { createLeaseBook, type LeaseAdmission, type LeaseAdmitResult, type LeaseBook, type LeaseSettings } from './budget-leases.js';
import type { BudgetStore, CapSetting, KeyBudget, PeriodRef } from './budget-store.js';
import { createBudgetStore, createLeaseStore } from './budget-store-for.js';
import { billingPeriodOf, DAY_MS, type BillingPeriod } from './period.js';
import { sumUsage } from './usage.queries.js';

export interface BudgetLedgerDeps {
  orm: Orm;
  shared: SharedState;
  clock: Clock;
  logger: Logger;
  /** How long an unsettled reservation holds budget without renewal before it lapses (a crashed caller). */
  reservationTtlMs: number;
  /** Local admission against leases (Redis only); absent = a store call per reservation. */
  leases?: LeaseSettings | undefined;
}


const NANOS_PER_USD = 1e9;
const LEASE_PREFIX = 'lease/';
/** Each lease holds at most 1/16 of the headroom, and only when that covers 8 worst cases (so not within ~128 of the cap). */
const LEASE_DIVISOR = 16;
const LEASE_MIN_REQUESTS = 8;

/** The lease settings of the configuration (see config.ts BUDGET_LEASE_*, RATE_LIMIT_LEASE_DIVISOR). */
export function leaseSettingsOf(config: {
  BUDGET_LEASE_MAX_USD: number; BUDGET_LEASE_SYNC_MS: number; BUDGET_LEASE_TTL_SECONDS: number; RATE_LIMIT_LEASE_DIVISOR: number;
}): LeaseSettings {
  return {
    sizing: { ceiling: Math.round(config.BUDGET_LEASE_MAX_USD * NANOS_PER_USD), divisor: LEASE_DIVISOR, minRequests: LEASE_MIN_REQUESTS },
    syncMs: config.BUDGET_LEASE_SYNC_MS,
    leaseTtlMs: config.BUDGET_LEASE_TTL_SECONDS * 1000,
    rateDivisor: config.RATE_LIMIT_LEASE_DIVISOR,
  };
}
/** A period's counters outlive its month by this much, for settlements that arrive late. */
const PERIOD_GRACE_MS = 7 * DAY_MS;

export const toNanos = (usd: number): number => Math.round(usd * NANOS_PER_USD);
export const toUsd = (nanos: number): number => nanos / NANOS_PER_USD;

export type { BudgetStatus } from './budget.js';

export class BudgetLedger implements BudgetGuard, BudgetControl {
  private readonly store: BudgetStore;
  private readonly leases: LeaseBook | undefined;
  private period: BillingPeriod | undefined;

  constructor(private readonly deps: BudgetLedgerDeps) {
    this.store = createBudgetStore(deps.shared);
    this.leases = createLeaseBook(createLeaseStore(deps.shared), deps.leases, deps);
  }

  async reserve(organizationId: string, worstCaseCost: number, options: ReserveOptions = {}): Promise<BudgetReservation> {
    if (!Number.isFinite(worstCaseCost) || worstCaseCost < 0) {
      throw new RangeError(`worstCaseCost must be a non-negative number, got ${worstCaseCost}`);
    }
    const now = this.deps.clock.now();
    const period = this.periodOf(now);
    const ref = { organizationId, period: period.key };
    const keyBudgets = keyBudgetsOf(options.apiKey);
    const hold = {
      ...ref,
      holdId: randomUUID(),
      amount: toNanos(worstCaseCost),
      nowMs: now.getTime(),
      expiresAtMs: now.getTime() + this.deps.reservationTtlMs,
      keys: keyBudgets,
    };
    if (this.leases) {
      const request: LeaseAdmission = { ref, ...hold };
      // Far from the cap (most requests): admitted here, without awaiting anything.
      const local = this.leases.admitLocally(request);
      return this.leaseReservation(local ?? (await this.admitWithLeases(this.leases, request, period)), hold, worstCaseCost);
    }
    let outcome = await this.guarded(() => this.store.hold(hold));
    if (outcome.status === 'uninitialised') {
      await this.load(ref, period, keyBudgets);
      outcome = await this.guarded(() => this.store.hold(hold));
    }
    if (outcome.status === 'exceeded') throw exceededError(outcome.scope);
    if (outcome.status !== 'held') throw new AppError('service_unavailable', 'The budget ledger is not available');
    return { id: reservationId(period.key, hold.holdId, keyBudgets), organizationId, amount: worstCaseCost };
  }

  /**
   * Counts a request's rate-limit counters ahead of its work, without a round trip while this
   * process holds rate blocks for them (leases); undefined when there are no leases or the store
   * failed (the caller counts them itself then, as without leases).
   */
  /** The same from local rate blocks only, synchronously (the hot path): undefined when they cannot count them all. */
  countRateLocally(counters: CounterHit[]): HitResult | undefined {
    return counters.length === 0 ? undefined : this.leases?.admitRateLocally(counters);
  }

  async countRate(organizationId: string, counters: CounterHit[]): Promise<HitResult | undefined> {
    const leases = this.leases;
    if (!leases || counters.length === 0) return undefined;
    const now = this.deps.clock.now();
    const period = this.periodOf(now);
    const ref = { organizationId, period: period.key };
    try {
      let outcome = await leases.admitRate(ref, now.getTime(), counters);
      if (outcome === 'uninitialised') {
        await this.load(ref, period);
        outcome = await leases.admitRate(ref, now.getTime(), counters);
      }
      return outcome === 'uninitialised' ? undefined : outcome;
    } catch {
      return undefined;
    }
  }

  /** One script call (which may take a lease), after loading the organization's budget if the store lacks it. */
  private async admitWithLeases(leases: LeaseBook, request: LeaseAdmission, period: BillingPeriod): Promise<LeaseAdmitResult> {
    const outcome = await this.guarded(() => leases.admit(request));
    if (outcome.status !== 'uninitialised') return outcome;
    await this.load(request.ref, period, request.keys);
    return this.guarded(() => leases.admit(request));
  }

  /** The reservation of a lease admission: against the lease, or a hold of its own near the cap. */
  private leaseReservation(
    outcome: LeaseAdmitResult,
    hold: PeriodRef & { holdId: string; keys: readonly KeyBudget[] },
    worstCaseCost: number,
  ): BudgetReservation {
    if (outcome.status === 'exceeded') throw exceededError(outcome.scope);
    const { organizationId } = hold;
    if (outcome.status === 'leased') return { id: `${LEASE_PREFIX}${outcome.leaseId}`, organizationId, amount: worstCaseCost };
    if (outcome.status !== 'held') throw new AppError('service_unavailable', 'The budget ledger is not available');
    return { id: reservationId(hold.period, hold.holdId, hold.keys), organizationId, amount: worstCaseCost };
  }

  keepAlive(reservation: BudgetReservation): () => void {
    // A lease is renewed by its book while anything is in flight against it.
    if (reservation.id.startsWith(LEASE_PREFIX)) return () => {};
    // A third of the TTL: two renewals may fail (a Redis blip) before the hold lapses.
    const timer = setInterval(() => void this.renew(reservation), Math.max(1, Math.floor(this.deps.reservationTtlMs / 3)));
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Pushes an open reservation's expiry one TTL from now; false when it was closed or had lapsed (logged). */
  async renew(reservation: BudgetReservation): Promise<boolean> {
    if (reservation.id.startsWith(LEASE_PREFIX)) return this.leases?.isLive(reservation.id.slice(LEASE_PREFIX.length)) ?? false;
    const { ref, holdId } = parseReservation(reservation);
    const nowMs = this.deps.clock.now().getTime();
    try {
      const renewed = await this.store.renew(ref, holdId, nowMs, nowMs + this.deps.reservationTtlMs);
      if (!renewed) {
        this.deps.logger.warn({ organizationId: ref.organizationId }, 'budget reservation lapsed or closed before its call ended: spend may pass the cap');
      }
      return renewed;
    } catch (error) {
      this.deps.logger.error({ err: error, organizationId: ref.organizationId }, 'budget reservation renewal failed');
      return false;
    }
  }

  /**
   * Closes the hold and spends the real cost, even when it passes the reservation: the provider
   * charges it whatever we reserved, and the usage record carries it anyway. It cannot pass it
   * while the reservation bounds the call (max_tokens sent upstream, prompt bound over every
   * input field), so an overrun means a provider billed beyond its bounds: logged and counted
   * (budget_settlements_over_reservation_total), since spend may then pass the cap.
   */
  settle(reservation: BudgetReservation, actualCost: number): Promise<void> {
    const actual = toNanos(Math.max(0, actualCost));
    if (actual > toNanos(reservation.amount)) {
      metrics.budgetOverruns.inc();
      this.deps.logger.warn(
        { organizationId: reservation.organizationId, reserved: reservation.amount, actual: toUsd(actual) },
        'budget settlement above its reservation: the call cost more than its worst case',
      );
    }
    // Into the lease: the book syncs it to the store within one sync interval.
    if (reservation.id.startsWith(LEASE_PREFIX)) {
      this.leases?.settle(reservation.id.slice(LEASE_PREFIX.length), toNanos(reservation.amount), actual);
      return SETTLED;
    }
    return this.settleHold(reservation, actual);
  }

  private async settleHold(reservation: BudgetReservation, actual: number): Promise<void> {
    const { ref, holdId, keyIds } = parseReservation(reservation);
    // A failed settlement must not fail a request that was answered: the hold lapses at its
    // expiry and the usage record still carries the cost for the next load from the database.
    await this.store.settle(ref, holdId, actual, keyIds).catch((error: unknown) =>
      this.deps.logger.error({ err: error, organizationId: ref.organizationId }, 'budget settlement failed'),
    );
  }

  async release(reservation: BudgetReservation): Promise<void> {
    if (reservation.id.startsWith(LEASE_PREFIX)) return this.leases?.release(reservation.id.slice(LEASE_PREFIX.length), toNanos(reservation.amount));
    const { ref, holdId } = parseReservation(reservation);
    await this.store.release(ref, holdId).catch((error: unknown) =>
      this.deps.logger.error({ err: error, organizationId: ref.organizationId }, 'budget release failed'),
    );
  }

  /** The organization's cap and the current period's spend, loading them when needed. */
  async status(organizationId: string): Promise<BudgetStatus> {
    const now = this.deps.clock.now();
    const period = billingPeriodOf(now);
    const ref = { organizationId, period: period.key };
    // This process's settled spend reaches the store first (other instances' within a sync interval).
    await this.guarded(async () => this.leases?.flush(organizationId));
    let state = await this.guarded(() => this.store.read(ref, now.getTime()));
    if (!state) {
      await this.load(ref, period);
      state = await this.guarded(() => this.store.read(ref, now.getTime()));
    }
    if (!state) throw new AppError('service_unavailable', 'The budget ledger is not available');
    const monthlyCap = state.cap === null ? null : toUsd(state.cap);
    return {
      monthlyCap,
      periodStart: period.start,
      spent: toUsd(state.spent),
      reserved: toUsd(state.reserved),
      remaining: state.cap === null ? null : toUsd(Math.max(0, state.cap - state.spent)),
    };
  }

  /** Makes a committed cap change effective for every instance sharing the store. */
  async applyCap(organizationId: string, setting: CapSetting): Promise<void> {
    await this.guarded(() => this.store.setCap(organizationId, setting));
    // Here at once; other instances retire their leases at their next sync (they see the new cap version).
    await this.guarded(async () => this.leases?.retireOrganization(organizationId));
  }

  /** Gives this process's leases back (their unused budget and rate tokens) and syncs their spend. */
  async close(): Promise<void> {
    await this.leases?.close();
  }

  private async load(ref: PeriodRef, period: BillingPeriod, keyBudgets: readonly KeyBudget[] = []): Promise<void> {
    const em = this.deps.orm.em.fork();
    const [cap, spent, keySpends] = await Promise.all([
      loadCapSetting(em, ref.organizationId),
      sumUsage(em.fork(), ref.organizationId, { from: period.start, to: period.end }),
      Promise.all(keyBudgets.map(async ({ keyId }) => ({ keyId, spent: toNanos(await sumUsageThroughKey(em.fork(), ref.organizationId, keyId, period)) }))),
    ]);
    const ttlSeconds = Math.ceil((period.end.getTime() + PERIOD_GRACE_MS - this.deps.clock.now().getTime()) / 1000);
    await this.guarded(() => this.store.initialise(ref, cap, toNanos(spent.estimatedCost), ttlSeconds, keySpends));
  }

  /** The billing period of `now`: the same object while the month lasts. */
  private periodOf(now: Date): BillingPeriod {
    const time = now.getTime();
    if (!this.period || time < this.period.start.getTime() || time >= this.period.end.getTime()) this.period = billingPeriodOf(now);
    return this.period;
  }

  private async guarded<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      this.deps.logger.error({ err: error }, 'budget store unavailable');
      throw new AppError('service_unavailable', 'The budget ledger is not available', { cause: error });
    }
  }
}

export function createBudgetLedger(deps: BudgetLedgerDeps): BudgetLedger {
  return new BudgetLedger(deps);
}

function exceededError(scope: 'organization' | 'key'): AppError {
  return new AppError(
    'budget_exceeded',
    scope === 'key' ? 'The monthly budget of this API key, or of a key it was created with, is reached' : 'The monthly budget cap of this organization is reached',
  );
}

/** The budgets a call with this key counts against: its own, then each key's above it. */
function keyBudgetsOf(apiKey: ReserveOptions['apiKey']): readonly KeyBudget[] {
  // Most calls: no key budget anywhere, and nothing built for them on the request path.
  if (!apiKey || (apiKey.monthlyBudget === null && !apiKey.budgetsAbove?.length)) return NO_KEY_BUDGETS;
  const above = (apiKey.budgetsAbove ?? []).map((key) => ({ keyId: key.id, cap: toNanos(key.monthlyBudget) }));
  return apiKey.monthlyBudget === null ? above : [{ keyId: apiKey.id, cap: toNanos(apiKey.monthlyBudget) }, ...above];
}

const NO_KEY_BUDGETS: readonly KeyBudget[] = Object.freeze([]);

/** The stored cap (nanos) and its version; version 0 when the organization never set one. */
export async function loadCapSetting(em: EntityManager, organizationId: string): Promise<CapSetting> {
  const [row] = await em.execute<Array<{ monthly_cap: number | null; version: string | number }>>(
    'select "monthly_cap", "version" from "organization_budgets" where "organization_id" = ?',
    [organizationId],
  );
  if (!row) return { cap: null, version: 0 };
  return { cap: row.monthly_cap === null ? null : toNanos(Number(row.monthly_cap)), version: Number(row.version) };
}

/** The spend (USD) recorded in a period through a key: with it and with every key created under it. */
async function sumUsageThroughKey(em: EntityManager, organizationId: string, apiKeyId: string, period: BillingPeriod): Promise<number> {
  const [row] = await em.execute<Array<{ spent: number | string | null }>>(
    `select coalesce(sum("cost"), 0) as "spent" from "usage_records"
      where "organization_id" = ? and "created_at" >= ? and "created_at" < ?
        and ("api_key_id" = ? or "api_key_id" in (select "key_id" from "api_key_ancestors" where "ancestor_id" = ?))`,
    [organizationId, period.start, period.end, apiKeyId, apiKeyId],
  );
  return Number(row?.spent ?? 0);
}

/** A settlement made at once (into a lease): nothing to wait for. */
const SETTLED: Promise<void> = Promise.resolve();

/** `<period>/<holdId>`, or `<period>/<holdId>/<keyId>,<keyId>...` when the hold also counts against key budgets. */
function reservationId(period: string, holdId: string, keyBudgets: readonly KeyBudget[]): string {
  return keyBudgets.length ? `${period}/${holdId}/${keyBudgets.map((budget) => budget.keyId).join(',')}` : `${period}/${holdId}`;
}

function parseReservation(reservation: BudgetReservation): { ref: PeriodRef; holdId: string; keyIds: string[] } {
  const [period, holdId, keyIds] = reservation.id.split('/');
  if (!period || !holdId) throw new RangeError(`Not a budget reservation id: ${reservation.id}`);
  return { ref: { organizationId: reservation.organizationId, period }, holdId, keyIds: keyIds ? keyIds.split(',') : [] };
}
