// Local admission: one book per shared state (so every ledger of a process sees the
// same leases) that admits most gateway requests without a Redis call.
//
// Budget. The book takes a *lease*: an ordinary hold in the store (counted in `reserved` for every
// instance, taken atomically against the cap by the ADMIT script, lapsing at its expiry if this
// process dies) of min(ceiling, headroom / divisor), only when that block covers at least
// `minRequests` of the request's worst case: near the cap the same script takes today's
// per-request hold instead. Requests are admitted locally while their worst case fits what is left
// of the block (granted - settled - in flight). Settlements accumulate locally; every `syncMs` one
// SYNC per lease adds the settled spend to `spent` and shrinks the hold by as much in the same
// atomic step, and renews the hold. So the hold always covers the worst cases in flight plus the
// spend not yet synced, and spent + reserved never understates what is committed.
// SYNC also reports whether the cap changed or the organization came near it (headroom besides
// the lease below divisor x minRequests worst cases): the lease then retires (no new admissions;
// its hold shrinks to what is in flight, and closes when that drains). A lowered cap therefore
// binds new requests on every instance within one sync interval plus a round trip; until then
// an instance admits at most what is left of its lease (<= ceiling) under the old cap.
// An idle lease (nothing in flight for IDLE_SYNCS intervals) retires too, so an instance that
// stopped serving an organization does not sit on its headroom.
// API keys under a budget (their own or a key's above them) are held per request (their budget is usually small, and
// a lease per (org, key) would tie up most of it on one instance).
//
// Rate limits come from token blocks (rate-limit/leases.ts) leased by the same script, counted
// before any work on a request (admitRate, admitRateLocally), apart from its budget.
// A refill (the script call when the lease is empty) is single-flight per organization and
// period: concurrent requests wait for it and then admit locally; when the refill fell back to a
// per-request hold (near the cap) the waiters stop waiting and hold per request in parallel, as
// before leases existed.
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { CounterHit, HitResult, WindowCount } from '../rate-limit/counters.js';
import { TokenBlocks } from '../rate-limit/leases.js';
import type { KeyBudget, PeriodRef } from './budget-store.js';
import type { BudgetAsk, LeaseSizing, LeaseStore } from './lease-store.js';
import { billingPeriodOf } from './period.js';

export interface LeaseSettings {
  sizing: LeaseSizing;
  /** How often local settlements are synced and leases renewed and re-checked against the cap. */
  syncMs: number;
  /** A lease lapses this long after its last sync (a crashed process). */
  leaseTtlMs: number;
  /** Rate-limit blocks are limit / this; 0 counts every request in Redis. */
  rateDivisor: number;
}

export interface LeaseAdmission {
  ref: PeriodRef;
  /** Worst case, nano-USD. */
  amount: number;
  /** Id of a per-request hold, if the request gets one. */
  holdId: string;
  nowMs: number;
  expiresAtMs: number;
  /** The budgets of the calling key and the keys above it; empty when none has one. */
  keys: readonly KeyBudget[];
}

export type LeaseAdmitResult =
  | { status: 'uninitialised' }
  | { status: 'exceeded'; scope: 'organization' | 'key' }
  /** A per-request hold with the admission's holdId. */
  | { status: 'held' }
  /** Admitted against a lease. */
  | { status: 'leased'; leaseId: string };

interface BudgetLease {
  id: string;
  ref: PeriodRef;
  capVersion: string;
  granted: number;
  /** Actual spend settled locally (cumulative). */
  settled: number;
  inFlight: number;
  retired: boolean;
  /** Syncs in a row that found nothing in flight and nothing admitted since the previous one. */
  idleSyncs: number;
  usedSinceSync: boolean;
  maxWorst: number;
  /** The store connection the lease was taken on (LeaseStore.connection). */
  connection: number | undefined;
}

/** Waits for another request's refill at most this many times before calling the script itself. */
const MAX_REFILL_WAITS = 4;
const IDLE_SYNCS = 4;
const WARNING_INTERVAL_MS = 30_000;

export class LeaseBook {
  /** Leases still holding budget, by id; the one admitting per (org, period) is in `active`. */
  private readonly leases = new Map<string, BudgetLease>();
  private readonly active = new Map<string, BudgetLease>();
  private readonly blocks: TokenBlocks;
  private readonly refills = new Map<string, Promise<unknown>>();
  /** Per (org, period): until when the last lease attempt fell back to a per-request hold. */
  private readonly nearCapUntil = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private closed = false;
  private lastWarning = 0;

  constructor(
    private readonly store: LeaseStore,
    private readonly settings: LeaseSettings,
    private readonly deps: { clock: Clock; logger: Logger },
  ) {
    this.blocks = new TokenBlocks(settings.rateDivisor);
  }

  async admit(request: LeaseAdmission): Promise<LeaseAdmitResult> {
    for (let waits = 0; ; waits++) {
      const local = this.admitLocally(request);
      if (local) return local;
      const flight = refKey(request.ref);
      const pending = this.refills.get(flight);
      if (pending && waits < MAX_REFILL_WAITS && !request.keys.length && !this.nearCap(request.ref)) {
        await pending.then(noop, noop);
        continue;
      }
      const refill = this.refill(request);
      if (!pending) {
        this.refills.set(flight, refill);
        const done = () => this.refills.get(flight) === refill && this.refills.delete(flight);
        void refill.then(done, done);
      }
      return refill;
    }
  }

  settle(leaseId: string, worst: number, actual: number): void {
    const lease = this.leases.get(leaseId);
    if (!lease) return;
    lease.inFlight -= worst;
    lease.settled += actual;
  }

  release(leaseId: string, worst: number): void {
    const lease = this.leases.get(leaseId);
    if (lease) lease.inFlight -= worst;
  }

  /** True while the lease still holds budget (its requests' reservations are covered). */
  isLive(leaseId: string): boolean {
    return this.leases.has(leaseId);
  }

  /** Syncs the organization's leases now (its settled spend reaches the store). */
  async flush(organizationId: string): Promise<void> {
    await this.syncAll((lease) => lease.ref.organizationId === organizationId);
  }

  /** A cap change made here: stop admitting against the organization's leases at once. */
  async retireOrganization(organizationId: string): Promise<void> {
    for (const lease of this.leases.values()) if (lease.ref.organizationId === organizationId) this.retire(lease);
    await this.flush(organizationId);
  }

  /** Stops leasing, gives every lease's unused budget and rate tokens back, and syncs its spend. */
  async close(): Promise<void> {
    this.closed = true;
    for (const lease of this.leases.values()) this.retire(lease);
    await this.syncAll(() => true);
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.store.returnTokens(this.blocks.drain(Date.now())).catch((error: unknown) => this.warn(error, 'returning unused rate-limit tokens failed'));
  }

  /** Admits against a lease this book holds, or returns undefined (then `admit`). */
  admitLocally(request: LeaseAdmission): LeaseAdmitResult | undefined {
    const lease = this.usableLease(request);
    if (!lease || available(lease) < request.amount) return undefined;
    this.use(lease, request.amount);
    return { status: 'leased', leaseId: lease.id };
  }

  /** Counts a request's rate-limit counters from this book's token blocks when each has one; else undefined, nothing taken. */
  admitRateLocally(counters: CounterHit[]): HitResult | undefined {
    const now = Date.now();
    for (const hit of counters) if (!this.blocks.has(hit, now)) return undefined;
    return { admitted: true, windows: counters.map((hit) => this.blocks.take(hit, now)) };
  }

  /**
   * Counts a request's rate-limit counters alone, before any budget is asked (admission before
   * work): from this book's token blocks when each counter has one (no round trip), else one ADMIT
   * call that counts the rest and leases their blocks. `uninitialised`: the organization's budget
   * is not loaded in the store yet (the script checks it first).
   */
  async admitRate(ref: PeriodRef, nowMs: number, counters: CounterHit[]): Promise<HitResult | 'uninitialised'> {
    const now = Date.now();
    const local = counters.map((hit) => (this.blocks.has(hit, now) ? this.blocks.take(hit, now) : undefined));
    if (local.every((window) => window !== undefined)) return { admitted: true, windows: local };
    const sent = counters.filter((_, i) => !local[i]).map((hit) => ({ hit, lease: this.blocks.leaseSize(hit.limit) }));
    const undo = () => counters.forEach((hit, i) => local[i] && this.blocks.giveBack(hit));
    let outcome;
    try {
      outcome = await this.store.admit({ ...ref, nowMs, amount: 0, budget: { mode: 'none' }, counters: sent });
    } catch (error) {
      undo();
      throw error;
    }
    if (outcome.status === 'uninitialised') {
      undo();
      return 'uninitialised';
    }
    let next = 0;
    const windows = local.map((window): WindowCount => window ?? TokenBlocks.counted(outcome.counts[next++]!));
    if (outcome.status === 'limited') {
      undo();
      return { admitted: false, windows };
    }
    sent.forEach(({ hit }, i) => this.blocks.store(hit, outcome.counts[i]!, now));
    return { admitted: true, windows };
  }

  /** One ADMIT script call: the budget covered by a new lease, or by a hold for this request alone. */
  private async refill(request: LeaseAdmission): Promise<LeaseAdmitResult> {
    // Another request's refill may have brought a lease that covers this one meanwhile.
    const local = this.admitLocally(request);
    if (local) return local;
    const now = Date.now();
    // The connection the script goes out on: a lease it grants belongs to it.
    const connection = this.store.connection();
    const outcome = await this.store.admit({ ...request.ref, nowMs: request.nowMs, amount: request.amount, budget: this.budgetAsk(request), counters: [] });
    switch (outcome.status) {
      case 'uninitialised':
        return { status: 'uninitialised' };
      case 'exceeded':
        return { status: 'exceeded', scope: outcome.scope };
      case 'held':
        if (!request.keys.length) this.nearCapUntil.set(refKey(request.ref), now + this.settings.syncMs);
        return { status: 'held' };
      case 'leased': {
        const taken = this.open(request, outcome.amount, outcome.capVersion, connection);
        this.use(taken, request.amount);
        return { status: 'leased', leaseId: taken.id };
      }
      default:
        // 'limited' and 'counted' answer counters or a budget covered locally, neither of which was sent.
        throw new Error(`the ADMIT script answered '${outcome.status}' to a budget request`);
    }
  }

  /**
   * The lease that may cover the request: none for a key with its own budget, and none while the
   * store is unreachable or since it reconnected (the lease is then retired: its hold, if Redis
   * still has it, shrinks to what is in flight at the next sync, else it lapsed).
   */
  private usableLease(request: LeaseAdmission): BudgetLease | undefined {
    const lease = request.keys.length ? undefined : this.active.get(refKey(request.ref));
    if (!lease) return undefined;
    const connection = this.store.connection();
    if (connection === undefined) return undefined;
    if (lease.connection !== connection) {
      this.retire(lease);
      return undefined;
    }
    return lease;
  }

  private budgetAsk(request: LeaseAdmission): BudgetAsk {
    const { sizing } = this.settings;
    const hold = { holdId: request.holdId, expiresAtMs: request.expiresAtMs };
    if (request.keys.length || this.closed || sizing.ceiling <= 0 || request.amount * sizing.minRequests > sizing.ceiling) return { mode: 'hold', ...hold, keys: request.keys };
    return { mode: 'lease', ...hold, leaseExpiresAtMs: request.nowMs + this.settings.leaseTtlMs, sizing };
  }

  private open(request: LeaseAdmission, granted: number, capVersion: string, connection: number | undefined): BudgetLease {
    const key = refKey(request.ref);
    const previous = this.active.get(key);
    if (previous) this.retire(previous);
    const lease: BudgetLease = {
      id: request.holdId, ref: request.ref, capVersion, granted, settled: 0, inFlight: 0, retired: false, idleSyncs: 0, usedSinceSync: false, maxWorst: 0,
      connection,
    };
    this.leases.set(lease.id, lease);
    this.active.set(key, lease);
    this.nearCapUntil.delete(key);
    this.timer ??= setInterval(() => void this.syncAll(() => true), this.settings.syncMs).unref();
    return lease;
  }

  private use(lease: BudgetLease, amount: number): void {
    lease.inFlight += amount;
    lease.usedSinceSync = true;
    lease.maxWorst = Math.max(lease.maxWorst, amount);
  }

  private retire(lease: BudgetLease): void {
    lease.retired = true;
    const key = refKey(lease.ref);
    if (this.active.get(key) === lease) this.active.delete(key);
  }

  private nearCap(ref: PeriodRef): boolean {
    return (this.nearCapUntil.get(refKey(ref)) ?? 0) > Date.now();
  }

  /** One sync at a time: a caller arriving during one waits for it, then runs its own. */
  private async syncAll(which: (lease: BudgetLease) => boolean): Promise<void> {
    while (this.syncing) await this.syncing;
    const chosen = [...this.leases.values()].filter(which);
    this.syncing = Promise.all(chosen.map((lease) => this.sync(lease))).then(noop);
    try {
      await this.syncing;
    } finally {
      this.syncing = undefined;
      if (this.leases.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }
  }

  private async sync(lease: BudgetLease): Promise<void> {
    const now = this.deps.clock.now();
    lease.idleSyncs = lease.inFlight === 0 && !lease.usedSinceSync ? lease.idleSyncs + 1 : 0;
    lease.usedSinceSync = false;
    if (lease.idleSyncs >= IDLE_SYNCS || billingPeriodOf(now).key !== lease.ref.period) this.retire(lease);
    const final = lease.retired && lease.inFlight <= 0;
    const settledTotal = lease.settled;
    const amount = final ? 0 : lease.retired ? lease.inFlight : Math.max(lease.inFlight, lease.granted - lease.settled);
    const { divisor, minRequests } = this.settings.sizing;
    try {
      const outcome = await this.store.sync(lease.ref, {
        holdId: lease.id, settledTotal, amount, nowMs: now.getTime(), expiresAtMs: now.getTime() + this.settings.leaseTtlMs,
        capVersion: lease.capVersion, minHeadroom: divisor * minRequests * lease.maxWorst, final,
      });
      if (outcome !== 'kept') this.retire(lease);
      if (outcome === 'lapsed' && lease.inFlight > 0) {
        this.deps.logger.warn({ organizationId: lease.ref.organizationId }, 'budget lease lapsed before its calls ended: spend may pass the cap');
      }
      // A retired lease admits nothing more: once drained and its spend synced it is forgotten.
      if (final) this.leases.delete(lease.id);
    } catch (error) {
      this.warn(error, 'budget lease sync failed: retrying at the next interval');
    }
  }

  private warn(error: unknown, message: string): void {
    if (Date.now() - this.lastWarning < WARNING_INTERVAL_MS) return;
    this.lastWarning = Date.now();
    this.deps.logger.warn({ err: error }, message);
  }
}

/** The lease book on `store`; undefined without a lease store (no Redis) or with leases turned off. */
export function createLeaseBook(store: LeaseStore | undefined, settings: LeaseSettings | undefined, deps: { clock: Clock; logger: Logger }): LeaseBook | undefined {
  if (!store || !settings || (settings.sizing.ceiling <= 0 && settings.rateDivisor <= 0)) return undefined;
  return new LeaseBook(store, settings, deps);
}

function available(lease: BudgetLease): number {
  return lease.retired ? -1 : lease.granted - lease.settled - lease.inFlight;
}

function refKey(ref: PeriodRef): string {
  return `${ref.organizationId}:${ref.period}`;
}

function noop(): void {}
