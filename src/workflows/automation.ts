// The automation entity workflow `automation/<automationId>`: owns the schedule of one
// automation. It sleeps until the next cron fire (or an update), starts each run as a child
// workflow `run/<runId>`, skips a fire while a run is still running, catches up at most one fire
// missed within the catch-up window, writes its state back to the database (so lists never ask
// Temporal) and continues-as-new when history grows, carrying the pending fire with it. Besides
// the API's Updates it takes the design card's signals `pause`, `activate` and `schedule`, which
// an operator sends from the Temporal Web UI or `temporal workflow signal`.
// By concern: its state (./automation-state.ts), its fires (./automation-fires.ts), how it starts
// runs (./automation-runs.ts) and its handlers (./automation-handlers.ts); this file is the loop.
import { allHandlersFinished, condition, continueAsNew, workflowInfo } from '@temporalio/workflow';
import { AUTOMATION_CODE, CATCH_UP_WINDOW_MS, type AutomationWorkflow, type AutomationWorkflowState } from './automation.contract.js';
import { armScheduled, armTime, fireScheduled } from './automation-fires.js';
import { setAutomationHandlers } from './automation-handlers.js';
import { entityOf, saveState } from './automation-state.js';

export { CATCH_UP_WINDOW_MS };
export { CARRIED_RUNS_PATCH, FIRE_STARTS_RUN_PATCH, LIVE_OVERLAP_PATCH, RUN_EXECUTION_TIMEOUT_MS } from './automation-fires.js';
export { IDEMPOTENT_RUN_NOW_PATCH } from './automation-handlers.js';

export async function automationWorkflow(initial: AutomationWorkflowState): Promise<void> {
  const entity = entityOf(initial);
  const { state, arms } = entity;
  setAutomationHandlers(entity);

  while (!entity.deleted) {
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength >= state.continueAsNewAfterEvents) {
      // Let updates in flight finish so none is lost; the pending fire travels in the state.
      await condition(allHandlersFinished);
      if (entity.deleted) break;
      // The next execution runs this code from its start: it takes the current paths.
      await continueAsNew<typeof automationWorkflow>({ ...state, codeVersion: AUTOMATION_CODE });
    }
    entity.changed = false;
    if (entity.skipToSave) {
      entity.skipToSave = false;
      await saveState(entity);
      continue;
    }
    const wake = () => entity.changed || entity.deleted || entity.skipToSave;
    if (state.status === 'active' && state.nextRunAt !== null) {
      const waitMs = (arms ? armTime(entity, state.nextRunAt) : state.nextRunAt) - Date.now();
      const interrupted = waitMs > 0 ? await condition(wake, waitMs) : false;
      if (!interrupted && !entity.deleted) await (arms ? armScheduled(entity) : fireScheduled(entity));
    } else {
      await condition(wake);
    }
  }
  await condition(allHandlersFinished);
}

// The contract names this signature for the API's typed calls: the two cannot drift apart.
automationWorkflow satisfies AutomationWorkflow;
