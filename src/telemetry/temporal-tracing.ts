// Temporal's OpenTelemetry interceptors (@temporalio/interceptors-opentelemetry, the SDK's
// version) for the client and the worker, loaded only when traces are on. The client puts the
// current span context into each workflow start's headers; the workflow interceptors (bundled,
// src/workflows/tracing-interceptors.ts) continue the trace inside the workflow and pass it on
// to each activity, whose interceptor opens the activity's span. Workflow spans leave the
// sandbox through the `exporter` sink; with traces off the sink is a no-op, so a traced
// workflow replayed on an untraced worker still finds it.
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { InjectedSinks, WorkerOptions } from '@temporalio/worker';
import { tracing } from './tracing.js';

export async function clientTracingInterceptors(): Promise<WorkflowClientInterceptor[]> {
  const traces = tracing();
  if (!traces) return [];
  const { OpenTelemetryWorkflowClientInterceptor } = await import('@temporalio/interceptors-opentelemetry/lib/client/index.js');
  return [new OpenTelemetryWorkflowClientInterceptor({ tracer: traces.tracer })];
}

export async function workerTracingOptions(): Promise<Pick<WorkerOptions, 'interceptors' | 'sinks'>> {
  const traces = tracing();
  const noExport: InjectedSinks<Record<string, Record<string, (...args: unknown[]) => void>>> = { exporter: { export: { fn: () => undefined } } };
  if (!traces) return { sinks: noExport };
  const worker = await import('@temporalio/interceptors-opentelemetry/lib/worker/index.js');
  return {
    interceptors: {
      activity: [
        (ctx) => ({
          inbound: new worker.OpenTelemetryActivityInboundInterceptor(ctx, { tracer: traces.tracer }),
          outbound: new worker.OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    sinks: { exporter: worker.makeWorkflowExporter(traces.spanProcessor, traces.resource) },
  };
}
