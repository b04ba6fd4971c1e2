// Operations on one run of an automation (beyond the spec, docs/design.md "Signals"): cancel a running
// run and retry a finished one. Cancel asks Temporal to cancel `run/<runId>`; the run workflow
// records itself as `failure` with `error: "cancelled"` (the same path as a cancel from the Web
// UI or `temporal workflow cancel`). Retry starts a new manual run that names the one it retries.
import { WorkflowNotFoundError } from '@temporalio/client';
import type { AppDeps } from '../runtime-deps.js';
import { AppError, notFound } from '../errors.js';
import type { Caller } from '../identity/caller.js';
import { automationIdSchema } from './automations.schemas.js';
import { findManageableAutomation, startAutomationRun } from './automations.service.js';
import { runView } from './automations.views.js';
import { AutomationRun } from './entities.js';

type Deps = Pick<AppDeps, 'config' | 'logger' | 'orm' | 'temporal' | 'clock' | 'secrets' | 'gateway'>;

/** The error a cancelled run records (the run workflow writes the same). */
export const CANCELLED_RUN_ERROR = 'cancelled';
/** How long the cancel request waits for the run to record its end before answering. */
const CANCEL_WAIT_MS = 10_000;

export async function cancelRun(deps: Deps, caller: Caller, automationId: string, runId: string) {
  const automation = await findManageableAutomation(deps, caller, automationId);
  const run = await findRun(deps, automation.id, runId);
  if (run.status !== 'running') throw new AppError('conflict', `The run already ended (${run.status})`, { param: 'runId' });
  let workflowClosed = async () => true;
  try {
    const handle = deps.temporal.client.workflow.getHandle(`run/${run.id}`);
    await handle.cancel();
    workflowClosed = async () => (await handle.describe()).status.name !== 'RUNNING';
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
    // No run workflow left to tell (it timed out or never started): record the end here.
    await recordCancelled(deps, run);
  }
  return runView(await waitUntilEnded(deps, run.id, workflowClosed));
}

export async function retryRun(deps: Deps, caller: Caller, automationId: string, runId: string) {
  const automation = await findManageableAutomation(deps, caller, automationId);
  const run = await findRun(deps, automation.id, runId);
  if (run.status === 'running') throw new AppError('conflict', 'The run is still running; cancel it or wait for it to end', { param: 'runId' });
  // The retry sees what the original saw: a webhook run's body is its context again.
  const started = await startAutomationRun(deps, {
    organizationId: caller.organizationId, automationId: automation.id, trigger: 'manual', context: run.context, retryOf: run.id,
  });
  return { ...started, retryOf: run.id };
}

async function findRun(deps: Deps, automationId: string, runId: string): Promise<AutomationRun> {
  const run = automationIdSchema.safeParse(runId).success
    ? await deps.orm.em.fork().findOne(AutomationRun, { id: runId, automationId })
    : null;
  if (!run) throw notFound('Run');
  return run;
}

async function recordCancelled(deps: Deps, run: AutomationRun): Promise<void> {
  const completedAt = deps.clock.now();
  await deps.orm.em.fork().nativeUpdate(AutomationRun, { id: run.id, status: 'running' }, {
    status: 'failure', error: CANCELLED_RUN_ERROR, completedAt, durationMs: Math.max(0, completedAt.getTime() - run.startedAt.getTime()),
  });
}

/**
 * The run once it recorded its end and its workflow closed (the workflow records the end, then
 * closes as cancelled), or as it is when that takes longer than CANCEL_WAIT_MS.
 */
async function waitUntilEnded(deps: Deps, runId: string, workflowClosed: () => Promise<boolean>): Promise<AutomationRun> {
  const deadline = Date.now() + CANCEL_WAIT_MS;
  for (;;) {
    const run = await deps.orm.em.fork().findOneOrFail(AutomationRun, { id: runId });
    if (Date.now() >= deadline || (run.status !== 'running' && await workflowClosed())) return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
