// The automation entity workflow's state (./automation.ts): what one execution holds besides the
// carried `AutomationWorkflowState` (its flags, the runs it started, the child starts in flight),
// the schedule snapshot it writes back, and the bookkeeping that goes with them. Deterministic.
import { ApplicationFailure, log, patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { nextFireTime } from '../schedule/schedule.js';
import { CATCH_UP_WINDOW_MS, type AutomationWorkflowState, type ScheduleResult, type StartedRun } from './automation.contract.js';
import type { ScheduleSnapshot } from './run.contract.js';

/** The arm lead of states that carry none (AUTOMATION_ARM_LEAD_SECONDS's default): runs start at their fire. */
export const DEFAULT_ARM_LEAD_SECONDS = 0;

const bookkeeping = proxyActivities<Activities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 20 },
});

/** One execution of the entity: the carried state and what this execution keeps beside it. */
export interface Entity {
  readonly state: AutomationWorkflowState;
  deleted: boolean;
  /** Set by every handler that changes what the main loop waits for. */
  changed: boolean;
  /** Skipped fires counted since the last write-back (a run started ahead reported one). */
  skipToSave: boolean;
  /** The execution takes `patchId`'s path: from AUTOMATION_CODE 1 on without asking. */
  takes(patchId: string): boolean;
  /** From code 2 on each scheduled run is started ahead of its fire; older states start it at the fire. */
  readonly arms: boolean;
  /** Child starts this execution has commanded and the server has not yet confirmed, by run id. */
  readonly childStarts: Map<string, Promise<unknown>>;
  /** Runs this execution started: it hears of their completion (the rest were carried over). */
  readonly ownRuns: Set<string>;
  /** Requested run ids seen by this execution: a repeat joins the first request's start. */
  readonly requestedRuns: Map<string, Promise<StartedRun | null>>;
}

export function entityOf(initial: AutomationWorkflowState): Entity {
  // A state from AUTOMATION_CODE 1 on names the paths this code takes; older states ask the patches.
  const current = (initial.codeVersion ?? 0) >= 1;
  const state: AutomationWorkflowState = { ...initial, running: [...initial.running] };
  return {
    state,
    deleted: false,
    changed: false,
    skipToSave: false,
    takes: (patchId) => current || patched(patchId),
    arms: (initial.codeVersion ?? 0) >= 2 && (state.armLeadSeconds ?? DEFAULT_ARM_LEAD_SECONDS) > 0,
    childStarts: new Map(),
    ownRuns: new Set(),
    requestedRuns: new Map(),
  };
}

/** The catch-up window the state carries (AUTOMATION_CATCHUP_WINDOW_SECONDS), or the default for older states. */
export function catchUpWindowMs({ state }: Entity): number {
  return state.catchUpWindowSeconds === undefined ? CATCH_UP_WINDOW_MS : state.catchUpWindowSeconds * 1000;
}

export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function computeNext(entity: Entity, after: number): number | null {
  return nextFireTime(entity.state.schedule, entity.state.timezone, new Date(after))?.getTime() ?? null;
}

/** The fire the automation waits for: a run started ahead's until it comes, then the next one. */
export function upcoming({ state }: Entity): number | null {
  return state.armed && state.armed.fireAt > Date.now() ? state.armed.fireAt : state.nextRunAt;
}

export function scheduleResult(entity: Entity): ScheduleResult {
  return { status: entity.state.status, nextRunAt: iso(upcoming(entity)) };
}

export function rejectIfDeleted(entity: Entity): void {
  if (entity.deleted) throw ApplicationFailure.nonRetryable('The automation is being deleted', 'not_found');
}

/** A new state version and the schedule to write back with it (ignored when older than the row's). */
export function nextSnapshot(entity: Entity): ScheduleSnapshot {
  const { state } = entity;
  state.version += 1;
  return {
    status: state.status, nextRunAt: iso(upcoming(entity)), skippedFires: state.skippedFires, version: state.version,
    ...(state.missedFires !== undefined ? { missedFires: state.missedFires } : {}),
    schedule: state.schedule, timezone: state.timezone,
  };
}

/** Writes status, nextRunAt and skippedFires back; ends the workflow if the row is gone. */
export async function saveState(entity: Entity): Promise<void> {
  const { exists } = await bookkeeping.saveScheduleState({ automationId: entity.state.automationId, ...nextSnapshot(entity) });
  if (!exists) entity.deleted = true;
}

/** Counts a scheduled fire that does not run, logs why, and saves the state (one activity, as before). */
export async function skipFire(entity: Entity, level: 'info' | 'warn', reason: string, dueAt: number, fields: Record<string, unknown>): Promise<void> {
  entity.state.skippedFires += 1;
  log[level](reason, { dueAt: iso(dueAt), ...fields });
  await saveState(entity);
}

/** No wake-up: the pending fire does not move when a run ends. */
export function forgetRun({ state }: Entity, runId: string): void {
  state.running = state.running.filter((run) => run.runId !== runId);
  if (state.armed?.runId === runId) state.armed = null;
}
