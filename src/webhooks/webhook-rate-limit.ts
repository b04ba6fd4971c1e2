// Rate limits of the unauthenticated webhook endpoint, on the shared limiter factory: per client
// IP (checked before the lookup, so guessing ids is bounded too) and per webhook. Counter keys
// carry the webhook record id, never the URL id.
import { createRateLimiter, rateLimitedError, type RateLimitDecision } from '../api/middleware/rate-limit.js';
import type { AppDeps } from '../api/deps.js';
import { metrics } from '../metrics.js';

const WINDOW_SECONDS = 60;

export interface WebhookRateLimiter {
  /** Throws 429 rate_limited when the client IP is over its limit. */
  consumeClient(ip: string): Promise<RateLimitDecision>;
  /** Throws 429 rate_limited when the webhook is over its limit. */
  consumeWebhook(webhookRecordId: string): Promise<RateLimitDecision>;
}

export function createWebhookRateLimiter(deps: Pick<AppDeps, 'shared' | 'logger' | 'config'>): WebhookRateLimiter {
  const perClient = createRateLimiter(deps, { name: 'webhook-ip', points: deps.config.WEBHOOK_RATE_LIMIT_PER_IP, durationSeconds: WINDOW_SECONDS });
  const perWebhook = createRateLimiter(deps, { name: 'webhook-id', points: deps.config.WEBHOOK_RATE_LIMIT_PER_WEBHOOK, durationSeconds: WINDOW_SECONDS });
  const enforce = async (decision: Promise<RateLimitDecision>, scope: string) => {
    const settled = await decision;
    if (!settled.allowed) {
      metrics.rateLimitRejections.inc({ scope });
      throw rateLimitedError(settled);
    }
    return settled;
  };
  return {
    consumeClient: (ip) => enforce(perClient.consume(ip), 'webhook_ip'),
    consumeWebhook: (id) => enforce(perWebhook.consume(id), 'webhook'),
  };
}

/** The decision the X-RateLimit-* headers report: the one with fewer requests left. */
export function tighterLimit(a: RateLimitDecision, b: RateLimitDecision): RateLimitDecision {
  return a.remaining <= b.remaining ? a : b;
}
