// Tries a request's targets in order (weighted targets in a weighted random order: balance.ts):
// skips targets whose circuit is open, reserves budget before each upstream call (kept alive
// while the call runs, released when it fails), moves on after a retryable failure (connect
// error, timeout, 429, 5xx), honours a short Retry-After on the last target once, and ends with
// 503 provider_unavailable when no target answered, 400 bad_request (the upstream's message) when
// one said the request itself is wrong (400, 413, 422: no other target is tried; a context-window
// error first goes to the model's contextWindowFallbacks), or 502 provider_error when one refused
// it for another reason (our credentials, the config).
import type { BudgetGuard, BudgetReservation, ReserveOptions } from '../billing/budget.js';
import { balance } from './balance.js';
import { AppError } from '../errors.js';
import { observeUpstreamCall } from '../metrics.js';
import type { CircuitBreakers } from './breaker.js';
import type { BreakerConfig } from './config.js';
import { worstCaseCost, type CacheWrite } from './pricing.js';
import { effectiveMaxTokens, type RouteTarget } from './router.js';
import { UpstreamAborted, UpstreamFailure } from './transport.js';
import type { CallSignal } from './types.js';

export interface AttemptLog {
  attempts: number;
  /** The last target tried. */
  target: RouteTarget | undefined;
}

export interface Answered<T> {
  target: RouteTarget;
  value: T;
  reservation: BudgetReservation;
  maxTokens: number;
}

export interface FailoverInput {
  organizationId: string;
  targets: RouteTarget[];
  requestedMaxTokens: number | undefined;
  promptTokens: number;
  signal: CallSignal | undefined;
  log: AttemptLog;
  /** Calls that produce no output tokens (embeddings): nothing is reserved for an answer. */
  noOutput?: boolean;
  /** The calling key (its own budget) and the request's rate-limit counters, for the holds. */
  holdOptions?: ReserveOptions;
  /** The targets a context-length error moves on to (the model's contextWindowFallbacks). */
  contextFallbacks?: (model: RouteTarget['model']) => RouteTarget[];
  /** Whether the request writes the upstream's prompt cache (its breakpoints' longest TTL): the hold prices the prompt at the write price. */
  cacheWrite?: CacheWrite;
}

export class Failover {
  constructor(
    private readonly breakers: CircuitBreakers,
    private readonly budget: BudgetGuard,
    private readonly config: BreakerConfig,
    private readonly random: () => number = Math.random,
  ) {}

  async run<T>(input: FailoverInput, call: (target: RouteTarget, maxTokens: number) => Promise<T>): Promise<Answered<T>> {
    const available = balance(input.targets.filter((target) => this.breakers.isAvailable(target.key)), this.random);
    let waitedForRetryAfter = false;
    for (let index = 0; index < available.length; index++) {
      const target = available[index]!;
      const maxTokens = input.noOutput ? 0 : effectiveMaxTokens(input.requestedMaxTokens, target.model);
      const reservation = await this.budget.reserve(input.organizationId, worstCaseCost(target, input.promptTokens, maxTokens, input.cacheWrite), input.holdOptions);
      input.log.attempts += 1;
      input.log.target = target;
      const startedAt = performance.now();
      const stopRenewal = this.budget.keepAlive(reservation);
      try {
        let value: T;
        try {
          value = await call(target, maxTokens);
        } finally {
          stopRenewal();
        }
        observeUpstreamCall(target.provider.id, startedAt);
        this.breakers.recordSuccess(target.key);
        return { target, value, reservation, maxTokens };
      } catch (error) {
        observeUpstreamCall(target.provider.id, startedAt, error);
        await this.budget.release(reservation);
        if (error instanceof UpstreamAborted) throw abortedError();
        if (!(error instanceof UpstreamFailure)) throw error;
        if (error.contextLengthExceeded && this.moveToBiggerModels(input, available, index, target)) continue;
        if (error.clientFault) throw requestRefused(error);
        if (!error.retryable) throw providerError(error);
        this.breakers.recordFailure(target.key, error.retryAfterMs);
        const isLast = index === available.length - 1;
        if (isLast && !waitedForRetryAfter && this.shortRetryAfter(error)) {
          waitedForRetryAfter = true;
          await sleep(error.retryAfterMs!, input.signal);
          index -= 1;
        }
      }
    }
    throw this.unavailable(input.targets);
  }

  /**
   * After a context-length error, the targets still to try become the model's fallbacks (bigger
   * context windows), each model tried once; false when it has none left.
   */
  private moveToBiggerModels(input: FailoverInput, available: RouteTarget[], index: number, failed: RouteTarget): boolean {
    const tried = new Set(available.slice(0, index + 1).map((target) => target.model.id));
    const next = (input.contextFallbacks?.(failed.model) ?? []).filter((target) => !tried.has(target.model.id) && this.breakers.isAvailable(target.key));
    if (next.length === 0) return false;
    available.splice(index + 1, available.length, ...next);
    return true;
  }

  private shortRetryAfter(error: UpstreamFailure): boolean {
    return error.retryAfterMs !== undefined && error.retryAfterMs <= this.config.maxRetryAfterWaitMs;
  }

  private unavailable(targets: RouteTarget[]): AppError {
    const waitMs = this.breakers.msUntilAvailable(targets.map((t) => t.key));
    const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
    return new AppError('provider_unavailable', 'All providers for the requested model are unavailable; retry later', {
      headers: { 'Retry-After': retryAfter },
    });
  }
}

/**
 * An upstream's 400, 413 or 422: the request's own fault, answered as the client's API would
 * (400 bad_request; the Messages route renders it as Anthropic's invalid_request_error), with the
 * upstream's message (bounded by the adapter) and the field it named.
 */
export function requestRefused(failure: UpstreamFailure): AppError {
  return new AppError('bad_request', failure.message, {
    param: failure.param ?? null,
    details: failure.status === undefined ? {} : { upstream_status: failure.status },
  });
}

export function providerError(failure: UpstreamFailure): AppError {
  return new AppError('provider_error', failure.message, {
    details: failure.status === undefined ? {} : { upstream_status: failure.status },
  });
}

/** The caller went away mid-request; nobody reads the answer, the audit records `aborted`. */
export class ClientAbortedError extends AppError {
  constructor() {
    super('bad_request', 'Request aborted by the client');
  }
}

export function abortedError(): AppError {
  return new ClientAbortedError();
}

function sleep(ms: number, signal: CallSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
