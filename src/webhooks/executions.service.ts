// Webhook execution records: what the status lookup reads, written by the API (queued) and by the
// execution workflow's activities (running, then success or failure). Every write is idempotent, so activity retries and a crash between the workflow start and the API's
// own insert both leave one consistent row.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../runtime-deps.js';
import { pendingApprovalsOf, type PendingApprovalView } from '../approval-policy/views.js';
import { notFound } from '../errors.js';
import type { Caller } from '../identity/caller.js';
import type { WebhookExecutionInput, WebhookExecutionOutcome } from '../workflows/webhook-execution.contract.js';
import { WebhookExecution, type ExecutionStatus } from './entities.js';

export interface ExecutionView {
  executionId: string;
  status: ExecutionStatus;
  target: { type: 'assistant'; assistantId: string } | { type: 'automation'; automationId: string };
  receivedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  output?: string | null;
  usage?: { inputTokens: number; outputTokens: number; estimatedCost: number } | null;
  model?: string | null;
  runId?: string | null;
  error?: string;
  /** The tool calls a running assistant execution waits on (docs/approvals.md). */
  pendingApprovals?: PendingApprovalView[];
}

export interface FinishExecution {
  executionId: string;
  status: 'success' | 'failure';
  outcome?: WebhookExecutionOutcome;
  error?: string;
}

/**
 * The `queued` record, written while the workflow start is on its way; a no-op if the record
 * exists (the worker got there first, or a repeat with the same Idempotency-Key). True when this
 * call created it.
 */
export async function recordQueuedExecution(em: EntityManager, input: WebhookExecutionInput): Promise<boolean> {
  // Committed without waiting for the WAL flush (the ack path's slowest step otherwise): the
  // record is visible at once, and if a database crash lost it, the execution is still durable in
  // Temporal and its first activity writes the record again (markExecutionRunning upserts).
  return (await insertExecution(em, input, 'queued', null, 'do nothing', { waitForFlush: false })) > 0;
}

/** Removes a `queued` record whose workflow start failed (the caller got no 202 for it). */
export async function forgetQueuedExecution(em: EntityManager, executionId: string): Promise<void> {
  await em.nativeDelete(WebhookExecution, { id: executionId, status: 'queued' });
}

export async function markExecutionRunning(em: EntityManager, input: WebhookExecutionInput, now: Date): Promise<void> {
  await insertExecution(em, input, 'running', now,
    `do update set "status" = 'running', "started_at" = coalesce("webhook_executions"."started_at", excluded."started_at")
     where "webhook_executions"."status" in ('queued', 'running')`);
}

export async function finishExecution(em: EntityManager, finish: FinishExecution, now: Date): Promise<void> {
  const { outcome } = finish;
  await em.nativeUpdate(WebhookExecution, { id: finish.executionId }, {
    status: finish.status,
    completedAt: now,
    output: outcome?.output ?? null,
    model: outcome?.model ?? null,
    runId: outcome?.runId ?? null,
    inputTokens: outcome?.usage?.inputTokens ?? null,
    outputTokens: outcome?.usage?.outputTokens ?? null,
    cost: outcome?.usage?.cost ?? null,
    error: finish.error ?? null,
  });
}

export async function getExecution(deps: Pick<AppDeps, 'orm'>, caller: Caller, executionId: string): Promise<ExecutionView> {
  const em = deps.orm.em.fork();
  const execution = executionId.length <= 64
    ? await em.findOne(WebhookExecution, { id: executionId, organizationId: caller.organizationId })
    : null;
  if (!execution) throw notFound('Webhook execution');
  if (execution.status !== 'running' || !execution.assistantId) return toView(execution);
  const pending = await pendingApprovalsOf(em, caller.organizationId, 'executionId', [execution.id]);
  return { ...toView(execution), pendingApprovals: pending.get(execution.id) ?? [] };
}

async function insertExecution(
  em: EntityManager,
  input: WebhookExecutionInput,
  status: ExecutionStatus,
  startedAt: Date | null,
  onConflict: string,
  options: { waitForFlush: boolean } = { waitForFlush: true },
): Promise<number> {
  const { target } = input;
  // set_config(..., true) is SET LOCAL for the statement's own transaction: one round trip.
  const values = options.waitForFlush
    ? 'values (?, ?, ?, ?, ?, ?, ?, ?)'
    : `select ?::varchar, ?::uuid, ?::uuid, ?::uuid, ?::uuid, ?::varchar, ?::timestamptz, ?::timestamptz
       from (select set_config('synchronous_commit', 'off', true)) as "commit_mode"`;
  const result = await em.getConnection().execute<{ affectedRows?: number }>(
    `insert into "webhook_executions"
       ("id", "organization_id", "webhook_id", "assistant_id", "automation_id", "status", "received_at", "started_at")
     ${values}
     on conflict ("id") ${onConflict}`,
    [
      input.executionId,
      input.organizationId,
      input.webhookRecordId,
      target.kind === 'assistant' ? target.assistantId : null,
      target.kind === 'automation' ? target.automationId : null,
      status,
      new Date(input.receivedAt),
      startedAt,
    ],
    'run',
  );
  return result.affectedRows ?? 0;
}

function toView(execution: WebhookExecution): ExecutionView {
  const finished = execution.status === 'success' || execution.status === 'failure';
  return {
    executionId: execution.id,
    status: execution.status,
    target: execution.assistantId
      ? { type: 'assistant', assistantId: execution.assistantId }
      : { type: 'automation', automationId: execution.automationId ?? '' },
    receivedAt: execution.receivedAt.toISOString(),
    startedAt: execution.startedAt?.toISOString() ?? null,
    completedAt: execution.completedAt?.toISOString() ?? null,
    ...(finished
      ? {
          output: execution.output,
          model: execution.model,
          runId: execution.runId,
          usage: execution.inputTokens === null
            ? null
            : { inputTokens: execution.inputTokens, outputTokens: execution.outputTokens ?? 0, estimatedCost: execution.cost ?? 0 },
        }
      : {}),
    ...(execution.status === 'failure' && execution.error ? { error: execution.error } : {}),
  };
}
