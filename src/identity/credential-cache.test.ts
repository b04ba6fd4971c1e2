import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { SharedState } from '../redis.js';
import { MemoryCounters } from '../rate-limit/counters.js';
import type { Caller } from './caller.js';
import { CredentialCache } from './credential-cache.js';

/** Pub/sub whose deliveries arrive `delayMs` later, as they can across real instances. */
function slowBus(delayMs: number): () => SharedState {
  const bus = new EventEmitter();
  return () => ({
    kind: 'memory',
    redis: undefined,
    keyPrefix: 'test:',
    counters: new MemoryCounters(),
    ping: async () => {},
    close: async () => {},
    publish: async (channel, message) => {
      const receivers = bus.listenerCount(channel);
      setTimeout(() => bus.emit(channel, message), delayMs);
      return receivers;
    },
    subscribe: async (channel, handler) => {
      bus.on(channel, handler);
    },
  });
}

const caller: Caller = { organizationId: 'org', userId: 'user-1', email: 'a@b.c', role: 'member', via: 'api_key', apiKeyId: 'key-1' };

describe('CredentialCache', () => {
  it('resolves an invalidation only after every other instance has evicted', async () => {
    const instance = slowBus(40);
    const first = new CredentialCache(instance());
    const second = new CredentialCache(instance());
    await Promise.all([first.listen(), second.listen()]);
    second.set('hash', caller, second.generation);
    expect(second.get('hash')).toEqual(caller);

    const started = performance.now();
    await expect(first.invalidate({ userId: 'user-1' })).resolves.toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
    expect(second.get('hash')).toBeUndefined();
  });

  it('does not cache a read that raced with an eviction', async () => {
    const cache = new CredentialCache(slowBus(0)());
    await cache.listen();
    const generation = cache.generation;
    await cache.invalidate({ apiKeyId: 'key-1' });
    cache.set('hash', caller, generation);
    expect(cache.get('hash')).toBeUndefined();
  });

  it('gives up waiting for an instance that never acknowledges, and says so', async () => {
    const silent: SharedState = { ...slowBus(0)(), publish: async () => 1 };
    const cache = new CredentialCache(silent);
    await cache.listen();
    await expect(cache.invalidate({ apiKeyId: 'key-1' })).resolves.toBe(false);
  }, 10_000);

  it('serves nothing from the cache while fan-out is down, nor entries cached before it dropped', async () => {
    let epoch: number | null = 0;
    const cache = new CredentialCache({ ...slowBus(0)(), subscriptionEpoch: () => epoch });
    await cache.listen();
    cache.set('hash', caller, cache.generation);
    expect(cache.get('hash')).toEqual(caller);
    epoch = null;
    expect(cache.get('hash')).toBeUndefined();
    cache.set('hash', caller, cache.generation);
    expect(cache.get('hash')).toBeUndefined();
    epoch = 1;
    expect(cache.get('hash')).toBeUndefined();
    cache.set('hash', caller, cache.generation);
    expect(cache.get('hash')).toEqual(caller);
  });

  it('answers false instead of failing when the eviction cannot be sent', async () => {
    const unreachable: SharedState = { ...slowBus(0)(), publish: async () => Promise.reject(new Error('connection is closed')) };
    const cache = new CredentialCache(unreachable);
    await cache.listen();
    await expect(cache.invalidate({ apiKeyId: 'key-1' })).resolves.toBe(false);
  });

  it('evicts the keys under a key with it, on every instance, and leaves other keys cached', async () => {
    const instance = slowBus(0);
    const first = new CredentialCache(instance());
    const second = new CredentialCache(instance());
    await Promise.all([first.listen(), second.listen()]);
    const child: Caller = { ...caller, apiKeyId: 'key-2', apiKeyAncestorIds: ['key-1'] };
    const grandchild: Caller = { ...caller, apiKeyId: 'key-3', apiKeyAncestorIds: ['key-2', 'key-1'] };
    const sibling: Caller = { ...caller, apiKeyId: 'key-4', apiKeyAncestorIds: ['key-9'] };
    for (const cache of [first, second]) {
      for (const [hash, entry] of [['child', child], ['grandchild', grandchild], ['sibling', sibling]] as const) cache.set(hash, entry, cache.generation);
    }
    await expect(first.invalidate({ apiKeyId: 'key-1' })).resolves.toBe(true);
    for (const cache of [first, second]) {
      expect(cache.get('child')).toBeUndefined();
      expect(cache.get('grandchild')).toBeUndefined();
      expect(cache.get('sibling')).toEqual(sibling);
    }
  });

  it("evicts a user's connections on every instance when they change or the user does, and only theirs", async () => {
    const instance = slowBus(0);
    const first = new CredentialCache(instance());
    const second = new CredentialCache(instance());
    await Promise.all([first.listen(), second.listen()]);
    const mine = { userId: 'user-1', connections: ['c1'] };
    const theirs = { userId: 'user-2', connections: ['c2'] };
    const fill = () => {
      for (const cache of [first, second]) {
        cache.setConnections('org', mine, cache.generation);
        cache.setConnections('org', theirs, cache.generation);
        cache.set('hash', caller, cache.generation);
      }
    };
    fill();
    expect(second.getConnections('org', 'user-1')).toEqual(mine);
    // Another organization's member of the same id is not this one.
    expect(second.getConnections('other-org', 'user-1')).toBeUndefined();

    await expect(first.invalidate({ connectionsOfUserId: 'user-1' })).resolves.toBe(true);
    for (const cache of [first, second]) {
      expect(cache.getConnections('org', 'user-1')).toBeUndefined();
      expect(cache.getConnections('org', 'user-2')).toEqual(theirs);
      // The user's keys are not touched by a change to their connections.
      expect(cache.get('hash')).toEqual(caller);
    }

    fill();
    await expect(second.invalidate({ userId: 'user-1' })).resolves.toBe(true);
    for (const cache of [first, second]) {
      expect(cache.getConnections('org', 'user-1')).toBeUndefined();
      expect(cache.get('hash')).toBeUndefined();
      expect(cache.getConnections('org', 'user-2')).toEqual(theirs);
    }
  });

  it('does not cache connections read while they changed', async () => {
    const cache = new CredentialCache(slowBus(0)());
    await cache.listen();
    const generation = cache.generation;
    await cache.invalidate({ connectionsOfUserId: 'user-1' });
    cache.setConnections('org', { userId: 'user-1' }, generation);
    expect(cache.getConnections('org', 'user-1')).toBeUndefined();
  });
});
