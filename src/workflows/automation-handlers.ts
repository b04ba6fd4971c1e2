// The automation entity workflow's handlers (./automation.ts): the API's updates (activate,
// pause, edit schedule, run now, delete), the design card's signals an operator sends from the
// Web UI or `temporal workflow signal` (pause, activate, schedule), the `runFinished` signal of
// older runs, and the state query. Deterministic.
import { ApplicationFailure, getExternalWorkflowHandle, log, setHandler } from '@temporalio/workflow';
import { validateSchedule, nextFireTime } from '../schedule/schedule.js';
import {
  activateSignal,
  activateUpdate,
  automationStateQuery,
  deleteUpdate,
  editScheduleUpdate,
  pauseSignal,
  pauseUpdate,
  runFinishedSignal,
  runNowUpdate,
  scheduleSignal,
  type RunNowInput,
  type StartedRun,
} from './automation.contract.js';
import { disarm } from './automation-fires.js';
import { startRequestedRun, startRun } from './automation-runs.js';
import { computeNext, forgetRun, rejectIfDeleted, saveState, scheduleResult, type Entity } from './automation-state.js';

/** Marks histories where a requested run id makes runNow idempotent (older ones drew a uuid4). */
export const IDEMPOTENT_RUN_NOW_PATCH = 'idempotent-run-now';

async function activate(entity: Entity): Promise<void> {
  const { state } = entity;
  if (state.status !== 'active' || state.nextRunAt === null) {
    state.status = 'active';
    state.nextRunAt = computeNext(entity, Date.now());
    entity.changed = true;
    await saveState(entity);
  }
}

async function pause(entity: Entity): Promise<void> {
  const { state } = entity;
  if (state.status !== 'paused') {
    disarm(entity);
    state.status = 'paused';
    state.nextRunAt = null;
    entity.changed = true;
    await saveState(entity);
  }
}

async function editSchedule(entity: Entity, schedule: string, timezone: string): Promise<void> {
  const { state } = entity;
  disarm(entity);
  state.schedule = schedule;
  state.timezone = timezone;
  state.nextRunAt = state.status === 'active' ? computeNext(entity, Date.now()) : null;
  entity.changed = true;
  await saveState(entity);
}

export function setAutomationHandlers(entity: Entity): void {
  const { state } = entity;
  setHandler(activateUpdate, async () => {
    await activate(entity);
    return scheduleResult(entity);
  }, { validator: () => rejectIfDeleted(entity) });

  setHandler(pauseUpdate, async () => {
    await pause(entity);
    return scheduleResult(entity);
  }, { validator: () => rejectIfDeleted(entity) });

  setHandler(editScheduleUpdate, async ({ schedule, timezone }) => {
    await editSchedule(entity, schedule, timezone);
    return scheduleResult(entity);
  }, {
    validator: ({ schedule, timezone }) => {
      rejectIfDeleted(entity);
      try {
        nextFireTime(schedule, timezone, new Date());
      } catch (error) {
        throw ApplicationFailure.nonRetryable((error as Error).message, 'bad_request');
      }
    },
  });

  // Signals cannot answer, so a refused one is logged (visible in the worker's logs) and changes nothing.
  setHandler(pauseSignal, async () => {
    if (!entity.deleted) await pause(entity);
  });
  setHandler(activateSignal, async () => {
    if (!entity.deleted) await activate(entity);
  });
  setHandler(scheduleSignal, async (input) => {
    if (entity.deleted) return;
    const problem = scheduleSignalProblem(input, state.timezone, state.minIntervalSeconds ?? 60);
    if (problem) {
      log.warn('Schedule signal rejected: the state is unchanged', { automationId: state.automationId, reason: problem });
      return;
    }
    await editSchedule(entity, input.schedule.trim(), (input.timezone ?? state.timezone).trim());
  });

  setHandler(runNowUpdate, async (input: RunNowInput): Promise<StartedRun> => {
    const started = input.runId && entity.takes(IDEMPOTENT_RUN_NOW_PATCH)
      ? await startRequestedRun(entity, input.runId, input.trigger, input.context, input.notify)
      : await startRun(entity, input.trigger, input.context, input.retryOf);
    entity.changed = true;
    if (!started) throw ApplicationFailure.nonRetryable('The automation no longer exists', 'not_found');
    return started;
  }, { validator: (_input: RunNowInput) => rejectIfDeleted(entity) });

  setHandler(deleteUpdate, async () => {
    entity.deleted = true;
    entity.changed = true;
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
    forgetRun(entity, runId);
    entity.changed = true;
  });

  setHandler(automationStateQuery, () => ({ ...state, deleted: entity.deleted }));
}

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
