// The automation entity workflow `automation/<automationId>`: owns the schedule of one
// automation. It sleeps until the next cron fire (or an update), starts each run as a child
// workflow `run/<runId>`, skips a fire while a run is still running, catches up at most one fire
// missed within the catch-up window, writes its state back to the database (so lists never ask
// Temporal) and continues-as-new when history grows, carrying the pending fire with it. Besides
// the API's Updates it takes the design card's signals `pause`, `activate` and `schedule`, which
// an operator sends from the Temporal Web UI or `temporal workflow signal`.
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
  proxyLocalActivities,
  setHandler,
  startChild,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities/index.js';
import type { RunTrigger, ScheduleSnapshot } from './run.contract.js';
import { nextFireTime, validateSchedule } from '../schedule/schedule.js';
import { SEARCH_ATTRIBUTES } from '../search-attributes.js';
import { plaintextSummary } from '../payloads/plaintext-summaries.js';
import {
  activateUpdate,
  automationStateQuery,
  deleteUpdate,
  editScheduleUpdate,
  pauseUpdate,
  activateSignal,
  AUTOMATION_CODE,
  CATCH_UP_WINDOW_MS,
  disarmSignal,
  pauseSignal,
  runFinishedSignal,
  runNowUpdate,
  scheduleSignal,
  RUN_PRIORITY,
  type AutomationWorkflow,
  type AutomationWorkflowState,
  type RunNowInput,
  type ScheduleResult,
  type StartedRun,
} from './automation.contract.js';
import { RUN_CODE, runExecutionTimeoutMs, runWorkflow, type RunBegin, type RunWorkflowResult } from './run.js';

export { CATCH_UP_WINDOW_MS };
/** A run that never reported back is forgotten after this (its workflow has timed out by then). */
export const RUN_EXECUTION_TIMEOUT_MS = 60 * 60 * 1000;

/** Marks histories where a requested run id makes runNow idempotent (older ones drew a uuid4). */
export const IDEMPOTENT_RUN_NOW_PATCH = 'idempotent-run-now';
/**
 * Marks histories where a scheduled fire starts its run workflow in the fire's own workflow
 * task and the run records itself; older ones recorded the run with an activity first.
 */
export const FIRE_STARTS_RUN_PATCH = 'fire-starts-run';
/**
 * Marks histories where a run of this execution past its hour is still counted as running (the
 * overlap follows its live state): it may be waiting for an approval, and its end reaches this
 * history when its workflow completes. Older histories forgot it at one hour.
 */
export const LIVE_OVERLAP_PATCH = 'live-overlap';

const bookkeeping = proxyActivities<Activities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 20 },
});
const { endedRuns } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 20 },
  summary: 'Which runs carried over a continue-as-new have ended',
});
/**
 * Marks histories where a fire asks the database about runs carried over a continue-as-new
 * (runs no longer signal `runFinished`; this execution hears of its own children's completion).
 */
export const CARRIED_RUNS_PATCH = 'carried-runs';
const { recordRunStarted } = proxyActivities<Activities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 20 },
  summary: 'Record the run as running',
});

export async function automationWorkflow(initial: AutomationWorkflowState): Promise<void> {
  const state: AutomationWorkflowState = { ...initial, running: [...initial.running] };
  let deleted = false;
  let changed = false;
  // A state from AUTOMATION_CODE 1 on names the paths this code takes; older states ask the patches.
  const current = (initial.codeVersion ?? 0) >= 1;
  const takes = (patchId: string) => current || patched(patchId);
  // From code 2 on each scheduled run is started ahead of its fire; older states start it at the fire.
  const arms = (initial.codeVersion ?? 0) >= 2 && (state.armLeadSeconds ?? DEFAULT_ARM_LEAD_SECONDS) > 0;
  /** Skipped fires counted since the last write-back (a run started ahead reported one). */
  let skipToSave = false;

  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const computeNext = (after: number): number | null => nextFireTime(state.schedule, state.timezone, new Date(after))?.getTime() ?? null;
  /** The fire the automation waits for: a run started ahead's until it comes, then the next one. */
  const upcoming = (): number | null => (state.armed && state.armed.fireAt > Date.now() ? state.armed.fireAt : state.nextRunAt);
  const result = (): ScheduleResult => ({ status: state.status, nextRunAt: iso(upcoming()) });
  const rejectIfDeleted = () => {
    if (deleted) throw ApplicationFailure.nonRetryable('The automation is being deleted', 'not_found');
  };

  /** A new state version and the schedule to write back with it (ignored when older than the row's). */
  function nextSnapshot(): ScheduleSnapshot {
    state.version += 1;
    return {
      status: state.status, nextRunAt: iso(upcoming()), skippedFires: state.skippedFires, version: state.version,
      schedule: state.schedule, timezone: state.timezone,
    };
  }

  /** Writes status, nextRunAt and skippedFires back; ends the workflow if the row is gone. */
  async function saveState(): Promise<void> {
    const { exists } = await bookkeeping.saveScheduleState({ automationId: state.automationId, ...nextSnapshot() });
    if (!exists) deleted = true;
  }

  async function startRun(trigger: RunTrigger, context: unknown, retryOf?: string): Promise<StartedRun | null> {
    const runId = uuid4();
    const started = await recordRun(runId, trigger, context, retryOf);
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
  function startRequestedRun(runId: string, trigger: RunTrigger, context: unknown, notify?: string): Promise<StartedRun | null> {
    const pending = requestedRuns.get(runId);
    if (pending) return pending;
    const starting = (async (): Promise<StartedRun | null> => {
      const started = await recordRun(runId, trigger, context);
      if (!started) return null;
      try {
        await startRunWorkflow(runId, trigger, 'REJECT_DUPLICATE', undefined, notify);
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
  async function recordRun(runId: string, trigger: RunTrigger, context: unknown, retryOf?: string): Promise<{ startedAt: string } | null> {
    const started = await recordRunStarted({
      runId,
      automationId: state.automationId,
      organizationId: state.organizationId,
      trigger,
      context: context ?? null,
      schedule: nextSnapshot(),
      ...(retryOf ? { retryOf } : {}),
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

  /** Child starts this execution has commanded and the server has not yet confirmed, by run id. */
  const childStarts = new Map<string, Promise<unknown>>();
  /** Runs this execution started: it hears of their completion (the rest were carried over). */
  const ownRuns = new Set<string>();
  // No wake-up: the pending fire does not move when a run ends.
  const forgetRun = (runId: string) => {
    state.running = state.running.filter((run) => run.runId !== runId);
    if (state.armed?.runId === runId) state.armed = null;
  };

  /** Forgets runs past their timeout, and carried runs whose rows say they ended. */
  async function forgetEndedRuns(now: number): Promise<void> {
    for (const run of state.running) {
      if (now - run.startedAt >= RUN_EXECUTION_TIMEOUT_MS && !(ownRuns.has(run.runId) && patched(LIVE_OVERLAP_PATCH))) forgetRun(run.runId);
    }
    const carried = state.running.filter((run) => !ownRuns.has(run.runId)).map((run) => run.runId);
    if (carried.length > 0 && takes(CARRIED_RUNS_PATCH)) {
      for (const runId of await endedRuns({ runIds: carried })) forgetRun(runId);
    }
  }

  async function startRunWorkflow(
    runId: string, trigger: RunTrigger, workflowIdReusePolicy: 'ALLOW_DUPLICATE' | 'REJECT_DUPLICATE', begin?: RunBegin, notify?: string,
  ): Promise<void> {
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
    childStarts.set(runId, starting);
    let child: Awaited<typeof starting>;
    try {
      child = await starting;
    } finally {
      childStarts.delete(runId);
    }
    // The child's completion reaches this history anyway (a task of its own); it ends the overlap.
    ownRuns.add(runId);
    const ended = () => forgetRun(runId);
    child.result().then((run: RunWorkflowResult) => {
      ended();
      // A run started ahead of its fire skipped it (overlap or past the catch-up window): counted here.
      if (run.status === 'skipped') {
        state.skippedFires += 1;
        skipToSave = true;
      }
    }, ended);
  }

  /** Counts a scheduled fire that does not run, logs why, and saves the state (one activity, as before). */
  async function skipFire(level: 'info' | 'warn', reason: string, dueAt: number, fields: Record<string, unknown>): Promise<void> {
    state.skippedFires += 1;
    log[level](reason, { dueAt: iso(dueAt), ...fields });
    await saveState();
  }

  /**
   * Starts the run of the pending fire ahead of it (code 2): the run waits for the fire on its own
   * timer, so the fire's instant costs the run's workflow task alone, not also this workflow's
   * wake-up, the child's start and its start event. The run decides the overlap at its fire.
   */
  async function armScheduled(): Promise<void> {
    const now = Date.now();
    const fireAt = state.nextRunAt!;
    await forgetEndedRuns(now);
    state.nextRunAt = computeNext(Math.max(now, fireAt));
    state.lastFireAt = fireAt;
    if (now - fireAt > CATCH_UP_WINDOW_MS) {
      await skipFire('warn', 'Scheduled fire missed past the catch-up window: skipped', fireAt, { automationId: state.automationId });
    } else if (fireAt < now && state.armed) {
      // Catching up while the run started ahead of an earlier fire has not ended: it is the catch-up
      // run if it has not begun, and this fire overlaps it if it has.
      await skipFire('info', 'Scheduled fire skipped: the run of an earlier fire has not ended', fireAt, { automationId: state.automationId });
    } else {
      const runId = uuid4();
      // The snapshot as of after the fire (nextRunAt: the one after it), written by the run at its fire.
      const begin = { context: null, schedule: nextSnapshot(), fireAt: new Date(fireAt).toISOString() };
      state.armed = { runId, fireAt };
      state.running.push({ runId, startedAt: fireAt });
      await startRunWorkflow(runId, 'schedule', 'ALLOW_DUPLICATE', begin);
    }
  }

  /**
   * Ends the wait of a run started ahead of a fire that has not come (pause, new schedule): no
   * row, no run. The signal is not awaited (its command goes out with this task): a run that
   * already ended (cancelled from the Web UI) refuses it, which changes nothing.
   */
  function disarm(): void {
    const armed = state.armed;
    if (!armed || armed.fireAt <= Date.now()) return;
    forgetRun(armed.runId);
    // That fire did not happen: the lead of the next one is not bound by it.
    state.lastFireAt = null;
    const signal = () => getExternalWorkflowHandle(`run/${armed.runId}`).signal(disarmSignal).catch(() => undefined);
    // Disarmed while its start is still on its way (the pause came within the start's round trip):
    // signalled once it exists, or the signal would find no run and the run would fire anyway.
    const starting = childStarts.get(armed.runId);
    if (starting) void starting.then(signal, () => undefined);
    else void signal();
  }

  /** When to start the run of the fire at `fireAt`: up to the arm lead before it, spread by the automation's id. */
  function armTime(fireAt: number): number {
    const lead = Math.min((state.armLeadSeconds ?? DEFAULT_ARM_LEAD_SECONDS) * 1000, (fireAt - (state.lastFireAt ?? -Infinity)) / 2);
    return fireAt - lead * (0.5 + 0.5 * spreadOf(state.automationId));
  }

  async function fireScheduled(): Promise<void> {
    const now = Date.now();
    const dueAt = state.nextRunAt ?? now;
    await forgetEndedRuns(now);
    state.nextRunAt = computeNext(now);
    if (now - dueAt > CATCH_UP_WINDOW_MS) {
      await skipFire('warn', 'Scheduled fire missed past the catch-up window: skipped', dueAt, { automationId: state.automationId });
    } else if (state.running.length > 0) {
      await skipFire('info', 'Scheduled fire skipped: a run is still running', dueAt, { running: state.running.length });
    } else if (takes(FIRE_STARTS_RUN_PATCH)) {
      await startScheduledRun(now);
    } else {
      await startRun('schedule', null);
    }
  }

  async function activate(): Promise<void> {
    if (state.status !== 'active' || state.nextRunAt === null) {
      state.status = 'active';
      state.nextRunAt = computeNext(Date.now());
      changed = true;
      await saveState();
    }
  }

  async function pause(): Promise<void> {
    if (state.status !== 'paused') {
      disarm();
      state.status = 'paused';
      state.nextRunAt = null;
      changed = true;
      await saveState();
    }
  }

  async function editSchedule(schedule: string, timezone: string): Promise<void> {
    disarm();
    state.schedule = schedule;
    state.timezone = timezone;
    state.nextRunAt = state.status === 'active' ? computeNext(Date.now()) : null;
    changed = true;
    await saveState();
  }

  setHandler(activateUpdate, async () => {
    await activate();
    return result();
  }, { validator: rejectIfDeleted });

  setHandler(pauseUpdate, async () => {
    await pause();
    return result();
  }, { validator: rejectIfDeleted });

  setHandler(editScheduleUpdate, async ({ schedule, timezone }) => {
    await editSchedule(schedule, timezone);
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

  // Signals cannot answer, so a refused one is logged (visible in the worker's logs) and changes nothing.
  setHandler(pauseSignal, async () => {
    if (!deleted) await pause();
  });
  setHandler(activateSignal, async () => {
    if (!deleted) await activate();
  });
  setHandler(scheduleSignal, async (input) => {
    if (deleted) return;
    const problem = scheduleSignalProblem(input, state.timezone, state.minIntervalSeconds ?? 60);
    if (problem) {
      log.warn('Schedule signal rejected: the state is unchanged', { automationId: state.automationId, reason: problem });
      return;
    }
    await editSchedule(input.schedule.trim(), (input.timezone ?? state.timezone).trim());
  });

  setHandler(runNowUpdate, async (input: RunNowInput): Promise<StartedRun> => {
    const started = input.runId && takes(IDEMPOTENT_RUN_NOW_PATCH)
      ? await startRequestedRun(input.runId, input.trigger, input.context, input.notify)
      : await startRun(input.trigger, input.context, input.retryOf);
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

  // Sent by runs started before the `lean-run` patch; newer runs end without a signal.
  setHandler(runFinishedSignal, ({ runId }) => {
    forgetRun(runId);
    changed = true;
  });

  setHandler(automationStateQuery, () => ({ ...state, deleted }));

  while (!deleted) {
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength >= state.continueAsNewAfterEvents) {
      // Let updates in flight finish so none is lost; the pending fire travels in the state.
      await condition(allHandlersFinished);
      if (deleted) break;
      // The next execution runs this code from its start: it takes the current paths.
      await continueAsNew<typeof automationWorkflow>({ ...state, codeVersion: AUTOMATION_CODE });
    }
    changed = false;
    if (skipToSave) {
      skipToSave = false;
      await saveState();
      continue;
    }
    const wake = () => changed || deleted || skipToSave;
    if (state.status === 'active' && state.nextRunAt !== null) {
      const waitMs = (arms ? armTime(state.nextRunAt) : state.nextRunAt) - Date.now();
      const interrupted = waitMs > 0 ? await condition(wake, waitMs) : false;
      if (!interrupted && !deleted) await (arms ? armScheduled() : fireScheduled());
    } else {
      await condition(wake);
    }
  }
  await condition(allHandlersFinished);
}

/** The arm lead of states that carry none (AUTOMATION_ARM_LEAD_SECONDS's default): runs start at their fire. */
const DEFAULT_ARM_LEAD_SECONDS = 0;

/** A fraction in [0, 1) drawn from the automation's id (FNV-1a): automations due at one instant arm spread out. */
function spreadOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return (hash >>> 0) / 2 ** 32;
}

// The contract names this signature for the API's typed calls: the two cannot drift apart.
automationWorkflow satisfies AutomationWorkflow;

/** Why a `schedule` signal's input cannot be used, or null when it can (signals arrive unchecked). */
function scheduleSignalProblem(input: unknown, currentTimezone: string, minIntervalSeconds: number): string | null {
  if (typeof input !== 'object' || input === null) return 'the signal needs {schedule, timezone}';
  const { schedule, timezone } = input as { schedule?: unknown; timezone?: unknown };
  if (typeof schedule !== 'string' || !schedule.trim() || schedule.length > 200) return 'schedule must be a cron expression';
  if (timezone !== undefined && (typeof timezone !== 'string' || !timezone.trim() || timezone.length > 64)) return 'timezone must be an IANA time zone';
  try {
    validateSchedule(schedule.trim(), typeof timezone === 'string' ? timezone.trim() : currentTimezone, minIntervalSeconds, new Date());
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
