// The execution record's activities of the webhook execution workflow. What an execution runs
// comes from its target's feature: an assistant's steps from src/assistants/run-activities.ts,
// an automation's run from src/automations/webhook-runs.ts.
import type { AppDeps } from '../runtime-deps.js';
import type { WebhookExecutionInput } from '../workflows/webhook-execution.contract.js';
import { finishExecution, markExecutionRunning, type FinishExecution } from './executions.service.js';

export function createWebhookActivities(deps: Pick<AppDeps, 'orm' | 'clock'>) {
  return {
    async markWebhookExecutionRunning(input: WebhookExecutionInput): Promise<void> {
      await markExecutionRunning(deps.orm.em.fork(), input, deps.clock.now());
    },

    async finishWebhookExecution(finish: FinishExecution): Promise<void> {
      await finishExecution(deps.orm.em.fork(), finish, deps.clock.now());
    },
  };
}
