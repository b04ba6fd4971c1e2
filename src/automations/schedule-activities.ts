// The schedule's activities of the automation entity workflow (src/workflows/automation.ts): the
// schedule state it writes back, and which of the runs it carried over a continue-as-new ended.
// The run steps' activities are in ./run-activities.ts.
import type { AppDeps } from '../runtime-deps.js';
import type { ScheduleSnapshot } from '../workflows/run.contract.js';
import { endedRunIds, writeScheduleState } from './run-rows.js';

export function createScheduleActivities(deps: Pick<AppDeps, 'orm'>) {
  const knex = () => deps.orm.em.getConnection().getKnex();
  return {
    /** Writes status, nextRunAt and skippedFires unless a newer state was already written. */
    async saveScheduleState(input: { automationId: string } & ScheduleSnapshot): Promise<{ exists: boolean }> {
      const { automationId, ...snapshot } = input;
      return { exists: await writeScheduleState(knex(), automationId, snapshot) };
    },

    /**
     * Of the given runs, those that ended (or have no row): the automation asks at a fire about
     * runs it carried over a continue-as-new, whose completion it cannot hear from Temporal.
     */
    async endedRuns(input: { runIds: string[] }): Promise<string[]> {
      return endedRunIds(knex(), input.runIds);
    },
  };
}
