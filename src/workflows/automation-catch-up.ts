// Fires missed while the workers or the Temporal server were down (docs/design.md "Missed fires"): when
// the entity workflow wakes past a fire, the latest fire that came due meanwhile runs once as a
// `catch-up` run carrying its `scheduledFor`, if it is younger than the catch-up window the state
// carries (AUTOMATION_CATCHUP_WINDOW_SECONDS); every other fire of that stretch is counted in
// `missedFires`, apart from overlap's `skippedFires`. Deterministic: the window is in the state, the
// fires are computed from the cron, and histories from before it take the old path (patch
// `catch-up-run`, or AUTOMATION_CODE 3 without asking).
import { log, patched } from '@temporalio/workflow';
import { MISSED_FIRE_GRACE_MS, MISSED_FIRE_LATENESS_MS } from './automation.contract.js';
import { startScheduledRun } from './automation-runs.js';
import { catchUpWindowMs, computeNext, iso, saveState, skipFire, type Entity } from './automation-state.js';

/**
 * Marks histories where a missed fire runs as a `catch-up` run and the fires missed with it are
 * counted; older ones ran the first missed fire as a scheduled run and counted no other.
 */
export const CATCH_UP_RUN_PATCH = 'catch-up-run';

/** Fires counted one by one at most (a seconds-level cron down for a day); the count stops there. */
const MAX_COUNTED_FIRES = 10_000;

/** A stretch of fires missed together: the latest that came due, and how many did in all. */
export interface MissedStretch {
  first: number;
  latest: number;
  count: number;
}

/** The fires from `dueAt` until `now` when `dueAt` was missed rather than merely late; null when it was not. */
export function missedStretch(entity: Entity, dueAt: number, now: number): MissedStretch | null {
  const following = computeNext(entity, dueAt);
  const missed = now - dueAt > MISSED_FIRE_LATENESS_MS || (following !== null && now - following > MISSED_FIRE_GRACE_MS);
  if (!missed) return null;
  let latest = dueAt;
  let count = 1;
  for (let next = following; next !== null && next <= now && count < MAX_COUNTED_FIRES; next = computeNext(entity, next)) {
    latest = next;
    count += 1;
  }
  return { first: dueAt, latest, count };
}

/** Whether this execution takes the catch-up rule (asked only when a fire was missed, so on-time histories carry no marker). */
export function catchesUp({ state }: Entity): boolean {
  return (state.codeVersion ?? 0) >= 3 || patched(CATCH_UP_RUN_PATCH);
}

/** One catch-up run for the latest fire of the stretch if it is within the window; the rest counted. */
export async function catchUp(entity: Entity, missed: MissedStretch, now: number): Promise<void> {
  const { state } = entity;
  const runnable = now - missed.latest <= catchUpWindowMs(entity);
  state.missedFires = (state.missedFires ?? 0) + missed.count - (runnable ? 1 : 0);
  log.warn('Scheduled fires missed while workers or the Temporal server were down', {
    automationId: state.automationId, missed: missed.count, firstDueAt: iso(missed.first), catchUpFor: runnable ? iso(missed.latest) : null,
  });
  if (!runnable) {
    await saveState(entity);
  } else if (state.running.length > 0) {
    await skipFire(entity, 'info', 'Catch-up fire skipped: a run is still running', missed.latest, { running: state.running.length });
  } else {
    await startScheduledRun(entity, now, { trigger: 'catch-up', scheduledFor: missed.latest });
  }
}
