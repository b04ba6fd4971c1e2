// How the automation entity workflow (./automation.ts) starts runs: each run a child workflow
// `run/<runId>` (abandoned on close: runs outlive a continue-as-new), recorded first by an
// activity for a manual or webhook run, by itself for a scheduled one. Deterministic.
import { ChildWorkflowFailure, ParentClosePolicy, patched, proxyActivities, startChild, TerminatedFailure, TimeoutFailure, uuid4, workflowInfo } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities/index.js';
import { SEARCH_ATTRIBUTES } from '../search-attributes.js';
import { plaintextSummary } from '../payloads/plaintext-summaries.js';
import { RUN_PRIORITY, type StartedRun } from './automation.contract.js';
import { forgetRun, nextSnapshot, type Entity } from './automation-state.js';
import type { RunTrigger } from './run.contract.js';
import { RUN_CODE, runExecutionTimeoutMs, runWorkflow, type RunBegin, type RunWorkflowResult } from './run.js';

const { recordRunStarted } = proxyActivities<Activities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 20 },
  summary: 'Record the run as running',
});

const { completeRun } = proxyActivities<Activities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 20 },
  summary: 'Record the end of a run whose workflow ended without recording it',
});

/**
 * Marks histories where a run whose workflow was terminated (Web UI, `temporal workflow
 * terminate`) or timed out gets its row ended here, as `failure`: the run had no chance to record
 * its end, and a row left `running` would show it running forever and hold its automation's
 * scheduled fires as overlapping for an hour.
 */
export const SETTLES_ENDED_RUNS_PATCH = 'settles-ended-runs';

export async function startRun(entity: Entity, trigger: RunTrigger, context: unknown, retryOf?: string): Promise<StartedRun | null> {
  const runId = uuid4();
  const started = await recordRun(entity, runId, trigger, context, retryOf);
  if (!started) return null;
  entity.state.running.push({ runId, startedAt: Date.parse(started.startedAt) });
  await startRunWorkflow(entity, runId, trigger, 'ALLOW_DUPLICATE');
  return { runId, startedAt: started.startedAt };
}

/**
 * A run with the id the caller chose: started once however often (or concurrently) the same
 * id is requested. A run recorded by an earlier request is not started again; its workflow is
 * started only if it never was (REJECT_DUPLICATE: a finished run/<id> is never repeated).
 */
export function startRequestedRun(entity: Entity, runId: string, trigger: RunTrigger, context: unknown, notify?: string): Promise<StartedRun | null> {
  const pending = entity.requestedRuns.get(runId);
  if (pending) return pending;
  const starting = (async (): Promise<StartedRun | null> => {
    const started = await recordRun(entity, runId, trigger, context);
    if (!started) return null;
    try {
      await startRunWorkflow(entity, runId, trigger, 'REJECT_DUPLICATE', undefined, notify);
      if (!entity.state.running.some((run) => run.runId === runId)) entity.state.running.push({ runId, startedAt: Date.parse(started.startedAt) });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
    return { runId, startedAt: started.startedAt };
  })();
  entity.requestedRuns.set(runId, starting);
  return starting;
}

/** Inserts the run row (once per id) and moves lastRunAt; null when the automation is gone. */
async function recordRun(entity: Entity, runId: string, trigger: RunTrigger, context: unknown, retryOf?: string): Promise<{ startedAt: string } | null> {
  const started = await recordRunStarted({
    runId,
    automationId: entity.state.automationId,
    organizationId: entity.state.organizationId,
    trigger,
    context: context ?? null,
    schedule: nextSnapshot(entity),
    ...(retryOf ? { retryOf } : {}),
  });
  if (!started) entity.deleted = true;
  return started;
}

/**
 * A scheduled run (or the catch-up run of missed fires), started at once: the run workflow writes
 * its own row (with the schedule as of this fire, and the time the fire was due), so the fire
 * costs one workflow task instead of an activity and two tasks.
 */
export async function startScheduledRun(entity: Entity, now: number, fire: { trigger: 'schedule' | 'catch-up'; scheduledFor: number }): Promise<void> {
  const runId = uuid4();
  // The run's input, not a command's: older histories replay the same without it.
  const begin = { context: null, schedule: nextSnapshot(entity), scheduledFor: new Date(fire.scheduledFor).toISOString() };
  entity.state.running.push({ runId, startedAt: now });
  await startRunWorkflow(entity, runId, fire.trigger, 'ALLOW_DUPLICATE', begin);
}

export async function startRunWorkflow(
  entity: Entity, runId: string, trigger: RunTrigger, workflowIdReusePolicy: 'ALLOW_DUPLICATE' | 'REJECT_DUPLICATE', begin?: RunBegin, notify?: string,
): Promise<void> {
  const { state } = entity;
  const starting = startChild(runWorkflow, {
    workflowId: `run/${runId}`,
    // Runs have a queue of their own, so their tasks never delay a fire (older states: this one's).
    ...(state.runsTaskQueue ? { taskQueue: state.runsTaskQueue } : {}),
    args: [{
      runId, automationId: state.automationId, organizationId: state.organizationId, trigger, parentWorkflowId: workflowInfo().workflowId,
      ...(begin ? { begin } : {}),
      ...(notify ? { notify } : {}),
      // Replay compares a child's id and type, not its input: no patch needed for this field.
      codeVersion: RUN_CODE,
    }],
    // Runs outlive a continue-as-new of this workflow; they report back with a signal.
    parentClosePolicy: ParentClosePolicy.ABANDON,
    // A run started ahead of its fire has the full timeout from the fire on; waits for approvals come on top.
    workflowExecutionTimeout: runExecutionTimeoutMs(begin?.fireAt ? Date.parse(begin.fireAt) - Date.now() : 0),
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.OrganizationId, value: state.organizationId },
      { key: SEARCH_ATTRIBUTES.AutomationId, value: state.automationId },
      { key: SEARCH_ATTRIBUTES.TriggerType, value: trigger },
    ],
    staticSummary: plaintextSummary(`Run ${runId} of automation ${state.automationId} (${trigger})`),
    // Runs (and their activities) queue behind the entity workflows' own tasks: a burst of runs
    // never delays another automation's fire or an API update.
    priority: { priorityKey: RUN_PRIORITY },
    ...(workflowIdReusePolicy === 'REJECT_DUPLICATE' ? { workflowIdReusePolicy } : {}),
  });
  entity.childStarts.set(runId, starting);
  let child: Awaited<typeof starting>;
  try {
    child = await starting;
  } finally {
    entity.childStarts.delete(runId);
  }
  // The child's completion reaches this history anyway (a task of its own); it ends the overlap.
  entity.ownRuns.add(runId);
  const ended = () => forgetRun(entity, runId);
  child.result().then((run: RunWorkflowResult) => {
    ended();
    // A run started ahead of its fire skipped it (overlap or past the catch-up window): counted here.
    if (run.status === 'skipped') {
      state.skippedFires += 1;
      entity.skipToSave = true;
    }
  }, (error: unknown) => {
    ended();
    const endedWithoutRecord = endedUnrecorded(error);
    if (endedWithoutRecord && patched(SETTLES_ENDED_RUNS_PATCH)) {
      // Only a running row moves: a run that recorded its end before it was stopped keeps it.
      void completeRun({ runId, status: 'failure', output: null, error: endedWithoutRecord, tokensInput: 0, tokensOutput: 0, estimatedCost: 0 })
        .catch(() => undefined);
    }
  });
}

/** The error a run's row records when its workflow ended without recording it (terminated, timed out); undefined otherwise. */
function endedUnrecorded(error: unknown): string | undefined {
  const cause = error instanceof ChildWorkflowFailure ? error.cause : undefined;
  if (cause instanceof TerminatedFailure) return 'terminated';
  if (cause instanceof TimeoutFailure) return 'timed_out: The run workflow reached its Temporal timeout';
  return undefined;
}
