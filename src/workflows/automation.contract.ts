// The contract of the automation entity workflow (`automation/<automationId>`, in ./automation.ts):
// its input and state, task priorities, and the update, signal and query definitions. The API
// (src/automations) imports this file and never the workflow code; it holds types and
// workflow-safe definitions only, so the workflow bundle imports it too.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AutomationStatus, RunTrigger } from './run.contract.js';

/** Task priority of the entity workflows (1 is the highest) and of the runs they start. */
export const ENTITY_PRIORITY = 1;
export const RUN_PRIORITY = 3;

export interface RunningRun {
  runId: string;
  startedAt: number;
}

/**
 * A scheduled fire farther behind its time than this (worker or cluster down) is not caught up:
 * AUTOMATION_CATCHUP_WINDOW_SECONDS's default, for states that carry no window (older code).
 */
export const CATCH_UP_WINDOW_MS = 60 * 60 * 1000;

/**
 * A fire handled this much after its time, or this long after the next fire already came due
 * (MISSED_FIRE_GRACE_MS), was missed (workers or the Temporal server down), not merely late: it
 * runs as the catch-up run. Busy workers start 1,000 fires of one minute within seconds (docs/design.md
 * section 5: none later than 60 s); the grace keeps a seconds-level cron on a busy worker (a task a
 * second or two late) from reading as an outage.
 */
export const MISSED_FIRE_LATENESS_MS = 60_000;
export const MISSED_FIRE_GRACE_MS = 5_000;

/**
 * A scheduled run started ahead of its fire (AUTOMATION_CODE 2): its workflow waits on a timer
 * until `fireAt` and only then records its row and begins.
 */
export interface ArmedRun {
  runId: string;
  /** Epoch ms of the fire it waits for. */
  fireAt: number;
}

export interface AutomationWorkflowState {
  automationId: string;
  organizationId: string;
  status: AutomationStatus;
  schedule: string;
  timezone: string;
  /** Epoch ms of the pending fire; null while paused or when the cron never fires again. */
  nextRunAt: number | null;
  running: RunningRun[];
  skippedFires: number;
  /** Fires missed while workers or the server were down and not caught up (code 3; absent: 0). */
  missedFires?: number;
  /**
   * AUTOMATION_CATCHUP_WINDOW_SECONDS as the starter read it: carried in the state so a replay
   * decides as the first execution did. Absent in older states: CATCH_UP_WINDOW_MS.
   */
  catchUpWindowSeconds?: number;
  /** Increases with every state change; the database ignores write-backs older than it holds. */
  version: number;
  continueAsNewAfterEvents: number;
  /** AUTOMATION_MIN_INTERVAL_SECONDS, for schedules that arrive by signal; 60 when absent (older states). */
  minIntervalSeconds?: number;
  /** Task queue of the run workflows (TEMPORAL_RUNS_TASK_QUEUE); absent in older states: this workflow's own. */
  runsTaskQueue?: string;
  /**
   * The entity code its starter knew (AUTOMATION_CODE). From 1 on, the workflow takes the
   * `idempotent-run-now`, `fire-starts-run` and `carried-runs` paths without asking `patched()`:
   * the first patch call of an execution makes the SDK upsert the TemporalChangeVersion search
   * attribute, a visibility write (~11% of the dev server's CPU in a burst of first fires). The
   * state is the execution's input, so the choice replays the same; states without it (started
   * by older code) ask the patches.
   */
  codeVersion?: number;
  /**
   * AUTOMATION_ARM_LEAD_SECONDS: from code 2 on, how long before a fire its run workflow is
   * started to wait for it (at most; half the schedule's interval when shorter); 0 starts each run
   * at its fire. Absent in older states: 0.
   */
  armLeadSeconds?: number;
  /** The run started ahead of a fire that has not ended (as far as this workflow heard). */
  armed?: ArmedRun | null;
  /** Epoch ms of the last fire a run was started for (the arm lead stays within half the interval). */
  lastFireAt?: number | null;
}

/**
 * What `codeVersion` the API starts entity workflows with, and a continue-as-new carries on.
 * 3: a missed fire runs as a `catch-up` run with its `scheduledFor`, the other fires missed with it
 * are counted as `missedFires` (older states ask the `catch-up-run` patch). 2: a scheduled run may
 * be started ahead of its fire (`armed`, when `armLeadSeconds` > 0); 1 and older states start it
 * at the fire, in the fire's workflow task.
 */
export const AUTOMATION_CODE = 3;

export interface RunNowInput {
  trigger: Exclude<RunTrigger, 'schedule'>;
  context?: unknown;
  /** The run this one retries (POST /automations/{id}/runs/{runId}/retry). */
  retryOf?: string;
  /**
   * The run id to use, derived by the caller from its own request (a webhook execution), so a
   * repeated request returns the run it already started instead of starting another.
   */
  runId?: string;
  /**
   * A workflow waiting for this run's end (`webhook/<executionId>`): the run signals it
   * `automationRunEnded` when it ends, whatever the outcome.
   */
  notify?: string;
}

export interface StartedRun {
  runId: string;
  startedAt: string;
}
export interface ScheduleResult {
  status: AutomationStatus;
  nextRunAt: string | null;
}

export const activateUpdate = defineUpdate<ScheduleResult>('activate');
export const pauseUpdate = defineUpdate<ScheduleResult>('pause');
export const editScheduleUpdate = defineUpdate<ScheduleResult, [{ schedule: string; timezone: string }]>('editSchedule');
export const runNowUpdate = defineUpdate<StartedRun, [RunNowInput]>('runNow');
export const deleteUpdate = defineUpdate<void>('delete');
export const runFinishedSignal = defineSignal<[{ runId: string }]>('runFinished');
/** Sent by the automation to a run waiting for its fire (pause, schedule change): it ends without a row. */
export const disarmSignal = defineSignal('disarm');
/** The design card's signals, for operators (Web UI, CLI); the API uses the Updates above. */
export const pauseSignal = defineSignal('pause');
export const activateSignal = defineSignal('activate');
export const scheduleSignal = defineSignal<[{ schedule: string; timezone?: string }]>('schedule');
export const automationStateQuery = defineQuery<AutomationWorkflowState & { deleted: boolean }>('state');


/** The workflow's signature, for typed client calls by name (`start<AutomationWorkflow>('automationWorkflow', ...)`). */
export type AutomationWorkflow = (initial: AutomationWorkflowState) => Promise<void>;
