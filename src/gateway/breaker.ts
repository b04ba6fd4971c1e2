// Per-target circuit breakers: after `failureThreshold` consecutive retryable failures a target
// is skipped for `cooldownMs`; a Retry-After from the target also keeps it aside that long
// (bounded). After the cooldown the next request tries it again; one more failure re-opens it.
//
// Shared by every API instance without touching Redis on the request path: each instance keeps
// the state in memory and publishes only the events that change it (a failure, or the first
// success after failures) on one pub/sub channel; every instance applies every instance's
// events. A healthy target's successes publish nothing. An instance started later learns of an
// open circuit from the next event about that target.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { SharedState } from '../redis.js';
import type { BreakerConfig } from './config.js';

/** A target asking for more than this is treated as down for this long, not longer. */
const MAX_RETRY_AFTER_MS = 60_000;

export const BREAKER_CHANNEL = 'gateway:breaker';

interface TargetHealth {
  consecutiveFailures: number;
  openUntil: number;
}

/** What one instance tells the others. `from` lets an instance skip its own events. */
interface BreakerEvent {
  from: string;
  key: string;
  kind: 'failure' | 'success';
  retryAfterMs?: number;
}

export class CircuitBreakers {
  private readonly health = new Map<string, TargetHealth>();
  private readonly instanceId = randomUUID();
  private shared: SharedState | undefined;

  constructor(private readonly config: BreakerConfig, private readonly clock: Clock, private readonly logger?: Logger) {}

  /** Starts sharing state with the other instances on `shared`'s pub/sub. */
  async share(shared: SharedState): Promise<void> {
    await shared.subscribe(BREAKER_CHANNEL, (message) => this.receive(message));
    this.shared = shared;
  }

  isAvailable(key: string): boolean {
    const state = this.health.get(key);
    return !state || this.clock.now().getTime() >= state.openUntil;
  }

  /** Milliseconds until the first target of `keys` becomes available again. */
  msUntilAvailable(keys: string[]): number {
    const now = this.clock.now().getTime();
    const waits = keys.map((key) => Math.max(0, (this.health.get(key)?.openUntil ?? 0) - now));
    return waits.length > 0 ? Math.min(...waits) : 0;
  }

  recordSuccess(key: string): void {
    // The common case: nothing to reset, nothing to tell anyone.
    if (!this.health.has(key)) return;
    this.health.delete(key);
    this.announce({ key, kind: 'success' });
  }

  recordFailure(key: string, retryAfterMs?: number): void {
    this.applyFailure(key, retryAfterMs);
    this.announce({ key, kind: 'failure', ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
  }

  private applyFailure(key: string, retryAfterMs: number | undefined): void {
    const now = this.clock.now().getTime();
    const state = this.health.get(key) ?? { consecutiveFailures: 0, openUntil: 0 };
    state.consecutiveFailures += 1;
    if (state.consecutiveFailures >= this.config.failureThreshold) {
      state.openUntil = Math.max(state.openUntil, now + this.config.cooldownMs);
    }
    if (retryAfterMs !== undefined) {
      state.openUntil = Math.max(state.openUntil, now + Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
    }
    this.health.set(key, state);
  }

  private announce(event: Omit<BreakerEvent, 'from'>): void {
    if (!this.shared) return;
    this.shared.publish(BREAKER_CHANNEL, JSON.stringify({ ...event, from: this.instanceId })).catch((error: unknown) => {
      // The others miss one event; their own failures still open their circuits.
      this.logger?.warn({ err: (error as Error).message }, 'circuit breaker event not published');
    });
  }

  private receive(message: string): void {
    let event: BreakerEvent;
    try {
      event = JSON.parse(message) as BreakerEvent;
    } catch {
      return;
    }
    if (event.from === this.instanceId || typeof event.key !== 'string') return;
    if (event.kind === 'success') this.health.delete(event.key);
    else if (event.kind === 'failure') this.applyFailure(event.key, typeof event.retryAfterMs === 'number' ? event.retryAfterMs : undefined);
  }
}
