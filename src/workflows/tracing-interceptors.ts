// Workflow side of traces: Temporal's OpenTelemetry workflow interceptors, engaged only for a
// workflow whose start carried a trace context (the API's Temporal client adds it when traces
// are on). Every other workflow, and every history recorded before this module existed, runs
// exactly as without it: no spans, no extra yields, no added headers, so replay is unchanged.
// Bundled through `workflowInterceptorModules` (src/worker/bundle.ts); the spans leave the
// sandbox through the worker's `exporter` sink.
import type * as OpenTelemetryWorkflow from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';
import type { OpenTelemetryInboundInterceptor, OpenTelemetryOutboundInterceptor } from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';
import type { WorkflowInterceptors } from '@temporalio/workflow';

/** The header Temporal's OpenTelemetry interceptors carry the span context in. */
const TRACE_HEADER = '_tracer-data';

/**
 * Temporal's OpenTelemetry workflow module, loaded in a workflow only once its start turned out
 * to carry a trace. In the worker's reusable V8 context every module a workflow loads is
 * evaluated again for each workflow (module state is per workflow), and this one brings
 * @opentelemetry/api, core and sdk-trace-base: ~115 modules, ~250 KB of heap for every cached
 * workflow when it was imported at the top, traced or not. The require is webpack's, synchronous:
 * no extra yield, so the commands (and replay) are the same as with the static import.
 */
function openTelemetryWorkflow(): typeof OpenTelemetryWorkflow {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, lazy load inside the workflow bundle
  return require('@temporalio/interceptors-opentelemetry/lib/workflow/index.js') as typeof OpenTelemetryWorkflow;
}

export const interceptors = (): WorkflowInterceptors => {
  // Per workflow run: set once its start turned out to carry a trace.
  let inbound: OpenTelemetryInboundInterceptor | undefined;
  let outbound: OpenTelemetryOutboundInterceptor | undefined;
  let internals: typeof OpenTelemetryWorkflow.OpenTelemetryInternalsInterceptor | undefined;
  return {
    inbound: [
      {
        execute(input, next) {
          if (!input.headers[TRACE_HEADER]) return next(input);
          const otel = openTelemetryWorkflow();
          inbound = new otel.OpenTelemetryInboundInterceptor();
          outbound = new otel.OpenTelemetryOutboundInterceptor();
          internals = otel.OpenTelemetryInternalsInterceptor;
          return inbound.execute(input, next);
        },
      },
    ],
    outbound: [
      {
        scheduleActivity: (input, next) => (outbound ? outbound.scheduleActivity(input, next) : next(input)),
        scheduleLocalActivity: (input, next) => (outbound ? outbound.scheduleLocalActivity(input, next) : next(input)),
        startChildWorkflowExecution: (input, next) => (outbound ? outbound.startChildWorkflowExecution(input, next) : next(input)),
      },
    ],
    internals: [
      {
        dispose: (input, next) => (internals ? new internals().dispose(input, next) : next(input)),
      },
    ],
  };
};
