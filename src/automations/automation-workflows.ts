// The service's side of the entity workflows: start `automation/<id>` idempotently from the
// database row, send it validated updates, and reconcile rows whose workflow is missing (after a
// restart, a lost start or a reset cluster). The database row is the source of the initial state.
import {
  isGrpcDeadlineError,
  ServiceError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type WorkflowHandle,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { runsTaskQueue } from '../config.js';
import type { AppDeps } from '../runtime-deps.js';
import { AppError, badRequest, notFound } from '../errors.js';
import { plaintextSummary } from '../payloads/plaintext-summaries.js';
import { SEARCH_ATTRIBUTES } from '../temporal.js';
import { AUTOMATION_CODE, ENTITY_PRIORITY, type AutomationWorkflow, type AutomationWorkflowState } from '../workflows/automation.contract.js';
import { Automation } from './entities.js';

type Deps = Pick<AppDeps, 'config' | 'logger' | 'orm' | 'temporal'>;
type EntityHandle = WorkflowHandle<AutomationWorkflow>;

/** An update waits for a worker to apply it; without one the API answers 503, not never. */
export const UPDATE_DEADLINE_MS = 10_000;

export function automationWorkflowId(automationId: string): string {
  return `automation/${automationId}`;
}

export function initialWorkflowState(config: Deps['config'], automation: Automation): AutomationWorkflowState {
  return {
    automationId: automation.id,
    organizationId: automation.organizationId,
    status: automation.status,
    schedule: automation.schedule,
    timezone: automation.timezone,
    nextRunAt: automation.status === 'active' ? (automation.nextRunAt?.getTime() ?? null) : null,
    running: [],
    skippedFires: automation.skippedFires,
    missedFires: automation.missedFires,
    catchUpWindowSeconds: config.AUTOMATION_CATCHUP_WINDOW_SECONDS,
    version: automation.stateVersion,
    continueAsNewAfterEvents: config.AUTOMATION_CONTINUE_AS_NEW_EVENTS,
    minIntervalSeconds: config.AUTOMATION_MIN_INTERVAL_SECONDS,
    runsTaskQueue: runsTaskQueue(config),
    codeVersion: AUTOMATION_CODE,
    armLeadSeconds: config.AUTOMATION_ARM_LEAD_SECONDS,
  };
}

/** Starts the entity workflow unless it is already running (safe to repeat). */
export async function ensureAutomationWorkflow(deps: Deps, automation: Automation): Promise<EntityHandle> {
  return deps.temporal.clientFor(automation.organizationId).workflow.start<AutomationWorkflow>('automationWorkflow', {
    workflowId: automationWorkflowId(automation.id),
    taskQueue: deps.temporal.taskQueue,
    args: [initialWorkflowState(deps.config, automation)],
    workflowIdConflictPolicy: 'USE_EXISTING',
    // Fires and updates before run work on the shared task queue (runs start at RUN_PRIORITY).
    priority: { priorityKey: ENTITY_PRIORITY },
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.OrganizationId, value: automation.organizationId },
      { key: SEARCH_ATTRIBUTES.AutomationId, value: automation.id },
    ],
    staticSummary: plaintextSummary(`Automation "${automation.name.slice(0, 80)}" (${automation.schedule}, ${automation.timezone})`),
    staticDetails: plaintextSummary(`Schedule owner of automation ${automation.id}; each run is a child workflow run/<runId>.`),
  });
}

/**
 * Runs `send` against the entity workflow; if the workflow is missing it is restarted from the
 * row once and the call repeated. Workflow rejections become coded errors.
 */
export async function withAutomationWorkflow<T>(deps: Deps, automation: Automation, send: (handle: EntityHandle) => Promise<T>): Promise<T> {
  const handle = deps.temporal.clientFor(automation.organizationId).workflow.getHandle<AutomationWorkflow>(automationWorkflowId(automation.id));
  const withDeadline = (target: EntityHandle) => deps.temporal.connection.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () => send(target));
  try {
    return await withDeadline(handle);
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw toAppError(error);
    deps.logger.warn({ automationId: automation.id }, 'automation workflow missing: restarting it from the database');
    try {
      return await withDeadline(await ensureAutomationWorkflow(deps, automation));
    } catch (retryError) {
      throw toAppError(retryError);
    }
  }
}

function toAppError(error: unknown): unknown {
  // The update call ran out of its deadline. The server may end such a call as CANCELLED rather
  // than DEADLINE_EXCEEDED (the client then throws WorkflowUpdateRPCTimeoutOrCancelledError); we
  // never cancel it ourselves, so both mean the scheduler did not answer in time.
  if (
    error instanceof WorkflowUpdateRPCTimeoutOrCancelledError ||
    isGrpcDeadlineError(error) ||
    (error instanceof ServiceError && isGrpcDeadlineError(error.cause))
  ) {
    return new AppError('service_unavailable', 'The automation scheduler did not answer in time; try again', { cause: error });
  }
  if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
    if (error.cause.type === 'not_found') return notFound('Automation');
    if (error.cause.type === 'bad_request') return badRequest(error.cause.message, 'schedule');
    return new AppError('internal_error', 'The automation workflow rejected the change', { cause: error });
  }
  return error;
}

/**
 * Starts the entity workflow of every automation that has none running. Called when an API or
 * worker process starts; cheap when everything is in place (one idempotent start per row).
 */
export async function reconcileAutomationWorkflows(deps: Deps, options: { concurrency?: number } = {}): Promise<{ checked: number; started: number }> {
  const automations = await deps.orm.em.fork().find(Automation, {}, { orderBy: { createdAt: 'asc' } });
  let started = 0;
  const queue = [...automations];
  const worker = async () => {
    for (let automation = queue.shift(); automation; automation = queue.shift()) {
      try {
        if (await isRunning(deps, automation.id)) continue;
        await ensureAutomationWorkflow(deps, automation);
        started += 1;
      } catch (error) {
        deps.logger.error({ err: error, automationId: automation.id }, 'could not reconcile the automation workflow');
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 16 }, worker));
  if (started > 0) deps.logger.info({ started, checked: automations.length }, 'automation workflows reconciled');
  return { checked: automations.length, started };
}

async function isRunning(deps: Deps, automationId: string): Promise<boolean> {
  try {
    const description = await deps.temporal.client.workflow.getHandle(automationWorkflowId(automationId)).describe();
    return description.status.name === 'RUNNING';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

/** Process start-up: reconcile without delaying readiness; failures are logged, not fatal. */
export function reconcileAutomationWorkflowsInBackground(deps: Deps): void {
  if (deps.config.AUTOMATION_RECONCILE_ON_START === false) return;
  reconcileAutomationWorkflows(deps).catch((error: unknown) => {
    deps.logger.error({ err: error }, 'automation reconciliation failed');
  });
}
