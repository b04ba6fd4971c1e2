// The rate-limit middleware: per API key (or session user) and per organization, one-minute
// windows counted by the shared limiters (src/rate-limit/limiter.ts). Every authenticated response
// carries X-RateLimit-Limit / -Remaining / -Reset (seconds until the window resets) for the
// tighter of the two; a rejected request is 429 rate_limited with Retry-After. A key may carry its
// own per-minute limit (set at creation) instead of the default. Gateway calls count the same
// counters before any work on their bodies (gateway-call.ts), from the budget ledger's local rate
// blocks where it leases them, so the hot path adds no round trip.
import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { PendingAdmission } from '../../billing/budget.js';
import { metrics } from '../../metrics.js';
import type { CounterHit, HitResult } from '../../rate-limit/counters.js';
import { counterStoreFor, decision, rateLimitedError, type RateLimitDecision } from '../../rate-limit/limiter.js';
import type { Caller } from '../../identity/caller.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf } from './auth.js';

export function setRateLimitHeaders(res: ServerResponse, decision: RateLimitDecision): void {
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
}

/** The tighter of two decisions: the rejected one, else the one with fewer requests left. */
function tighter(a: RateLimitDecision, b: RateLimitDecision): RateLimitDecision {
  if (a.allowed !== b.allowed) return a.allowed ? b : a;
  return a.remaining <= b.remaining ? a : b;
}

/** Routes whose requests count their rate limits in the budget hold's script (one Redis round trip). */
const GATEWAY_PATHS = new Set(['/v1/chat/completions', '/v1/embeddings', '/v1/responses', '/v1/messages', '/v1/messages/count_tokens']);
const MINUTE_MS = 60_000;

/**
 * Per credential and per organization limits for authenticated routes (mount after
 * `authenticate`). A key's own `rateLimitPerMinute` replaces the per-key default. Gateway calls
 * (POST /v1/chat/completions, /v1/embeddings, /v1/responses, /v1/messages) are not counted here: they carry a
 * PendingAdmission that the gateway route counts before its handler runs (runGatewayHandler).
 */
export function rateLimit(deps: Pick<AppDeps, 'shared' | 'logger' | 'config' | 'budget'>): RequestHandler {
  const admissionOf = admissions(deps);
  return async (req, res, next) => {
    const admission = admissionOf(callerOf(req), res);
    // Full path: the gateway's routes are mounted at the root (gatewayRoutes), the others under /v1.
    if (req.method === 'POST' && GATEWAY_PATHS.has(req.baseUrl + req.path)) {
      req.admission = admission;
    } else {
      await admission.countAlone();
    }
    next();
  };
}

/**
 * A caller's rate-limit counters for one request, not yet counted: per credential (a key's own
 * `rateLimitPerMinute`, else the per-key default) and per organization.
 */
export function admissions(deps: Pick<AppDeps, 'shared' | 'logger' | 'config' | 'budget'>): (caller: Caller, res: ServerResponse) => PendingAdmission {
  const shared = counterStoreFor(deps);
  // Where the budget ledger holds rate blocks (leases), a count alone usually needs no round trip.
  const { budget } = deps;
  const store: AdmissionCounter = {
    local: (counters) => budget.countRateLocally?.(counters),
    async hit(organizationId, counters) {
      return (await budget.countRate?.(organizationId, counters)) ?? shared.hit(counters);
    },
  };
  // A cached API key's caller is the same object on every request: its counters are built once.
  const countersByCaller = new WeakMap<Caller, CounterHit[]>();
  const countersOf = (caller: Caller): CounterHit[] => {
    let hits = countersByCaller.get(caller);
    if (!hits) {
      const credential = caller.apiKeyId ? `key:${caller.apiKeyId}` : `user:${caller.userId}`;
      // The organization in a hash tag: the counters share a cluster slot with its budget keys.
      hits = [
        { key: `rl:credential:{${caller.organizationId}}:${credential}`, windowMs: MINUTE_MS, limit: caller.keyLimits?.rateLimitPerMinute ?? deps.config.RATE_LIMIT_PER_KEY_PER_MINUTE },
        { key: `rl:organization:{${caller.organizationId}}`, windowMs: MINUTE_MS, limit: deps.config.RATE_LIMIT_PER_ORG_PER_MINUTE },
        // A key created with a key counts in the rate of each key above it that has one.
        ...(caller.keyLimits?.above ?? []).flatMap((above) => (above.rateLimitPerMinute === null ? [] : [
          { key: `rl:credential:{${caller.organizationId}}:key:${above.id}`, windowMs: MINUTE_MS, limit: above.rateLimitPerMinute },
        ])),
      ];
      countersByCaller.set(caller, hits);
    }
    return hits;
  };
  return (caller, res) => new Admission(caller.organizationId, countersOf(caller), res, store);
}

interface AdmissionCounter {
  /** From local rate blocks, without waiting; undefined when they cannot count them all. */
  local(counters: CounterHit[]): HitResult | undefined;
  hit(organizationId: string, counters: CounterHit[]): Promise<HitResult>;
}

/** A request's rate-limit counters, counted once: by its first budget hold, or alone. */
class Admission implements PendingAdmission {
  counted = false;

  constructor(
    private readonly organizationId: string,
    readonly counters: CounterHit[],
    private readonly res: ServerResponse,
    private readonly store: AdmissionCounter,
  ) {}

  apply(result: HitResult): void {
    this.counted = true;
    // Counters: the credential's, the organization's, then those of the keys above the credential.
    const decisions = result.windows.map((counted, i) => decision(this.counters[i]!.limit, counted, result.admitted));
    const binding = decisions.reduce(tighter);
    if (!binding.allowed) {
      metrics.rateLimitRejections.inc({ scope: decisions[1]!.allowed ? 'credential' : 'organization' });
      throw rateLimitedError(binding);
    }
    if (!this.res.headersSent) setRateLimitHeaders(this.res, binding);
  }

  countLocally(): boolean {
    if (this.counted) return true;
    const result = this.store.local(this.counters);
    if (result) this.apply(result);
    return result !== undefined;
  }

  async countAlone(): Promise<void> {
    if (this.counted) return;
    this.apply(await this.store.hit(this.organizationId, this.counters));
  }
}
