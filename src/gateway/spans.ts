// Trace spans of gateway requests, following OpenTelemetry's GenAI semantic conventions: one
// span per request (`chat <model>`, under the caller's trace when one is active) and one child
// per upstream call (`chat <upstream model>`, kind client). Attributes name models, providers,
// token counts and the outcome, never prompt or answer text. Everything here is skipped when
// traces are off (`tracing()` undefined).
import type { Span } from '@opentelemetry/api';
import { tracing } from '../telemetry/tracing.js';
import type { RouteTarget } from './router.js';
import type { ChatCompletionRequest } from './types.js';

export type { Span } from '@opentelemetry/api';

/** OpenTelemetry's SpanKind and SpanStatusCode values (numbers, so the API need not be loaded). */
const KIND_SERVER = 1;
const KIND_CLIENT = 2;
const STATUS_ERROR = 2;

export function startRequestSpan(request: ChatCompletionRequest, operation: 'chat' | 'embeddings' = 'chat'): Span | undefined {
  const traces = tracing();
  if (!traces) return undefined;
  return traces.tracer.startSpan(`${operation} ${request.model}`, {
    kind: KIND_SERVER,
    attributes: {
      'gen_ai.operation.name': operation,
      'gen_ai.request.model': request.model,
      ...(request.max_tokens !== undefined ? { 'gen_ai.request.max_tokens': request.max_tokens } : {}),
      ...(request.temperature !== undefined ? { 'gen_ai.request.temperature': request.temperature } : {}),
      ...(request.top_p !== undefined ? { 'gen_ai.request.top_p': request.top_p } : {}),
      'gen_ai.request.stream': request.stream === true,
    },
  });
}

/** A child of the request span for one upstream call. */
export function startUpstreamSpan(parent: Span | undefined, target: RouteTarget, operation: 'chat' | 'embeddings' = 'chat'): Span | undefined {
  const traces = tracing();
  if (!traces || !parent) return undefined;
  const { api } = traces;
  const url = target.provider.baseUrl ? new URL(target.provider.baseUrl) : undefined;
  return traces.tracer.startSpan(
    `${operation} ${target.upstreamModel}`,
    {
      kind: KIND_CLIENT,
      attributes: {
        'gen_ai.operation.name': operation,
        'gen_ai.system': target.provider.type,
        'gen_ai.provider.name': target.provider.type,
        'gen_ai.request.model': target.upstreamModel,
        'gateway.provider': target.provider.id,
        ...(url ? { 'server.address': url.hostname, 'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)) } : {}),
      },
    },
    api.trace.setSpan(api.context.active(), parent),
  );
}

export function endUpstreamSpan(span: Span | undefined, error?: unknown): void {
  if (!span) return;
  if (error !== undefined) {
    span.setStatus({ code: STATUS_ERROR, message: error instanceof Error ? error.name : 'error' });
    span.setAttribute('error.type', error instanceof Error ? error.constructor.name : 'error');
  }
  span.end();
}

export interface RequestSpanEnd {
  outcome: string;
  status: number;
  errorCode: string | null;
  model: string | null;
  provider: string | null;
  upstreamModel: string | null;
  providerType: string | null;
  inputTokens: number;
  outputTokens: number;
  attempts: number;
  cached: boolean;
  organizationId: string;
}

export function endRequestSpan(span: Span | undefined, end: RequestSpanEnd): void {
  if (!span) return;
  span.setAttributes({
    'gateway.outcome': end.outcome,
    'gateway.attempts': end.attempts,
    'gateway.cached': end.cached,
    'gateway.organization_id': end.organizationId,
    'http.response.status_code': end.status,
    'gen_ai.usage.input_tokens': end.inputTokens,
    'gen_ai.usage.output_tokens': end.outputTokens,
    ...(end.model ? { 'gateway.model': end.model } : {}),
    ...(end.upstreamModel ? { 'gen_ai.response.model': end.upstreamModel } : {}),
    ...(end.providerType ? { 'gen_ai.system': end.providerType, 'gen_ai.provider.name': end.providerType } : {}),
    ...(end.provider ? { 'gateway.provider': end.provider } : {}),
  });
  if (end.errorCode) {
    span.setAttribute('error.type', end.errorCode);
    span.setStatus({ code: STATUS_ERROR, message: end.errorCode });
  }
  span.end();
}
