// Prometheus metrics (prom-client), one registry per process, served at GET /metrics.
// Labels are bounded sets (route patterns, providers, models, detectors), never ids or text.
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const metrics = {
  httpRequestDuration: new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  }),
  upstreamDuration: new Histogram({
    name: 'gateway_upstream_duration_seconds',
    help: 'Upstream provider call latency by provider and outcome',
    labelNames: ['provider', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  }),
  upstreamErrors: new Counter({
    name: 'gateway_upstream_errors_total',
    help: 'Upstream provider errors by provider and kind',
    labelNames: ['provider', 'kind'] as const,
    registers: [registry],
  }),
  tokens: new Counter({
    name: 'gateway_tokens_total',
    help: 'Tokens by model and direction (input, output)',
    labelNames: ['model', 'direction'] as const,
    registers: [registry],
  }),
  cost: new Counter({
    name: 'gateway_cost_usd_total',
    help: 'Estimated cost in USD by model',
    labelNames: ['model'] as const,
    registers: [registry],
  }),
  dlpBlocks: new Counter({
    name: 'dlp_blocks_total',
    help: 'Requests blocked by DLP, by detector',
    labelNames: ['detector'] as const,
    registers: [registry],
  }),
  rateLimitRejections: new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests rejected with 429, by limiter scope',
    labelNames: ['scope'] as const,
    registers: [registry],
  }),
  webhookAcks: new Counter({
    name: 'webhook_acknowledgments_total',
    help: 'Webhook requests acknowledged with 202',
    registers: [registry],
  }),
  budgetOverruns: new Counter({
    name: 'budget_settlements_over_reservation_total',
    help: 'Settlements whose real cost passed the reserved worst case (the provider billed more than max_tokens and the prompt bound allow)',
    registers: [registry],
  }),
  toolCalls: new Counter({
    name: 'tool_calls_total',
    help: 'Tool calls by caller (run: automations and assistants; mcp: /v1/mcp) and outcome',
    labelNames: ['via', 'outcome'] as const,
    registers: [registry],
  }),
  toolCallDuration: new Histogram({
    name: 'tool_call_duration_seconds',
    help: 'Tool call latency by caller and outcome (approval waits included)',
    labelNames: ['via', 'outcome'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  }),
  runOutcomes: new Counter({
    name: 'automation_run_outcomes_total',
    help: 'Finished runs by status (success, failure) and trigger',
    labelNames: ['status', 'trigger'] as const,
    registers: [registry],
  }),
};

/** One upstream call's latency, and its error by kind when it failed (`startedAt` from performance.now()). */
export function observeUpstreamCall(provider: string, startedAt: number, error?: unknown): void {
  const seconds = (performance.now() - startedAt) / 1000;
  if (error === undefined) {
    metrics.upstreamDuration.observe({ provider, outcome: 'success' }, seconds);
    return;
  }
  const kind = upstreamErrorKind(error);
  metrics.upstreamDuration.observe({ provider, outcome: kind === 'aborted' ? 'aborted' : 'failure' }, seconds);
  if (kind !== 'aborted') metrics.upstreamErrors.inc({ provider, kind });
}

/** A bounded label for an upstream failure: rate_limited, server_error, client_error, timeout, malformed, connection, aborted. */
export function upstreamErrorKind(error: unknown): string {
  const { name, status, message } = error as { name?: string; status?: number; message?: string };
  if (name === 'UpstreamAborted') return 'aborted';
  if (status === 429) return 'rate_limited';
  if (status !== undefined && status >= 500) return 'server_error';
  if (status !== undefined) return 'client_error';
  if (message?.includes('timed out')) return 'timeout';
  if (message?.includes('connection failed')) return 'connection';
  return 'malformed';
}

/** Tokens and cost of one answered call, by the model id clients asked for. */
export function countUsage(model: string, usage: { inputTokens: number; outputTokens: number; cost: number }): void {
  metrics.tokens.inc({ model, direction: 'input' }, usage.inputTokens);
  metrics.tokens.inc({ model, direction: 'output' }, usage.outputTokens);
  metrics.cost.inc({ model }, usage.cost);
}
