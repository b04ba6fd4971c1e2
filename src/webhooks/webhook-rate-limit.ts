// Rate limits of the unauthenticated webhook endpoint, on the shared limiter factory: per client
// IP (counted for every request, unknown ids too, so guessing ids is bounded) and per webhook.
// Per-webhook counter keys carry the SHA-256 digest of the URL id (the lookup key), never the id.
import { createRateLimiter, rateLimitedError, type RateLimitDecision } from '../rate-limit/limiter.js';
import type { AppDeps } from '../runtime-deps.js';
import { metrics } from '../metrics.js';

const WINDOW_SECONDS = 60;

export interface WebhookRateLimiter {
  /** Throws 429 rate_limited when the client IP is over its limit. */
  consumeClient(ip: string): Promise<RateLimitDecision>;
  /** Throws 429 rate_limited when the webhook is over its limit; `webhookKey` is the digest of its URL id. */
  consumeWebhook(webhookKey: string): Promise<RateLimitDecision>;
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
