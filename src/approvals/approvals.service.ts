// Decisions on approval requests through the API: the organization's requests, one
// request, approve (optionally remembering the tool as `never`) and deny. Who may decide: the
// owner of the run's automation (or the execution's assistant), admins and the organization's
// owner. The decision is recorded first (a second one is 409), then the waiting workflow is told
// with the same signal an operator would send. Who sees a request: runs' and executions' requests,
// every member of the organization (as the console's inbox shows them); a /v1/mcp call's request,
// which holds what one user's client sent, only the key's user, admins and the owner.
import { WorkflowNotFoundError } from '@temporalio/client';
import type { AppDeps } from '../runtime-deps.js';
import { Assistant } from '../assistants/entities.js';
import { Automation } from '../automations/entities.js';
import { parseOrThrow } from '../automations/automations.schemas.js';
import { AppError, badRequest, notFound } from '../errors.js';
import { hasRole, type Caller } from '../identity/caller.js';
import { approveSignal, denySignal } from '../workflows/approvals.contract.js';
import { mcpApprovalWorkflowId } from '../workflows/mcp-approval.contract.js';
import { approvalIdSchema, approveBody, denyBody, listApprovalsQuery } from './approvals.schemas.js';
import { decideApproval, type Decision } from './decisions.js';
import { ToolApproval } from '../approval-policy/entities.js';
import { approvalView } from '../approval-policy/views.js';
import { isRememberableTool } from '../approval-policy/policy.js';

type Deps = Pick<AppDeps, 'orm' | 'clock' | 'temporal' | 'logger'>;

export async function listApprovals(deps: Deps, caller: Caller, query: unknown) {
  const { status, automationId, assistantId, limit, offset } = parseOrThrow(listApprovalsQuery, query);
  const [rows, total] = await deps.orm.em.fork().findAndCount(
    ToolApproval,
    { organizationId: caller.organizationId, ...visibleTo(caller), ...(status ? { status } : {}), ...(automationId ? { automationId } : {}), ...(assistantId ? { assistantId } : {}) },
    { orderBy: { requestedAt: 'desc', id: 'desc' }, limit, offset },
  );
  return { approvals: rows.map(approvalView), total };
}

export async function getApproval(deps: Deps, caller: Caller, id: string) {
  const approval = await findApproval(deps, caller, id);
  if (!isVisibleTo(approval, caller)) throw notFound('Approval');
  return approvalView(approval);
}

/** A member sees the /v1/mcp requests of their own keys only; admins and the owner see all. */
function visibleTo(caller: Caller): Record<string, unknown> {
  return hasRole(caller, 'admin') ? {} : { $or: [{ apiKeyId: null }, { ownerId: caller.userId }] };
}

function isVisibleTo(approval: ToolApproval, caller: Caller): boolean {
  return hasRole(caller, 'admin') || approval.apiKeyId === null || approval.ownerId === caller.userId;
}

/**
 * Ends the waits of /v1/mcp requests cancelled without a decision (a revoked API key's, see
 * api-keys.service.ts): each `mcp/<approvalId>` workflow is told as a denial would tell it, finds
 * its row cancelled and ends with that outcome, and an MCP client still waiting gets the
 * cancellation and its reason.
 */
export async function endCancelledMcpWaits(deps: Pick<AppDeps, 'temporal' | 'logger'>, workflowIds: string[], reason: string): Promise<void> {
  const prefix = mcpApprovalWorkflowId('');
  await Promise.all(
    workflowIds.filter((workflowId) => workflowId.startsWith(prefix)).map(async (workflowId) => {
      const approvalId = workflowId.slice(prefix.length);
      try {
        await deps.temporal.client.workflow.getHandle(workflowId).signal(denySignal, { approvalId, reason });
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) deps.logger.warn({ err: error, workflowId }, 'could not end the wait of a cancelled approval request');
      }
    }),
  );
}

export async function approveToolCall(deps: Deps, caller: Caller, id: string, body: unknown, requestId?: string) {
  const { remember } = parseOrThrow(approveBody, body ?? {});
  const approval = await findApproval(deps, caller, id);
  const subject = await subjectOf(deps, approval);
  assertCanDecide(subject, caller);
  if (remember && subject.kind === 'api_key') {
    throw new AppError('forbidden', 'remember is not for calls through /v1/mcp: there is no automation or assistant to remember the tool on; approve without remember', { param: 'remember' });
  }
  if (remember && subject.ownerId !== caller.userId) {
    throw new AppError('forbidden', `Only the ${subject.kind}'s owner may remember a tool as never needing approval`, { param: 'remember' });
  }
  if (remember && !isRememberableTool(approval.tool)) {
    throw badRequest(
      `remember cannot store ${JSON.stringify(approval.tool)}: the MCP server's tool name has characters outside [A-Za-z0-9_-] (a name such as * would cover other tools); approve it without remember`,
      'remember',
    );
  }
  const decided = await decide(deps, approval, { status: 'approved', via: 'api', reason: null, actor: caller, remember: remember === true, requestId });
  if (remember) await rememberNever(deps, subject, approval.tool);
  return approvalView(decided);
}

export async function denyToolCall(deps: Deps, caller: Caller, id: string, body: unknown, requestId?: string) {
  const { reason } = parseOrThrow(denyBody, body ?? {});
  const approval = await findApproval(deps, caller, id);
  assertCanDecide(await subjectOf(deps, approval), caller);
  return approvalView(await decide(deps, approval, { status: 'denied', via: 'api', reason: reason ?? null, actor: caller, requestId }));
}

/**
 * Records a person's decision (409 when the request is no longer pending, or expired), then
 * tells the waiting workflow. Also the path of a signed link (src/approvals/links.ts).
 */
export async function decide(deps: Deps, approval: ToolApproval, decision: Decision): Promise<ToolApproval> {
  const row = await decideApproval(deps, approval.organizationId, approval.id, decision);
  if (!row.moved) {
    const state = row.status === 'pending' ? 'expired' : row.status;
    throw new AppError('conflict', `The approval request is already ${state}`, { param: 'id' });
  }
  await tellWorkflow(deps, row, decision);
  return row;
}

async function tellWorkflow(deps: Deps, approval: ToolApproval, decision: Decision): Promise<void> {
  const signal = decision.status === 'approved' ? approveSignal : denySignal;
  try {
    await deps.temporal.client.workflow.getHandle(approval.workflowId).signal(signal, { approvalId: approval.id, ...(decision.reason ? { reason: decision.reason } : {}) });
  } catch (error) {
    // The workflow ended meanwhile (cancelled, terminated): nobody waits any more.
    if (error instanceof WorkflowNotFoundError) return;
    // The decision is recorded; the workflow reads it from the row when its timer fires.
    deps.logger.warn({ err: error, approvalId: approval.id }, 'could not signal the waiting workflow');
  }
}

interface Subject {
  kind: 'automation' | 'assistant' | 'api_key';
  id: string;
  ownerId: string;
}

/** The automation or assistant whose call waits, with its current owner. */
async function subjectOf(deps: Deps, approval: ToolApproval): Promise<Subject> {
  // A /v1/mcp call acts as its key's user, who decides on it (with admins).
  if (approval.apiKeyId) return { kind: 'api_key', id: approval.apiKeyId, ownerId: approval.ownerId };
  const em = deps.orm.em.fork();
  if (approval.automationId) {
    const automation = await em.findOne(Automation, { id: approval.automationId, organizationId: approval.organizationId }, { fields: ['id', 'ownerId'] });
    return { kind: 'automation', id: approval.automationId, ownerId: automation?.ownerId ?? approval.ownerId };
  }
  const assistant = await em.findOne(Assistant, { id: approval.assistantId!, organizationId: approval.organizationId }, { fields: ['id', 'ownerId'] });
  return { kind: 'assistant', id: approval.assistantId!, ownerId: assistant?.ownerId ?? approval.ownerId };
}

function assertCanDecide(subject: Subject, caller: Caller): void {
  if (subject.ownerId === caller.userId || hasRole(caller, 'admin')) return;
  const whose = subject.kind === 'api_key' ? "API key's user" : `${subject.kind}'s owner`;
  throw new AppError('forbidden', `Only the ${whose}, admins and the organization owner decide on its tool calls`);
}

/** `remember`: the tool needs no approval on this automation (or assistant) from now on (one atomic merge). */
async function rememberNever(deps: Deps, subject: Subject, tool: string): Promise<void> {
  const table = subject.kind === 'automation' ? 'automations' : 'assistants';
  await deps.orm.em.fork().getConnection().execute(
    `update "${table}" set "tool_approvals" = "tool_approvals" || ?::jsonb, "updated_at" = ? where "id" = ?`,
    [JSON.stringify({ [tool]: 'never' }), deps.clock.now(), subject.id],
  );
}

async function findApproval(deps: Deps, caller: Caller, id: string): Promise<ToolApproval> {
  const approval = approvalIdSchema.safeParse(id).success
    ? await deps.orm.em.fork().findOne(ToolApproval, { id, organizationId: caller.organizationId })
    : null;
  if (!approval) throw notFound('Approval');
  return approval;
}
