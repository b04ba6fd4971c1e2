// The contract of the run workflow (`run/<runId>`, in ./run.ts) with the automations feature:
// what triggers a run, the schedule snapshot a run writes back with its row, and the prompt a run's
// first step resolves and its later steps carry. Types and constants only: the workflow bundle
// and the automations feature both import it (neither imports the other's code).

export const AUTOMATION_STATUSES = ['active', 'paused'] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];
/** `catch-up`: the one run of a fire missed while the workers or the Temporal server were down (docs/design.md "Missed fires"). */
export const RUN_TRIGGERS = ['schedule', 'manual', 'webhook', 'catch-up'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

export interface ScheduleSnapshot {
  status: AutomationStatus;
  nextRunAt: string | null;
  skippedFires: number;
  /** Fires missed in outages and not caught up (absent in snapshots of older workflow code). */
  missedFires?: number;
  version: number;
  /** The schedule as the workflow holds it (absent in snapshots of older workflow code). */
  schedule?: string;
  timezone?: string;
}

/**
 * What the model call of a run needs, as resolved at its start: the system prompt of the skill
 * version the run uses, the model, and the run's own trigger, start and context. Customer text:
 * it travels only inside activity inputs and results, which the payload codec encrypts.
 */
export interface RunPrompt {
  organizationId: string;
  automationId: string;
  model: string;
  systemPrompt: string;
  trigger: RunTrigger;
  startedAt: string;
  context: unknown;
}

/**
 * A step's input: the run, and on the `carried-plan` path the prompt its plan resolved at the
 * start (older histories schedule steps with the run id only: those read the rows again).
 */
export interface RunStep {
  runId: string;
  prompt?: RunPrompt;
}
