// The automation entity workflow's scheduled fires (./automation.ts): a fire at its time (older
// states), or its run started ahead of it (code 2) and disarmed when a pause or a new schedule
// comes first; fires skipped while a run runs; fires missed while workers or the server were down
// (./automation-catch-up.ts). Deterministic.
import { getExternalWorkflowHandle, patched, proxyLocalActivities, uuid4 } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { disarmSignal } from './automation.contract.js';
import { catchUp, catchesUp, missedStretch } from './automation-catch-up.js';
import { startRun, startRunWorkflow, startScheduledRun } from './automation-runs.js';
import { catchUpWindowMs, computeNext, DEFAULT_ARM_LEAD_SECONDS, forgetRun, nextSnapshot, skipFire, type Entity } from './automation-state.js';

/** A run that never reported back is forgotten after this (its workflow has timed out by then). */
export const RUN_EXECUTION_TIMEOUT_MS = 60 * 60 * 1000;

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
/**
 * Marks histories where a fire asks the database about runs carried over a continue-as-new
 * (runs no longer signal `runFinished`; this execution hears of its own children's completion).
 */
export const CARRIED_RUNS_PATCH = 'carried-runs';

const { endedRuns } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 20 },
  summary: 'Which runs carried over a continue-as-new have ended',
});

/** Forgets runs past their timeout, and carried runs whose rows say they ended. */
async function forgetEndedRuns(entity: Entity, now: number): Promise<void> {
  for (const run of entity.state.running) {
    if (now - run.startedAt >= RUN_EXECUTION_TIMEOUT_MS && !(entity.ownRuns.has(run.runId) && patched(LIVE_OVERLAP_PATCH))) forgetRun(entity, run.runId);
  }
  const carried = entity.state.running.filter((run) => !entity.ownRuns.has(run.runId)).map((run) => run.runId);
  if (carried.length > 0 && entity.takes(CARRIED_RUNS_PATCH)) {
    for (const runId of await endedRuns({ runIds: carried })) forgetRun(entity, runId);
  }
}

/**
 * Starts the run of the pending fire ahead of it (code 2): the run waits for the fire on its own
 * timer, so the fire's instant costs the run's workflow task alone, not also this workflow's
 * wake-up, the child's start and its start event. The run decides the overlap at its fire.
 */
export async function armScheduled(entity: Entity): Promise<void> {
  const { state } = entity;
  const now = Date.now();
  const fireAt = state.nextRunAt!;
  await forgetEndedRuns(entity, now);
  state.nextRunAt = computeNext(entity, Math.max(now, fireAt));
  const missed = missedStretch(entity, fireAt, now);
  if (missed && catchesUp(entity)) {
    // Woken past the fire (workers or server down): no run waits ahead of it; the catch-up starts now.
    state.lastFireAt = missed.latest;
    await catchUp(entity, missed, now);
    return;
  }
  state.lastFireAt = fireAt;
  if (now - fireAt > catchUpWindowMs(entity)) {
    await skipFire(entity, 'warn', 'Scheduled fire missed past the catch-up window: skipped', fireAt, { automationId: state.automationId });
  } else if (fireAt < now && state.armed) {
    // Catching up while the run started ahead of an earlier fire has not ended: it is the catch-up
    // run if it has not begun, and this fire overlaps it if it has.
    await skipFire(entity, 'info', 'Scheduled fire skipped: the run of an earlier fire has not ended', fireAt, { automationId: state.automationId });
  } else {
    const runId = uuid4();
    // The snapshot as of after the fire (nextRunAt: the one after it), written by the run at its fire.
    const begin = {
      context: null, schedule: nextSnapshot(entity), fireAt: new Date(fireAt).toISOString(),
      // The run's input, not a command's: replay compares neither; older runs fall back to the default window.
      ...(state.catchUpWindowSeconds === undefined ? {} : { catchUpWindowSeconds: state.catchUpWindowSeconds }),
    };
    state.armed = { runId, fireAt };
    state.running.push({ runId, startedAt: fireAt });
    await startRunWorkflow(entity, runId, 'schedule', 'ALLOW_DUPLICATE', begin);
  }
}

/**
 * Ends the wait of a run started ahead of a fire that has not come (pause, new schedule): no
 * row, no run. The signal is not awaited (its command goes out with this task): a run that
 * already ended (cancelled from the Web UI) refuses it, which changes nothing.
 */
export function disarm(entity: Entity): void {
  const armed = entity.state.armed;
  if (!armed || armed.fireAt <= Date.now()) return;
  forgetRun(entity, armed.runId);
  // That fire did not happen: the lead of the next one is not bound by it.
  entity.state.lastFireAt = null;
  const signal = () => getExternalWorkflowHandle(`run/${armed.runId}`).signal(disarmSignal).catch(() => undefined);
  // Disarmed while its start is still on its way (the pause came within the start's round trip):
  // signalled once it exists, or the signal would find no run and the run would fire anyway.
  const starting = entity.childStarts.get(armed.runId);
  if (starting) void starting.then(signal, () => undefined);
  else void signal();
}

/** When to start the run of the fire at `fireAt`: up to the arm lead before it, spread by the automation's id. */
export function armTime({ state }: Entity, fireAt: number): number {
  const lead = Math.min((state.armLeadSeconds ?? DEFAULT_ARM_LEAD_SECONDS) * 1000, (fireAt - (state.lastFireAt ?? -Infinity)) / 2);
  return fireAt - lead * (0.5 + 0.5 * spreadOf(state.automationId));
}

export async function fireScheduled(entity: Entity): Promise<void> {
  const { state } = entity;
  const now = Date.now();
  const dueAt = state.nextRunAt ?? now;
  await forgetEndedRuns(entity, now);
  state.nextRunAt = computeNext(entity, now);
  const missed = missedStretch(entity, dueAt, now);
  if (missed && catchesUp(entity)) {
    await catchUp(entity, missed, now);
  } else if (now - dueAt > catchUpWindowMs(entity)) {
    await skipFire(entity, 'warn', 'Scheduled fire missed past the catch-up window: skipped', dueAt, { automationId: state.automationId });
  } else if (state.running.length > 0) {
    await skipFire(entity, 'info', 'Scheduled fire skipped: a run is still running', dueAt, { running: state.running.length });
  } else if (entity.takes(FIRE_STARTS_RUN_PATCH)) {
    await startScheduledRun(entity, now, { trigger: 'schedule', scheduledFor: dueAt });
  } else {
    await startRun(entity, 'schedule', null);
  }
}

/** A fraction in [0, 1) drawn from the automation's id (FNV-1a): automations due at one instant arm spread out. */
function spreadOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return (hash >>> 0) / 2 ** 32;
}
