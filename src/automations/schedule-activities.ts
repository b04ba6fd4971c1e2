// The schedule's activities of the automation entity workflow (src/workflows/automation.ts): the
// schedule state it writes back, and which of the runs it carried over a continue-as-new ended.
// The run steps' activities are in ./run-activities.ts.
import type { AppDeps } from '../runtime-deps.js';
import type { ScheduleSnapshot } from '../workflows/run.contract.js';
import { Automation, AutomationRun } from './entities.js';

type EntityManager = ReturnType<AppDeps['orm']['em']['fork']>;

export function createScheduleActivities(deps: Pick<AppDeps, 'orm'>) {
  return {
    /** Writes status, nextRunAt and skippedFires unless a newer state was already written. */
    async saveScheduleState(input: { automationId: string } & ScheduleSnapshot): Promise<{ exists: boolean }> {
      const em = deps.orm.em.fork();
      await writeSchedule(em, input.automationId, input);
      return { exists: (await em.count(Automation, { id: input.automationId })) > 0 };
    },

    /**
     * Of the given runs, those that ended (or have no row): the automation asks at a fire about
     * runs it carried over a continue-as-new, whose completion it cannot hear from Temporal.
     */
    async endedRuns(input: { runIds: string[] }): Promise<string[]> {
      if (input.runIds.length === 0) return [];
      const running = await deps.orm.em.fork().find(AutomationRun, { id: { $in: input.runIds }, status: 'running' }, { fields: ['id'] });
      const stillRunning = new Set(running.map((run) => run.id));
      return input.runIds.filter((id) => !stillRunning.has(id));
    },
  };
}

async function writeSchedule(em: EntityManager, automationId: string, snapshot: ScheduleSnapshot): Promise<void> {
  await em.nativeUpdate(Automation, { id: automationId, stateVersion: { $lt: snapshot.version } }, {
    status: snapshot.status,
    nextRunAt: snapshot.nextRunAt ? new Date(snapshot.nextRunAt) : null,
    skippedFires: snapshot.skippedFires,
    stateVersion: snapshot.version,
    // A schedule changed by the `schedule` signal (Web UI) reaches the row the API reads.
    ...(snapshot.schedule !== undefined && snapshot.timezone !== undefined ? { schedule: snapshot.schedule, timezone: snapshot.timezone } : {}),
  });
}
