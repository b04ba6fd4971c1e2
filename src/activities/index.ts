// Activities: retried I/O on behalf of workflows. This module only composes the factories each
// feature exports (each activity a thin call into its feature); the dependencies (the same runtime
// the API uses) are passed in, so tests run them on the real stack. Workflows import `Activities`
// as a type only; only the worker (and tests) use its values.
import type { AppDeps } from '../runtime-deps.js';
import { createApprovalActivities } from '../approvals/approval-activities.js';
import { createAssistantRunActivities } from '../assistants/run-activities.js';
import { createRunActivities } from '../automations/run-activities.js';
import { createRunToolActivities } from '../automations/run-tools.js';
import { createScheduleActivities } from '../automations/schedule-activities.js';
import { createWebhookRunActivities } from '../automations/webhook-runs.js';
import { createDiagnosticsActivities } from '../diagnostics/activities.js';
import { createWebhookActivities } from '../webhooks/activities.js';
import { outlastingDatabaseOutages } from './database-outages.js';
import { heartbeatingWhenTimed } from './heartbeats.js';

/**
 * Every activity waits out a database outage within its attempt (./database-outages.ts), and
 * heartbeats while it runs when its options set a heartbeat timeout (./heartbeats.ts).
 */
export function createActivities(deps: AppDeps) {
  return heartbeatingWhenTimed(outlastingDatabaseOutages({
    ...createScheduleActivities(deps),
    ...createRunActivities(deps),
    ...createRunToolActivities(deps),
    ...createWebhookActivities(deps),
    ...createWebhookRunActivities(deps),
    ...createAssistantRunActivities(deps),
    ...createDiagnosticsActivities(deps),
    ...createApprovalActivities(deps),
  }));
}

export type Activities = ReturnType<typeof createActivities>;
