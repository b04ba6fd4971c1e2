// The automation step of a webhook execution: a run of the automation with trigger `webhook`
// and the body as its context, through the automations feature. The run signals the execution
// when it ends (`notify`); its row is read back only by executions from before that signal, and
// as a safety net for a run that ended without sending it (terminated by an operator).
import { ApplicationFailure } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { AppDeps } from '../runtime-deps.js';
import { toActivityFailure } from '../agent-run/retry.js';
import { executionWorkflowId, webhookRunId } from '../webhooks/webhook-ids.js';
import type { WebhookExecutionInput } from '../workflows/webhook-execution.contract.js';
import { startAutomationRun } from './automations.service.js';
import { AutomationRun } from './entities.js';

export interface AutomationRunProgress {
  runId: string;
  status: 'running' | 'success' | 'failure';
  output: string | null;
  error: string | null;
  usage: { inputTokens: number; outputTokens: number; cost: number } | null;
}

export async function startRunForWebhook(deps: AppDeps, input: WebhookExecutionInput): Promise<{ runId: string }> {
  if (input.target.kind !== 'automation') throw ApplicationFailure.nonRetryable('Not an automation webhook', 'bad_request');
  try {
    const run = await startAutomationRun(deps, {
      organizationId: input.organizationId,
      automationId: input.target.automationId,
      trigger: 'webhook',
      context: input.body,
      // A retried activity (or a replayed execution) asks for the same run: one run per execution.
      runId: webhookRunId(input.executionId),
      notify: executionWorkflowId(input.executionId),
    });
    return { runId: run.runId };
  } catch (error) {
    throw toActivityFailure(error);
  }
}

/**
 * The run's row; a row still `running` whose workflow has closed without recording its end (it
 * timed out, or an operator terminated it) reads as a failure, so a waiting execution ends too.
 */
export async function readRunProgress(deps: Pick<AppDeps, 'orm' | 'temporal'>, organizationId: string, runId: string): Promise<AutomationRunProgress> {
  const read = () => deps.orm.em.fork().findOne(AutomationRun, { id: runId, organizationId });
  let run = await read();
  if (!run) throw ApplicationFailure.nonRetryable('The automation run no longer exists', 'not_found');
  if (run.status === 'running') {
    const closed = await closedWithoutResult(deps, runId);
    // A run records its end before its workflow closes: read again, the row may have moved meanwhile.
    if (closed) run = (await read()) ?? run;
    if (closed && run.status === 'running') {
      return { runId: run.id, status: 'failure', output: null, error: `The run's workflow ended without a result (${closed})`, usage: null };
    }
  }
  return {
    runId: run.id,
    status: run.status,
    output: run.output,
    error: run.error,
    usage: run.status === 'running' ? null : { inputTokens: run.tokensInput, outputTokens: run.tokensOutput, cost: run.estimatedCost },
  };
}

/** The close status of `run/<runId>` when it is no longer running (null while it runs or when Temporal does not know it). */
async function closedWithoutResult(deps: Pick<AppDeps, 'temporal'>, runId: string): Promise<string | null> {
  try {
    const { status } = await deps.temporal.client.workflow.getHandle(`run/${runId}`).describe();
    return status.name === 'RUNNING' ? null : status.name;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  }
}

/** The activities of an automation webhook's execution: start the run, read its progress. */
export function createWebhookRunActivities(deps: AppDeps) {
  return {
    async startAutomationRunForWebhook(input: WebhookExecutionInput): Promise<{ runId: string }> {
      return startRunForWebhook(deps, input);
    },

    async readAutomationRunProgress(request: { organizationId: string; runId: string }): Promise<AutomationRunProgress> {
      return readRunProgress(deps, request.organizationId, request.runId);
    },
  };
}
