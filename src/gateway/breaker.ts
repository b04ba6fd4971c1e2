// Per-target circuit breakers: after `failureThreshold` consecutive retryable failures a target
// is skipped for `cooldownMs`; a Retry-After from the target also keeps it aside that long
// (bounded). After the cooldown the next request tries it again; one more failure re-opens it.
import type { Clock } from '../clock.js';
import type { BreakerConfig } from './config.js';

/** A target asking for more than this is treated as down for this long, not longer. */
const MAX_RETRY_AFTER_MS = 60_000;

interface TargetHealth {
  consecutiveFailures: number;
  openUntil: number;
}

export class CircuitBreakers {
  private readonly health = new Map<string, TargetHealth>();

  constructor(private readonly config: BreakerConfig, private readonly clock: Clock) {}

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
    this.health.delete(key);
  }

  recordFailure(key: string, retryAfterMs?: number): void {
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
}
