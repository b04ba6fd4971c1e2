// Local admission against leases, on real Redis: two books on one Redis are two API instances,
// each with its own leases. What must hold whatever the interleaving: spend never passes the
// cap, the rate limit is never passed, a closed instance gives its lease back, a dead one's lease
// lapses, near the cap requests are held one by one, and a lowered cap binds within a sync.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { createLogger } from '../logger.js';
import type { CounterHit, HitResult } from '../rate-limit/counters.js';
import { openSharedState, type SharedState } from '../redis.js';
import { LeaseBook, type LeaseAdmitResult, type LeaseSettings } from './budget-leases.js';
import { createBudgetStore, createLeaseStore } from './budget-store-for.js';
import type { BudgetStore, PeriodRef } from './budget-store.js';
import type { LeaseStore } from './lease-store.js';

const redisUrl = inject('redisUrl');
const logger = createLogger({ level: 'silent' });
const WORST = 1_000_000; // nano-USD
const SYNC_MS = 20;
const TTL_MS = 5_000;
const settings: LeaseSettings = { sizing: { ceiling: 100 * WORST, divisor: 16, minRequests: 8 }, syncMs: SYNC_MS, leaseTtlMs: TTL_MS, rateDivisor: 20 };

describe.runIf(redisUrl)('budget leases on Redis', () => {
  const clock = new ManualClock(new Date('2026-11-20T12:00:00Z'));
  const opened: { shared: SharedState; book: LeaseBook }[] = [];
  let prefix = '';
  let ref: PeriodRef;
  let holds = 0;

  async function instance(options: { clock?: ManualClock; wrap?: (store: LeaseStore) => LeaseStore } = {}) {
    const shared = await openSharedState({ redisUrl, keyPrefix: prefix }, logger);
    const leases = createLeaseStore(shared)!;
    const book = new LeaseBook(options.wrap ? options.wrap(leases) : leases, settings, { clock: options.clock ?? clock, logger });
    opened.push({ shared, book });
    return { shared, book, store: createBudgetStore(shared) };
  }

  async function start(cap: number | null): Promise<BudgetStore> {
    prefix = `unit:${randomUUID()}:`;
    ref = { organizationId: randomUUID(), period: '2026-11' };
    const { store } = await instance();
    await store.initialise(ref, { cap, version: 1 }, 0, 3600);
    return store;
  }

  function admit(book: LeaseBook, amount = WORST): Promise<LeaseAdmitResult> {
    const now = clock.now().getTime();
    return book.admit({ ref, amount, holdId: `hold-${++holds}`, nowMs: now, expiresAtMs: now + 60_000, keys: [] });
  }

  /** Counts a request's rate-limit counters alone, as a gateway request does before its hold. */
  async function admitRate(book: LeaseBook, counters: CounterHit[]): Promise<HitResult> {
    const result = await book.admitRate(ref, clock.now().getTime(), counters);
    if (result === 'uninitialised') throw new Error('the budget was not loaded');
    return result;
  }

  /** Settles an admitted request at `actual` (a per-request hold directly in the store). */
  async function settle(book: LeaseBook, store: BudgetStore, result: LeaseAdmitResult, actual: number, holdId?: string): Promise<void> {
    if (result.status === 'leased') book.settle(result.leaseId, WORST, actual);
    else if (result.status === 'held') await store.settle(ref, holdId!, actual);
  }

  const until = async (condition: () => Promise<boolean>, deadlineMs = 3_000): Promise<number> => {
    const started = Date.now();
    while (!(await condition())) {
      if (Date.now() - started > deadlineMs) throw new Error('condition not met before the deadline');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return Date.now() - started;
  };

  afterEach(async () => {
    for (const { shared, book } of opened.splice(0)) {
      await book.close().catch(() => {});
      await shared.close().catch(() => {});
    }
  });

  it('never passes the cap with waves of 20 parallel requests across two instances, and spends it all in the end', async () => {
    const cap = 1_000 * WORST;
    const store = await start(cap);
    const books = [(await instance()).book, (await instance()).book];
    let admitted = 0;
    let fullyRefused = 0;
    for (let wave = 0; wave < 400 && fullyRefused < 3; wave++) {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => {
        const holdId = `hold-${holds + 1}`; // the id admit() gives a per-request hold
        return admit(books[i % 2]!).then((result) => ({ result, holdId, book: books[i % 2]! }));
      }));
      const ok = results.filter(({ result }) => result.status === 'leased' || result.status === 'held');
      expect(results.every(({ result }) => ['leased', 'held', 'exceeded'].includes(result.status))).toBe(true);
      admitted += ok.length;
      // Every admitted request's worst case, spent in full: the ledger's worst outcome.
      await Promise.all(ok.map(({ result, holdId, book }) => settle(book, store, result, WORST, holdId)));
      const state = await store.read(ref, clock.now().getTime());
      expect(state!.spent + state!.reserved).toBeLessThanOrEqual(cap);
      if (ok.length === 0) {
        fullyRefused += 1;
        await new Promise((resolve) => setTimeout(resolve, 3 * SYNC_MS));
      }
    }
    for (const book of books) await book.close();
    expect(admitted).toBe(1_000);
    expect(await store.read(ref, clock.now().getTime())).toEqual({ cap, spent: cap, reserved: 0 });
  });

  it('never passes a rate limit across two instances, and counts each admitted request once', async () => {
    await start(null);
    const books = [(await instance()).book, (await instance()).book];
    const counters: CounterHit[] = [
      { key: `rl:credential:{${ref.organizationId}}:key:a`, windowMs: 60_000, limit: 200 },
      { key: `rl:organization:{${ref.organizationId}}`, windowMs: 60_000, limit: 10_000 },
    ];
    const results: HitResult[] = [];
    for (let wave = 0; wave < 15; wave++) {
      results.push(...(await Promise.all(Array.from({ length: 20 }, (_, i) => admitRate(books[i % 2]!, counters)))));
    }
    const admitted = results.filter((r) => r.admitted).length;
    const limited = results.filter((r) => !r.admitted);
    const counted = Number(await opened[0]!.shared.redis!.get(counters[0]!.key));
    expect(counted).toBeLessThanOrEqual(200);
    expect(admitted).toBeLessThanOrEqual(200);
    // At most one block (200 / 20) per instance sits unused.
    expect(admitted).toBeGreaterThanOrEqual(200 - 2 * 10);
    expect(limited.length).toBe(300 - admitted);
    expect(limited.every((r) => r.windows[0]!.count >= 200)).toBe(true);
    // An admission from a block reports the window as seen at the lease plus local use: never past the limit.
    expect(results.every((r) => r.windows[0]!.count <= 200)).toBe(true);
  });

  it('refills an empty lease once for 20 concurrent requests (single flight)', async () => {
    await start(null);
    let scriptCalls = 0;
    const { book } = await instance({
      wrap: (inner) => ({ connection: () => inner.connection(), admit: (request) => (scriptCalls++, inner.admit(request)), sync: (r, s) => inner.sync(r, s), returnTokens: (t) => inner.returnTokens(t) }),
    });
    const results = await Promise.all(Array.from({ length: 20 }, () => admit(book)));
    expect(results.every((r) => r.status === 'leased')).toBe(true);
    expect(new Set(results.map((r) => r.status === 'leased' && r.leaseId)).size).toBe(1);
    expect(scriptCalls).toBe(1);
  });

  it('admits nothing against a lease while the store is unreachable, nor after it reconnected (fails closed)', async () => {
    await start(null);
    let connection: number | undefined = 0;
    let scriptCalls = 0;
    const { book } = await instance({
      wrap: (inner) => ({
        connection: () => connection,
        admit: (request) => {
          scriptCalls++;
          return connection === undefined ? Promise.reject(new Error('Connection is closed.')) : inner.admit(request);
        },
        sync: (r, s) => inner.sync(r, s),
        returnTokens: (t) => inner.returnTokens(t),
      }),
    });
    expect((await admit(book)).status).toBe('leased');
    expect((await admit(book)).status).toBe('leased');
    expect(scriptCalls).toBe(1);
    // Redis goes away: the next request goes to the store (and fails) instead of the lease.
    connection = undefined;
    await expect(admit(book)).rejects.toThrow('Connection is closed.');
    expect(scriptCalls).toBe(2);
    // Redis is back on a new connection (perhaps empty): the old lease is not spent from; a new one is taken.
    connection = 1;
    const fresh = await admit(book);
    expect(scriptCalls).toBe(3);
    expect(fresh.status).toBe('leased');
    expect((await admit(book)).status).toBe('leased');
    expect(scriptCalls).toBe(3);
  });

  it('gives a lease back and syncs its spend when the instance closes, and returns unused rate tokens', async () => {
    const store = await start(10_000 * WORST);
    const { book, shared } = await instance();
    const counters: CounterHit[] = [{ key: `rl:credential:{${ref.organizationId}}:key:c`, windowMs: 60_000, limit: 1_000 }];
    const first = await admit(book);
    const second = await admit(book);
    await admitRate(book, counters);
    await admitRate(book, counters);
    expect(first.status).toBe('leased');
    expect((await store.read(ref, clock.now().getTime()))!.reserved).toBe(100 * WORST);
    expect(Number(await shared.redis!.get(counters[0]!.key))).toBe(50);
    book.settle((first as { leaseId: string }).leaseId, WORST, 300);
    book.release((second as { leaseId: string }).leaseId, WORST);

    await book.close();

    expect(await store.read(ref, clock.now().getTime())).toEqual({ cap: 10_000 * WORST, spent: 300, reserved: 0 });
    expect(Number(await shared.redis!.get(counters[0]!.key))).toBe(2);
  });

  it("lets a dead instance's lease lapse at its expiry, freeing its budget for the others", async () => {
    const deadClock = new ManualClock(clock.now());
    const store = await start(1_600 * WORST);
    const dead = await instance({ clock: deadClock });
    expect((await admit(dead.book)).status).toBe('leased');
    await dead.shared.close(); // the process dies: no more syncs
    const survivor = (await instance()).book;
    const now = clock.now().getTime();

    expect((await store.read(ref, now))!.reserved).toBe(100 * WORST);
    expect((await store.read(ref, now + TTL_MS - 1))!.reserved).toBe(100 * WORST);
    expect((await store.read(ref, now + TTL_MS))!.reserved).toBe(0);
    clock.advance(TTL_MS);
    expect((await admit(survivor)).status).toBe('leased');
  });

  it('holds each request alone near the cap (fewer than 128 worst cases left)', async () => {
    const store = await start(127 * WORST);
    const { book } = await instance();
    const holdId = `hold-${holds + 1}`;
    expect((await admit(book)).status).toBe('held');
    expect((await store.read(ref, clock.now().getTime()))!.reserved).toBe(WORST);
    await store.release(ref, holdId);
  });

  it('returns headroom to the lease when a request costs less than its worst case', async () => {
    const store = await start(null);
    const { book } = await instance();
    const results: LeaseAdmitResult[] = [];
    for (let i = 0; i < 100; i++) results.push(await admit(book));
    const leaseId = (results[0] as { leaseId: string }).leaseId;
    expect(results.every((r) => r.status === 'leased' && r.leaseId === leaseId)).toBe(true);
    book.settle(leaseId, WORST, WORST / 4);

    // The lease is full but for the 3/4 returned: a request for that much fits in it.
    const fits = await admit(book, (3 * WORST) / 4);
    expect(fits).toMatchObject({ status: 'leased', leaseId });
    await book.flush(ref.organizationId);
    expect(await store.read(ref, clock.now().getTime())).toEqual({ cap: null, spent: WORST / 4, reserved: 100 * WORST - WORST / 4 });
  });

  it('stops admitting against a lease within a sync interval after another instance lowers the cap', async () => {
    const store = await start(10_000 * WORST);
    const { book } = await instance();
    const admitted = [await admit(book)];
    expect(admitted[0]!.status).toBe('leased');
    await store.setCap(ref.organizationId, { cap: WORST, version: 2 });

    const elapsed = await until(async () => {
      const result = await admit(book);
      admitted.push(result);
      return result.status === 'exceeded';
    });

    expect(elapsed).toBeLessThan(SYNC_MS * 2 + 200);
    for (const result of admitted) if (result.status === 'leased') book.release(result.leaseId, WORST);
    await book.close();
    // Only what was admitted before the lease retired was spent-or-held: nothing is held now.
    expect((await store.read(ref, clock.now().getTime()))!.reserved).toBe(0);
  });
});
