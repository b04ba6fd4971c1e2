// The automation entity workflow `automation/<automationId>`: owns the schedule of one
// automation. It sleeps until the next cron fire (or an update), starts each run as a child
// workflow `run/<runId>`, skips a fire while a run is still running, catches up at most one fire
// missed within the catch-up window, writes its state back to the database (so lists never ask
// Temporal) and continues-as-new when history grows, carrying the pending fire with it.
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  log,
  ParentClosePolicy,
  patched,
  proxyActivities,
  setHandler,
  startChild,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities/index.js';
import type { ScheduleSnapshot } from '../automations/run-activities.js';
import { nextFireTime } from '../automations/schedule.js';
import type { RunTrigger } from '../automations/entities.js';
import { SEARCH_ATTRIBUTES } from '../search-attributes.js';
import { plaintextSummary } from '../payloads/plaintext-summaries.js';
import {
  activateUpdate,
  automationStateQuery,
  deleteUpdate,
  editScheduleUpdate,
  pauseUpdate,
  runFinishedSignal,
  runNowUpdate,
  RUN_PRIORITY,
  type AutomationWorkflow,
  type AutomationWorkflowState,
  type RunNowInput,
  type ScheduleResult,
  type StartedRun,
} from './automation.contract.js';
import { runWorkflow, type RunBegin } from './run.js';

/** A fire found later than this after its time (worker or cluster down) is skipped, not caught up. */
export const CATCH_UP_WINDOW_MS = 60 * 60 * 1000;
/** A run that never reported back is forgotten after this (its workflow has timed out by then). */
export const RUN_EXECUTION_TIMEOUT_MS = 60 * 60 * 1000;

/** Marks histories where a requested run id makes runNow idempotent (older ones drew a uuid4). */
export const IDEMPOTENT_RUN_NOW_PATCH = 'idempotent-run-now';
/**
 * Marks histories where a scheduled fire starts its run workflow in the fire's own workflow
 * task and the run records itself; older ones recorded the run with an activity first.
 */
export const FIRE_STARTS_RUN_PATCH = 'fire-starts-run';

const bookkeeping = proxyActivities<Activities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 20 },
});
const { recordRunStarted } = proxyActivities<Activities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 20 },
  summary: 'Record the run as running',
});

export async function automationWorkflow(initial: AutomationWorkflowState): Promise<void> {
  const state: AutomationWorkflowState = { ...initial, running: [...initial.running] };
  let deleted = false;
  let changed = false;

  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const computeNext = (after: number): number | null => nextFireTime(state.schedule, state.timezone, new Date(after))?.getTime() ?? null;
  const result = (): ScheduleResult => ({ status: state.status, nextRunAt: iso(state.nextRunAt) });
  const rejectIfDeleted = () => {
    if (deleted) throw ApplicationFailure.nonRetryable('The automation is being deleted', 'not_found');
  };

  /** A new state version and the schedule to write back with it (ignored when older than the row's). */
  function nextSnapshot(): ScheduleSnapshot {
    state.version += 1;
    return { status: state.status, nextRunAt: iso(state.nextRunAt), skippedFires: state.skippedFires, version: state.version };
  }

  /** Writes status, nextRunAt and skippedFires back; ends the workflow if the row is gone. */
  async function saveState(): Promise<void> {
    const { exists } = await bookkeeping.saveScheduleState({ automationId: state.automationId, ...nextSnapshot() });
    if (!exists) deleted = true;
  }

  async function startRun(trigger: RunTrigger, context: unknown): Promise<StartedRun | null> {
    const runId = uuid4();
    const started = await recordRun(runId, trigger, context);
    if (!started) return null;
    state.running.push({ runId, startedAt: Date.parse(started.startedAt) });
    await startRunWorkflow(runId, trigger, 'ALLOW_DUPLICATE');
    return { runId, startedAt: started.startedAt };
  }

  /** Requested run ids seen by this execution: a repeat joins the first request's start. */
  const requestedRuns = new Map<string, Promise<StartedRun | null>>();

  /**
   * A run with the id the caller chose: started once however often (or concurrently) the same
   * id is requested. A run recorded by an earlier request is not started again; its workflow is
   * started only if it never was (REJECT_DUPLICATE: a finished run/<id> is never repeated).
   */
  function startRequestedRun(runId: string, trigger: RunTrigger, context: unknown): Promise<StartedRun | null> {
    const pending = requestedRuns.get(runId);
    if (pending) return pending;
    const starting = (async (): Promise<StartedRun | null> => {
      const started = await recordRun(runId, trigger, context);
      if (!started) return null;
      try {
        await startRunWorkflow(runId, trigger, 'REJECT_DUPLICATE');
        if (!state.running.some((run) => run.runId === runId)) state.running.push({ runId, startedAt: Date.parse(started.startedAt) });
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
      return { runId, startedAt: started.startedAt };
    })();
    requestedRuns.set(runId, starting);
    return starting;
  }

  /** Inserts the run row (once per id) and moves lastRunAt; null when the automation is gone. */
  async function recordRun(runId: string, trigger: RunTrigger, context: unknown): Promise<{ startedAt: string } | null> {
    const started = await recordRunStarted({
      runId,
      automationId: state.automationId,
      organizationId: state.organizationId,
      trigger,
      context: context ?? null,
      schedule: nextSnapshot(),
    });
    if (!started) deleted = true;
    return started;
  }

  /**
   * A scheduled run, started at once: the run workflow writes its own row (with the schedule as
   * of this fire), so the fire costs one workflow task instead of an activity and two tasks.
   */
  async function startScheduledRun(now: number): Promise<void> {
    const runId = uuid4();
    const begin = { context: null, schedule: nextSnapshot() };
    state.running.push({ runId, startedAt: now });
    await startRunWorkflow(runId, 'schedule', 'ALLOW_DUPLICATE', begin);
  }

  async function startRunWorkflow(runId: string, trigger: RunTrigger, workflowIdReusePolicy: 'ALLOW_DUPLICATE' | 'REJECT_DUPLICATE', begin?: RunBegin): Promise<void> {
    await startChild(runWorkflow, {
      workflowId: `run/${runId}`,
      args: [{
        runId, automationId: state.automationId, organizationId: state.organizationId, trigger, parentWorkflowId: workflowInfo().workflowId,
        ...(begin ? { begin } : {}),
      }],
      // Runs outlive a continue-as-new of this workflow; they report back with a signal.
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowExecutionTimeout: RUN_EXECUTION_TIMEOUT_MS,
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
  }

  async function fireScheduled(): Promise<void> {
    const now = Date.now();
    const dueAt = state.nextRunAt ?? now;
    state.running = state.running.filter((run) => now - run.startedAt < RUN_EXECUTION_TIMEOUT_MS);
    state.nextRunAt = computeNext(now);
    if (now - dueAt > CATCH_UP_WINDOW_MS) {
      state.skippedFires += 1;
      log.warn('Scheduled fire missed past the catch-up window: skipped', { dueAt: iso(dueAt), automationId: state.automationId });
      await saveState();
    } else if (state.running.length > 0) {
      state.skippedFires += 1;
      log.info('Scheduled fire skipped: a run is still running', { dueAt: iso(dueAt), running: state.running.length });
      await saveState();
    } else if (patched(FIRE_STARTS_RUN_PATCH)) {
      await startScheduledRun(now);
    } else {
      await startRun('schedule', null);
    }
  }

  setHandler(activateUpdate, async () => {
    if (state.status !== 'active' || state.nextRunAt === null) {
      state.status = 'active';
      state.nextRunAt = computeNext(Date.now());
      changed = true;
      await saveState();
    }
    return result();
  }, { validator: rejectIfDeleted });

  setHandler(pauseUpdate, async () => {
    if (state.status !== 'paused') {
      state.status = 'paused';
      state.nextRunAt = null;
      changed = true;
      await saveState();
    }
    return result();
  }, { validator: rejectIfDeleted });

  setHandler(editScheduleUpdate, async ({ schedule, timezone }) => {
    state.schedule = schedule;
    state.timezone = timezone;
    state.nextRunAt = state.status === 'active' ? computeNext(Date.now()) : null;
    changed = true;
    await saveState();
    return result();
  }, {
    validator: ({ schedule, timezone }) => {
      rejectIfDeleted();
      try {
        nextFireTime(schedule, timezone, new Date());
      } catch (error) {
        throw ApplicationFailure.nonRetryable((error as Error).message, 'bad_request');
      }
    },
  });

  setHandler(runNowUpdate, async (input: RunNowInput): Promise<StartedRun> => {
    const started = input.runId && patched(IDEMPOTENT_RUN_NOW_PATCH)
      ? await startRequestedRun(input.runId, input.trigger, input.context)
      : await startRun(input.trigger, input.context);
    changed = true;
    if (!started) throw ApplicationFailure.nonRetryable('The automation no longer exists', 'not_found');
    return started;
  }, { validator: (_input: RunNowInput) => rejectIfDeleted() });

  setHandler(deleteUpdate, async () => {
    deleted = true;
    changed = true;
    await Promise.all(
      state.running.map(async ({ runId }) => {
        try {
          await getExternalWorkflowHandle(`run/${runId}`).cancel();
        } catch {
          // Already finished: nothing to cancel.
        }
      }),
    );
  });

  setHandler(runFinishedSignal, ({ runId }) => {
    state.running = state.running.filter((run) => run.runId !== runId);
    changed = true;
  });

  setHandler(automationStateQuery, () => ({ ...state, deleted }));

  while (!deleted) {
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength >= state.continueAsNewAfterEvents) {
      // Let updates in flight finish so none is lost; the pending fire travels in the state.
      await condition(allHandlersFinished);
      if (deleted) break;
      await continueAsNew<typeof automationWorkflow>(state);
    }
    changed = false;
    if (state.status === 'active' && state.nextRunAt !== null) {
      const waitMs = state.nextRunAt - Date.now();
      const interrupted = waitMs > 0 ? await condition(() => changed || deleted, waitMs) : false;
      if (!interrupted && !deleted) await fireScheduled();
    } else {
      await condition(() => changed || deleted);
    }
  }
  await condition(allHandlersFinished);
}

// The contract names this signature for the API's typed calls: the two cannot drift apart.
automationWorkflow satisfies AutomationWorkflow;
