// The contract of the automation entity workflow (`automation/<automationId>`, in ./automation.ts):
// its input and state, task priorities, and the update, signal and query definitions. The API
// (src/automations) imports this file and never the workflow code; it holds types and
// workflow-safe definitions only, so the workflow bundle imports it too.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AutomationStatus, RunTrigger } from '../automations/entities.js';

/** Task priority of the entity workflows (1 is the highest) and of the runs they start. */
export const ENTITY_PRIORITY = 1;
export const RUN_PRIORITY = 3;

export interface RunningRun {
  runId: string;
  startedAt: number;
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
  /** Increases with every state change; the database ignores write-backs older than it holds. */
  version: number;
  continueAsNewAfterEvents: number;
}

export interface RunNowInput {
  trigger: Exclude<RunTrigger, 'schedule'>;
  context?: unknown;
  /**
   * The run id to use, derived by the caller from its own request (a webhook execution), so a
   * repeated request returns the run it already started instead of starting another.
   */
  runId?: string;
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
export const automationStateQuery = defineQuery<AutomationWorkflowState & { deleted: boolean }>('state');


/** The workflow's signature, for typed client calls by name (`start<AutomationWorkflow>('automationWorkflow', ...)`). */
export type AutomationWorkflow = (initial: AutomationWorkflowState) => Promise<void>;
