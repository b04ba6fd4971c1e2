// The budget store's hold with what the per-key limits added to it (commit 94af6a8): an API key's own budget held in the
// same step as the organization's cap. Run on the in-process twin and on real Redis (the Lua
// scripts): both must apply the same rule.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../logger.js';
import { openSharedState, type SharedState } from '../redis.js';
import type { BudgetStore, HoldRequest } from './budget-store.js';
import { createBudgetStore } from './budget-store-for.js';
import { startMonitor } from '../../test/helpers/redis-monitor.js';

const stores: { name: string; open: () => Promise<SharedState> }[] = [
  { name: 'in-process twin', open: async () => openSharedState({}, createLogger({ level: 'silent' })) },
];
const redisUrl = inject('redisUrl');
if (redisUrl) {
  stores.push({ name: 'Redis scripts', open: () => openSharedState({ redisUrl, keyPrefix: `unit:${randomUUID()}:` }, createLogger({ level: 'silent' })) });
}

describe.each(stores)('budget store holds on the $name', ({ open }) => {
  let shared: SharedState;
  let store: BudgetStore;
  const ref = { organizationId: randomUUID(), period: '2026-11' };
  const now = 1_000_000;
  let holds = 0;
  const hold = (amount: number, extra: Partial<HoldRequest> = {}): HoldRequest => ({
    ...ref, holdId: `hold-${++holds}`, amount, nowMs: now, expiresAtMs: now + 60_000, ...extra,
  });

  beforeEach(async () => {
    shared = await open();
    store = createBudgetStore(shared);
    ref.organizationId = randomUUID();
  });
  afterEach(async () => shared.close());

  it("asks for the key's spend before holding against a key budget it has not loaded", async () => {
    await store.initialise(ref, { cap: null, version: 1 }, 0, 3600);
    expect(await store.hold(hold(10, { keys: [{ keyId: 'k1', cap: 100 }] }))).toEqual({ status: 'uninitialised' });
    await store.initialise(ref, { cap: null, version: 1 }, 0, 3600, [{ keyId: 'k1', spent: 95 }]);
    expect(await store.hold(hold(10, { keys: [{ keyId: 'k1', cap: 100 }] }))).toMatchObject({ status: 'exceeded', scope: 'key', cap: 100, spent: 95, reserved: 0 });
    expect((await store.hold(hold(5, { keys: [{ keyId: 'k1', cap: 100 }] }))).status).toBe('held');
  });

  it("holds against the key's budget and the organization's cap; release and settle move only what they should", async () => {
    await store.initialise(ref, { cap: 1000, version: 1 }, 0, 3600, [{ keyId: 'k1', spent: 0 }]);
    const keys = [{ keyId: 'k1', cap: 100 }];
    const first = hold(60, { keys });
    expect((await store.hold(first)).status).toBe('held');
    expect(await store.hold(hold(60, { keys }))).toMatchObject({ status: 'exceeded', scope: 'key', reserved: 60 });
    // Another key (no budget of its own) still has the organization's cap.
    expect((await store.hold(hold(500))).status).toBe('held');
    expect(await store.hold(hold(500))).toMatchObject({ status: 'exceeded', scope: 'organization' });

    await store.release(ref, first.holdId);
    const second = hold(90, { keys });
    expect((await store.hold(second)).status).toBe('held');
    await store.settle(ref, second.holdId, 30, ['k1']);
    // Key: 30 spent, 0 reserved; 71 more would pass its 100.
    expect(await store.hold(hold(71, { keys }))).toMatchObject({ status: 'exceeded', scope: 'key', spent: 30, reserved: 0 });
    expect((await store.hold(hold(70, { keys }))).status).toBe('held');
    expect(await store.read(ref, now)).toEqual({ cap: 1000, spent: 30, reserved: 570 });
  });

  it("frees an expired hold's share of the key budget", async () => {
    await store.initialise(ref, { cap: null, version: 1 }, 0, 3600, [{ keyId: 'k1', spent: 0 }]);
    const keys = [{ keyId: 'k1', cap: 100 }];
    expect((await store.hold(hold(100, { keys, expiresAtMs: now + 10 }))).status).toBe('held');
    expect((await store.hold(hold(100, { keys }))).status).toBe('exceeded');
    expect((await store.hold(hold(100, { keys, nowMs: now + 11 }))).status).toBe('held');
  });

  it('settles and releases many holds closed in one turn exactly as one by one', async () => {
    await store.initialise(ref, { cap: 10_000, version: 1 }, 0, 3600, [{ keyId: 'k1', spent: 0 }]);
    const keys = [{ keyId: 'k1', cap: 5_000 }];
    const opened = Array.from({ length: 30 }, (_, i) => hold(100, i % 2 === 0 ? { keys } : {}));
    for (const request of opened) expect((await store.hold(request)).status).toBe('held');
    // Closed in the same turn: settle 20 (10 on the key), release 10.
    await Promise.all(opened.map((request, i) =>
      i < 20 ? store.settle(ref, request.holdId, 40, request.keys?.map((budget) => budget.keyId)) : store.release(ref, request.holdId)));
    expect(await store.read(ref, now)).toEqual({ cap: 10_000, spent: 800, reserved: 0 });
    // The key spent 10 x 40: 4,600 of its 5,000 are left.
    expect((await store.hold(hold(4_601, { keys }))).status).toBe('exceeded');
    expect((await store.hold(hold(4_600, { keys }))).status).toBe('held');
  });

  it('holds a child key against its own budget and every budget above it: siblings share the parent\'s', async () => {
    // parent (100) -> child a (80), child b (80): together a and b spend at most the parent's 100.
    await store.initialise(ref, { cap: null, version: 1 }, 0, 3600, [{ keyId: 'a', spent: 0 }, { keyId: 'parent', spent: 0 }]);
    const chainA = [{ keyId: 'a', cap: 80 }, { keyId: 'parent', cap: 100 }];
    const chainB = [{ keyId: 'b', cap: 80 }, { keyId: 'parent', cap: 100 }];
    expect(await store.hold(hold(10, { keys: chainB }))).toEqual({ status: 'uninitialised' });
    await store.initialise(ref, { cap: null, version: 1 }, 0, 3600, [{ keyId: 'b', spent: 0 }, { keyId: 'parent', spent: 999 }]);
    const first = hold(70, { keys: chainA });
    expect((await store.hold(first)).status).toBe('held');
    await store.settle(ref, first.holdId, 60, ['a', 'parent']);
    // b is far under its own 80, but the parent has 40 left (60 spent through a; its loaded 0 was kept).
    expect(await store.hold(hold(41, { keys: chainB }))).toMatchObject({ status: 'exceeded', scope: 'key', cap: 100, spent: 60, reserved: 0 });
    const second = hold(40, { keys: chainB });
    expect((await store.hold(second)).status).toBe('held');
    // Held: the parent is full, a cannot even take 1 more though its own 80 has 20 left.
    expect(await store.hold(hold(1, { keys: chainA }))).toMatchObject({ status: 'exceeded', scope: 'key', cap: 100, reserved: 40 });
    // A release frees the reservation on every key of the chain.
    await store.release(ref, second.holdId);
    expect((await store.hold(hold(20, { keys: chainA }))).status).toBe('held');
    expect(await store.hold(hold(1, { keys: chainA }))).toMatchObject({ status: 'exceeded', scope: 'key', cap: 80, spent: 60, reserved: 20 });
  });
});

describe('budget store closes on Redis', () => {
  it.runIf(redisUrl)('sends the holds of one organization closed in one turn as one script call', async () => {
    const shared = await openSharedState({ redisUrl, keyPrefix: `unit:${randomUUID()}:` }, createLogger({ level: 'silent' }));
    try {
      const store = createBudgetStore(shared);
      const ref = { organizationId: randomUUID(), period: '2026-11' };
      await store.initialise(ref, { cap: null, version: 1 }, 0, 3600);
      const ids = Array.from({ length: 25 }, (_, i) => `hold-${i}`);
      for (const holdId of ids) await store.hold({ ...ref, holdId, amount: 10, nowMs: 1, expiresAtMs: 60_000 });
      const monitor = await startMonitor(shared.redis!);
      const closes: string[][] = [];
      monitor.on('monitor', (_time: string, args: string[]) => {
        if (/^eval/i.test(args[0] ?? '') && Number(args[2]) === 2 && args.some((arg) => arg.includes(`{${ref.organizationId}}`))) closes.push(args);
      });
      await Promise.all(ids.map((holdId) => store.settle(ref, holdId, 3)));
      await new Promise((resolve) => setTimeout(resolve, 200));
      monitor.disconnect();
      expect(closes).toHaveLength(1);
      expect(closes[0]!.length).toBe(3 + 2 + ids.length * 3);
      expect(await store.read(ref, 1)).toEqual({ cap: null, spent: 75, reserved: 0 });
    } finally {
      await shared.close();
    }
  });
});
