// Caches API key lookups per API process so a request does not cost a database round trip.
// Correctness does not depend on the cache: every change that could invalidate a cached caller
// (key revoked, or a key above it; user removed, disabled or re-roled) evicts it here at once and
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

export type CredentialChange = { apiKeyId: string } | { userId: string };

interface Entry {
  caller: Caller;
  cachedAt: number;
  /** The fan-out epoch it was cached in (see SharedState.subscriptionEpoch). */
  epoch: number;
}

export class CredentialCache {
  private readonly byKeyHash = new Map<string, Entry>();
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
    const entry = this.byKeyHash.get(keyHash);
    if (!entry) return undefined;
    // While evictions cannot reach this instance, or after they might have been missed, the
    // database is the only safe answer.
    if (entry.epoch !== this.epoch() || performance.now() - entry.cachedAt > TTL_MS) {
      this.byKeyHash.delete(keyHash);
      return undefined;
    }
    return entry.caller;
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
    const epoch = this.epoch();
    if (generationAtRead !== this.evictions || epoch === null) return;
    if (this.byKeyHash.size >= MAX_ENTRIES) this.byKeyHash.clear();
    this.byKeyHash.set(keyHash, { caller, cachedAt: performance.now(), epoch });
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
    for (const [hash, entry] of this.byKeyHash) {
      const matches = 'apiKeyId' in change ? isKeyOrUnder(entry.caller, change.apiKeyId) : entry.caller.userId === change.userId;
      if (matches) this.byKeyHash.delete(hash);
    }
  }
}

/** A key's eviction is its descendants' too: a key under a revoked key is no longer valid. */
function isKeyOrUnder(caller: Caller, apiKeyId: string): boolean {
  return caller.apiKeyId === apiKeyId || (caller.apiKeyAncestorIds?.includes(apiKeyId) ?? false);
}
