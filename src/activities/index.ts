// Activities: retried I/O on behalf of workflows. Each is a thin call into a feature; the
// dependencies (the same runtime the API uses) are passed in, so tests run them on the real stack.
import type { AppDeps } from '../api/deps.js';
import { createRunActivities } from '../automations/run-activities.js';
import { createToolActivities } from '../connectors/run-tools.js';
import { createWebhookActivities } from '../webhooks/activities.js';

export type ActivityDeps = AppDeps;

export function createActivities(deps: ActivityDeps) {
  return {
    ...createRunActivities(deps),
    ...createToolActivities(deps),
    ...createWebhookActivities(deps),
    async checkDatabase(): Promise<{ databaseTime: string }> {
      const rows = await deps.orm.em.getConnection().execute<{ now: Date }[]>('select now() as now');
      const now = rows[0]?.now;
      return { databaseTime: new Date(now ?? Date.now()).toISOString() };
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
