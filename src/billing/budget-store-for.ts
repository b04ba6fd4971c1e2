// Builds the budget store behind the shared state: Redis (one Lua script per operation, atomic
// across instances) when the shared state is Redis, otherwise the in-process twin with the same
// semantics (single instance), counting rate limits in the runtime's in-memory windows. The
// runtime's one ledger builds its store once (src/runtime.ts).
import type { SharedState } from '../redis.js';
import type { BudgetStore } from './budget-store.js';
import { MemoryBudgetStore } from './budget-store.memory.js';
import { RedisBudgetStore } from './budget-store.redis.js';
import { RedisLeaseStore } from './budget-store.leases.redis.js';
import type { LeaseStore } from './lease-store.js';

export function createBudgetStore(shared: SharedState): BudgetStore {
  return shared.kind === 'redis' && shared.redis ? new RedisBudgetStore(shared.redis) : new MemoryBudgetStore();
}

/** The lease scripts behind `shared`, or undefined in process (one instance admits per request, cheaply). */
export function createLeaseStore(shared: SharedState): LeaseStore | undefined {
  return shared.kind === 'redis' && shared.redis ? new RedisLeaseStore(shared.redis) : undefined;
}
