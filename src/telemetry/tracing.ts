// Traces: OpenTelemetry, on only when OTEL_EXPORTER_OTLP_ENDPOINT (or the traces-only
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set; spans go out as OTLP over HTTP (JSON) in batches.
// The other standard OTEL_* variables (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
// OTEL_TRACES_SAMPLER, OTEL_EXPORTER_OTLP_HEADERS, ...) are read by the SDK itself. When off,
// nothing is imported (the SDK loads by dynamic import) and `tracing()` is undefined, so the
// request path pays one comparison. One provider per process: the API, the worker and the dev
// runner each start it once; later calls share it.
import type * as OtelApi from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface Tracing {
  api: typeof OtelApi;
  tracer: OtelApi.Tracer;
  resource: Resource;
  spanProcessor: SpanProcessor;
  /** Sends every ended span now (tests, shutdown). */
  forceFlush(): Promise<void>;
}

export interface TracingOptions {
  endpoint?: string | undefined;
  tracesEndpoint?: string | undefined;
  /** Default service.name; OTEL_SERVICE_NAME overrides it. */
  serviceName: string;
  /** OTEL_SDK_DISABLED=true: off whatever the endpoint. */
  sdkDisabled?: boolean | undefined;
}

let starting: Promise<Tracing | undefined> | undefined;
let current: Tracing | undefined;

/** The process's tracing, or undefined when traces are off. */
export function tracing(): Tracing | undefined {
  return current;
}

export function tracingEnabled(options: Pick<TracingOptions, 'endpoint' | 'tracesEndpoint' | 'sdkDisabled'>): boolean {
  return Boolean(options.endpoint || options.tracesEndpoint) && !options.sdkDisabled;
}

export function startTracing(options: TracingOptions): Promise<Tracing | undefined> {
  if (!tracingEnabled(options)) return Promise.resolve(current);
  starting ??= load(options).then((loaded) => (current = loaded));
  return starting;
}

async function load(options: TracingOptions): Promise<Tracing> {
  const [api, { NodeTracerProvider }, { BatchSpanProcessor }, { OTLPTraceExporter }, resources] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const url = options.tracesEndpoint ?? `${options.endpoint!.replace(/\/+$/, '')}/v1/traces`;
  const exporter = new OTLPTraceExporter({ url });
  const spanProcessor = new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 });
  const resource = new resources.Resource({ 'service.name': options.serviceName }).merge(resources.envDetectorSync.detect());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // Sets the global provider, the AsyncLocalStorage context manager and the W3C propagator.
  provider.register();
  return {
    api,
    tracer: api.trace.getTracer('ai-workspace'),
    resource,
    spanProcessor,
    forceFlush: () => provider.forceFlush(),
  };
}

/**
 * Runs `fn` inside a server span for one HTTP request, under the caller's trace when the request
 * carries W3C `traceparent`; the span is named by method and route pattern (never the path
 * itself: webhook paths are credentials). Without traces, just `fn`.
 */
export function withRequestSpan<T>(
  request: { method: string; headers: Record<string, string | string[] | undefined> },
  fn: (finish: (status: number, route: string | undefined) => void) => T,
): T {
  const traces = current;
  if (!traces) return fn(() => undefined);
  const { api } = traces;
  const parent = api.propagation.extract(api.context.active(), request.headers);
  const span = traces.tracer.startSpan(`HTTP ${request.method}`, { kind: api.SpanKind.SERVER, attributes: { 'http.request.method': request.method } }, parent);
  const finish = (status: number, route: string | undefined) => {
    span.setAttribute('http.response.status_code', status);
    if (route) {
      span.setAttribute('http.route', route);
      span.updateName(`${request.method} ${route}`);
    }
    if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
    span.end();
  };
  return api.context.with(api.trace.setSpan(parent, span), () => fn(finish));
}
