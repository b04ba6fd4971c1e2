// Shared state across API instances: Redis through ioredis when REDIS_URL is set. Without it,
// an in-process fallback serves a single instance (said once in the logs). Features that need
// atomic shared counters pick the Redis or in-memory flavour of their store from `kind`.
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from './logger.js';
import { MemoryCounters } from './rate-limit/counters.js';

export interface SharedState {
  readonly kind: 'redis' | 'memory';
  /** The ioredis client (commands), when kind is 'redis'. Keys already carry `keyPrefix`. */
  readonly redis: Redis | undefined;
  readonly keyPrefix: string;
  /**
   * This process's in-memory rate-limit windows: the counters themselves without Redis, the
   * fallback while Redis fails with it; one per runtime, so the rate-limit middleware and the
   * in-process budget store count a key's requests in the same window.
   */
  readonly counters: MemoryCounters;
  ping(): Promise<void>;
  /**
   * Fan-out to every API instance (e.g. API key revocation). Resolves with how many
   * subscribers (one per instance and channel) received it.
   */
  publish(channel: string, message: string): Promise<number>;
  subscribe(channel: string, handler: (message: string) => void): Promise<void>;
  /**
   * Null while subscriptions may be missing messages (the subscriber connection is down or
   * resubscribing), else a number that changes whenever they may have missed some since. A cache
   * kept correct by fan-out messages must not serve entries from another epoch.
   */
  subscriptionEpoch?(): number | null;
  close(): Promise<void>;
}

export async function openSharedState(
  options: { redisUrl?: string | undefined; keyPrefix?: string },
  logger: Logger,
): Promise<SharedState> {
  const keyPrefix = options.keyPrefix ?? 'svc:';
  if (!options.redisUrl) {
    logger.warn('REDIS_URL is not set: rate limits, budget reservations and revocation fan-out are in-process (single instance only)');
    return new InProcessState(keyPrefix);
  }
  const state = new RedisState(options.redisUrl, keyPrefix, logger);
  await state.connect();
  return state;
}

class RedisState implements SharedState {
  readonly kind = 'redis' as const;
  readonly redis: Redis;
  readonly counters = new MemoryCounters();
  private subscriber: Redis | undefined;
  private subscriberLive = false;
  private subscriberEpoch = 0;
  private readonly handlers = new Map<string, Set<(message: string) => void>>();

  constructor(url: string, readonly keyPrefix: string, private readonly logger: Logger) {
    this.redis = new Redis(url, {
      keyPrefix,
      lazyConnect: true,
      // Commands issued in the same tick (two rate-limit counters, many requests' budget holds
      // under load) leave in one write: socket writes are the dominant cost per request.
      enableAutoPipelining: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
    });
    this.redis.on('error', (error: Error) => this.logger.warn({ err: error.message }, 'redis error'));
  }

  async connect(): Promise<void> {
    await this.redis.connect();
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async publish(channel: string, message: string): Promise<number> {
    return this.redis.publish(this.keyPrefix + channel, message);
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<void> {
    const subscriber = (this.subscriber ??= this.createSubscriber());
    const fullChannel = this.keyPrefix + channel;
    const set = this.handlers.get(fullChannel) ?? new Set();
    const first = set.size === 0;
    set.add(handler);
    this.handlers.set(fullChannel, set);
    if (first) await subscriber.subscribe(fullChannel);
    this.subscriberLive = subscriber.status === 'ready';
  }

  subscriptionEpoch(): number | null {
    return this.subscriberLive ? this.subscriberEpoch : null;
  }

  private createSubscriber(): Redis {
    const subscriber = this.redis.duplicate({ keyPrefix: '', enableOfflineQueue: true, lazyConnect: false });
    subscriber.on('error', (error: Error) => this.logger.warn({ err: error.message }, 'redis subscriber error'));
    subscriber.on('message', (fullChannel: string, message: string) => {
      for (const h of this.handlers.get(fullChannel) ?? []) h(message);
    });
    // Messages published while the connection is down are lost: a new epoch starts, and it is
    // live only once every channel is subscribed again (ioredis emits 'ready' before it
    // resubscribes; this SUBSCRIBE is answered after its own).
    subscriber.on('close', () => {
      this.subscriberLive = false;
      this.subscriberEpoch++;
    });
    subscriber.on('ready', () => {
      const channels = [...this.handlers.keys()];
      if (channels.length === 0) return;
      subscriber.subscribe(...channels).then(
        () => (this.subscriberLive = subscriber.status === 'ready'),
        () => undefined,
      );
    });
    return subscriber;
  }

  async close(): Promise<void> {
    this.subscriber?.disconnect();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

class InProcessState implements SharedState {
  readonly kind = 'memory' as const;
  readonly redis = undefined;
  readonly counters = new MemoryCounters();
  private readonly bus = new EventEmitter();

  constructor(readonly keyPrefix: string) {
    this.bus.setMaxListeners(0);
  }

  async ping(): Promise<void> {}

  async publish(channel: string, message: string): Promise<number> {
    const receivers = this.bus.listenerCount(channel);
    this.bus.emit(channel, message);
    return receivers;
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<void> {
    this.bus.on(channel, handler);
  }

  async close(): Promise<void> {
    this.bus.removeAllListeners();
  }
}
