// Caches API key lookups per API process so a request does not cost a database round trip, and,
// for /v1/mcp, what a key's user reaches: their tool connections with whether they are active
// (connectors/owner-connections.ts; one query every tools/call made before anything else).
// Correctness does not depend on the cache: every change that could invalidate a cached caller
// (key revoked, or a key above it; user removed, disabled or re-roled) or a user's connections
// (one created, removed or tested, the user's own change) evicts it here at once and
// fans the eviction out to every other API instance through shared pub/sub. The change is
// acknowledged only once every instance that received the eviction has applied it, so a request
// sent to any instance after the change's response sees it. A short TTL bounds staleness if a
// message were ever lost (e.g. during a Redis reconnect, or when acknowledgements time out).
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { SharedState } from '../redis.js';
import type { Caller } from './caller.js';

const CHANNEL = 'identity:credentials-changed';
const ACK_CHANNEL = 'identity:credentials-changed:ack';
const ACK_TIMEOUT_MS = 2_000;
const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

interface EvictionMessage {
  change: CredentialChange;
  ackId: string;
}

interface PendingAck {
  received: number;
  expected: number | undefined;
  done: () => void;
}

/** A key (and the keys under it), a user (their callers and connections), or only a user's tool connections. */
export type CredentialChange = { apiKeyId: string } | { userId: string } | { connectionsOfUserId: string };

interface Entry<T> {
  value: T;
  cachedAt: number;
  /** The fan-out epoch it was cached in (see SharedState.subscriptionEpoch). */
  epoch: number;
}

/** What is cached of a user's tool connections: opaque here, keyed by user. */
export interface UserConnections {
  userId: string;
}

export class CredentialCache {
  private readonly byKeyHash = new Map<string, Entry<Caller>>();
  /** By `<organizationId>:<userId>`. */
  private readonly connectionsByUser = new Map<string, Entry<UserConnections>>();
  /** When this process last wrote lastUsedAt for a key (epoch ms of the injected clock). */
  private readonly lastUsedWrites = new Map<string, number>();
  private evictions = 0;
  private readonly pendingAcks = new Map<string, PendingAck>();

  private listening: Promise<void> | undefined;

  /** Built once per runtime (src/runtime.ts); it subscribes to other instances' evictions at its first `listen()`. */
  constructor(private readonly shared: SharedState) {}

  /** Settles once this instance receives other instances' evictions (the first call subscribes; an API process calls it). */
  listen(): Promise<void> {
    this.listening ??= this.subscribe();
    return this.listening;
  }

  private async subscribe(): Promise<void> {
    await this.shared.subscribe(ACK_CHANNEL, (ackId) => {
      const pending = this.pendingAcks.get(ackId);
      if (!pending) return;
      pending.received++;
      if (pending.expected !== undefined && pending.received >= pending.expected) pending.done();
    });
    await this.shared.subscribe(CHANNEL, (raw) => {
      let message: EvictionMessage;
      try {
        message = JSON.parse(raw) as EvictionMessage;
      } catch {
        return; // A malformed message cannot name an entry; the TTL still bounds staleness.
      }
      this.evict(message.change);
      this.shared.publish(ACK_CHANNEL, message.ackId).catch(() => {
        // The publisher stops waiting after ACK_TIMEOUT_MS; the eviction itself is applied.
      });
    });
  }

  get(keyHash: string): Caller | undefined {
    return this.fresh(this.byKeyHash, keyHash);
  }

  /** A user's connections as cached by `setConnections` (organization and user: one member). */
  getConnections<T extends UserConnections>(organizationId: string, userId: string): T | undefined {
    return this.fresh(this.connectionsByUser, `${organizationId}:${userId}`) as T | undefined;
  }

  private fresh<T>(map: Map<string, Entry<T>>, key: string): T | undefined {
    const entry = map.get(key);
    if (!entry) return undefined;
    // While evictions cannot reach this instance, or after they might have been missed, the
    // database is the only safe answer.
    if (entry.epoch !== this.epoch() || performance.now() - entry.cachedAt > TTL_MS) {
      map.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Changes whenever something is evicted; see `set`. */
  get generation(): number {
    return this.evictions;
  }

  /**
   * Caches a caller read from the database. `generationAtRead` is `generation` taken before
   * the read: if an eviction happened since, the read may predate it and is not cached.
   */
  set(keyHash: string, caller: Caller, generationAtRead: number): void {
    this.store(this.byKeyHash, keyHash, caller, generationAtRead);
  }

  /** Caches a user's connections read from the database, as `set` caches a caller. */
  setConnections<T extends UserConnections>(organizationId: string, connections: T, generationAtRead: number): void {
    this.store(this.connectionsByUser, `${organizationId}:${connections.userId}`, connections, generationAtRead);
  }

  private store<T>(map: Map<string, Entry<T>>, key: string, value: T, generationAtRead: number): void {
    const epoch = this.epoch();
    if (generationAtRead !== this.evictions || epoch === null) return;
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, { value, cachedAt: performance.now(), epoch });
  }

  private epoch(): number | null {
    return this.shared.subscriptionEpoch ? this.shared.subscriptionEpoch() : 0;
  }

  /**
   * Evicts here at once, then tells every other instance and waits until each one that received
   * the message has applied it (at most ACK_TIMEOUT_MS). Call after the change is committed.
   * Resolves false when some instance did not acknowledge in time, or the message could not be
   * sent (shared state unreachable: instances that cannot hear it do not serve from their cache).
   */
  async invalidate(change: CredentialChange): Promise<boolean> {
    this.evict(change);
    const ackId = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const acknowledged = new Promise<boolean>((resolve) => {
      const pending: PendingAck = { received: 0, expected: undefined, done: () => resolve(true) };
      this.pendingAcks.set(ackId, pending);
      timer = setTimeout(() => resolve(false), ACK_TIMEOUT_MS);
      timer.unref();
    });
    try {
      let receivers: number;
      try {
        receivers = await this.shared.publish(CHANNEL, JSON.stringify({ change, ackId } satisfies EvictionMessage));
      } catch {
        return false;
      }
      const pending = this.pendingAcks.get(ackId)!;
      pending.expected = receivers;
      if (pending.received >= receivers) pending.done();
      return await acknowledged;
    } finally {
      clearTimeout(timer);
      this.pendingAcks.delete(ackId);
    }
  }

  /** True at most once per `intervalMs` per key in this process: when lastUsedAt is due a write. */
  claimLastUsedWrite(apiKeyId: string, nowMs: number, intervalMs: number): boolean {
    const last = this.lastUsedWrites.get(apiKeyId);
    if (last !== undefined && nowMs - last < intervalMs) return false;
    if (this.lastUsedWrites.size >= MAX_ENTRIES) this.lastUsedWrites.clear();
    this.lastUsedWrites.set(apiKeyId, nowMs);
    return true;
  }

  private evict(change: CredentialChange): void {
    this.evictions++;
    if ('connectionsOfUserId' in change || 'userId' in change) {
      const userId = 'userId' in change ? change.userId : change.connectionsOfUserId;
      for (const [key, entry] of this.connectionsByUser) if (entry.value.userId === userId) this.connectionsByUser.delete(key);
    }
    if ('connectionsOfUserId' in change) return;
    for (const [hash, entry] of this.byKeyHash) {
      const matches = 'apiKeyId' in change ? isKeyOrUnder(entry.value, change.apiKeyId) : entry.value.userId === change.userId;
      if (matches) this.byKeyHash.delete(hash);
    }
  }
}

/** A key's eviction is its descendants' too: a key under a revoked key is no longer valid. */
function isKeyOrUnder(caller: Caller, apiKeyId: string): boolean {
  return caller.apiKeyId === apiKeyId || (caller.apiKeyAncestorIds?.includes(apiKeyId) ?? false);
}
