// The diagnostics workflow: the smallest real path through Temporal (API -> server -> worker ->
// activity -> database and back). Operators run it to prove a deployment is wired end to end.
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { DiagnosticsInput, DiagnosticsResult } from './diagnostics.contract.js';

const { checkDatabase } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3, initialInterval: '200 milliseconds' },
  summary: 'Round trip to the database from the worker',
});

export async function diagnosticsWorkflow(_input: DiagnosticsInput): Promise<DiagnosticsResult> {
  const { databaseTime } = await checkDatabase();
  const info = workflowInfo();
  return { workflowId: info.workflowId, databaseTime, workerTaskQueue: info.taskQueue };
}
