// The diagnostics activity: a round trip from the worker to the database, the one piece of I/O
// the diagnostics workflow proves works.
import type { AppDeps } from '../runtime-deps.js';

export function createDiagnosticsActivities(deps: Pick<AppDeps, 'orm'>) {
  return {
    async checkDatabase(): Promise<{ databaseTime: string }> {
      const rows = await deps.orm.em.getConnection().execute<{ now: Date }[]>('select now() as now');
      const now = rows[0]?.now;
      return { databaseTime: new Date(now ?? Date.now()).toISOString() };
    },
  };
}
