// Workflow side of traces: Temporal's OpenTelemetry workflow interceptors, engaged only for a
// workflow whose start carried a trace context (the API's Temporal client adds it when traces
// are on). Every other workflow, and every history recorded before this module existed, runs
// exactly as without it: no spans, no extra yields, no added headers, so replay is unchanged.
// Bundled through `workflowInterceptorModules` (src/worker/bundle.ts); the spans leave the
// sandbox through the worker's `exporter` sink.
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';
import type { WorkflowInterceptors } from '@temporalio/workflow';

/** The header Temporal's OpenTelemetry interceptors carry the span context in. */
const TRACE_HEADER = '_tracer-data';

export const interceptors = (): WorkflowInterceptors => {
  // Per workflow run: set once its start turned out to carry a trace.
  let inbound: OpenTelemetryInboundInterceptor | undefined;
  let outbound: OpenTelemetryOutboundInterceptor | undefined;
  return {
    inbound: [
      {
        execute(input, next) {
          if (!input.headers[TRACE_HEADER]) return next(input);
          inbound = new OpenTelemetryInboundInterceptor();
          outbound = new OpenTelemetryOutboundInterceptor();
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
        dispose: (input, next) => (outbound ? new OpenTelemetryInternalsInterceptor().dispose(input, next) : next(input)),
      },
    ],
  };
};
