// Runs the diagnostics workflow and waits for it: proof that API, Temporal, worker and database
// are wired together. The workflow stays in history for operators to inspect in the Web UI.
import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { AppError } from '../errors.js';
import type { Caller } from '../identity/caller.js';
import { plaintextSummary } from '../payloads/plaintext-summaries.js';
import { SEARCH_ATTRIBUTES, type TemporalHandle } from '../temporal.js';
import type { DiagnosticsResult } from '../workflows/diagnostics.contract.js';

const DIAGNOSTICS_TIMEOUT_MS = 15_000;

export async function runWorkflowDiagnostics(temporal: TemporalHandle, caller: Caller): Promise<DiagnosticsResult & { runId: string }> {
  const handle = await temporal.clientFor(caller.organizationId).workflow.start('diagnosticsWorkflow', {
    workflowId: `diagnostics/${randomUUID()}`,
    taskQueue: temporal.taskQueue,
    args: [{ organizationId: caller.organizationId, requestedBy: caller.userId }],
    workflowExecutionTimeout: '1 minute',
    typedSearchAttributes: [{ key: SEARCH_ATTRIBUTES.OrganizationId, value: caller.organizationId }],
    staticSummary: plaintextSummary('Diagnostics: API -> Temporal -> worker -> database round trip'),
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      handle.result() as Promise<DiagnosticsResult>,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new AppError('service_unavailable', 'No worker completed the diagnostics workflow in time')),
          DIAGNOSTICS_TIMEOUT_MS,
        );
      }),
    ]);
    return { ...result, runId: handle.firstExecutionRunId };
  } catch (error) {
    if (error instanceof WorkflowFailedError) {
      throw new AppError('service_unavailable', 'The diagnostics workflow failed', { cause: error });
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
