// The contract of the diagnostics workflow (./diagnostics.ts): its input and result, imported by
// the diagnostics service that starts it. Types only.

export interface DiagnosticsInput {
  organizationId: string;
  requestedBy: string;
}

export interface DiagnosticsResult {
  workflowId: string;
  databaseTime: string;
  workerTaskQueue: string;
}
