// Picks the budget store behind the shared state: Redis (one Lua script per operation, atomic
// across instances) when the shared state is Redis, otherwise the in-process twin with the same
// semantics (single instance).
import { memoryCountersFor } from '../rate-limit/counters.js';
import type { SharedState } from '../redis.js';
import type { BudgetStore } from './budget-store.js';
import { MemoryBudgetStore } from './budget-store.memory.js';
import { RedisBudgetStore } from './budget-store.redis.js';
import { RedisLeaseStore } from './budget-store.leases.redis.js';
import type { LeaseStore } from './lease-store.js';

const memoryStores = new WeakMap<SharedState, MemoryBudgetStore>();
const redisStores = new WeakMap<SharedState, RedisBudgetStore>();

/**
 * The store behind `shared`. The same shared state always yields the same store, so the guard
 * the gateway calls and the billing endpoints see one set of in-process counters.
 */
export function budgetStoreFor(shared: SharedState): BudgetStore {
  if (shared.kind === 'redis' && shared.redis) {
    const existing = redisStores.get(shared);
    if (existing) return existing;
    const store = new RedisBudgetStore(shared.redis);
    redisStores.set(shared, store);
    return store;
  }
  const existing = memoryStores.get(shared);
  if (existing) return existing;
  const store = new MemoryBudgetStore(memoryCountersFor(shared));
  memoryStores.set(shared, store);
  return store;
}

const leaseStores = new WeakMap<SharedState, RedisLeaseStore>();

/** The lease scripts behind `shared`, or undefined in process (one instance admits per request, cheaply). */
export function leaseStoreFor(shared: SharedState): LeaseStore | undefined {
  if (shared.kind !== 'redis' || !shared.redis) return undefined;
  let store = leaseStores.get(shared);
  if (!store) {
    store = new RedisLeaseStore(shared.redis);
    leaseStores.set(shared, store);
  }
  return store;
}
