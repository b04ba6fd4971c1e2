// Approvals of interactive calls: a /v1/mcp tools/call of a tool under an `always`
// approval waits for a person through the existing approvals. The request is a `tool_approvals`
// row (tool, masked arguments, the API key, its user as owner), listed by GET /approvals and
// decided there (the key's user, admins, the organization owner; `remember` refused), and a short
// workflow `mcp/<approvalId>` (src/workflows/mcp-approval.ts) that takes the decision, expires the
// request on a durable timer and lets an approved call be claimed once. Why a workflow per call:
// an approval's decision, signals and expiry are a workflow's today, and a workflow is what any
// API process can wait on, so the request survives the MCP request that asked (a client that gave
// up after MCP_APPROVAL_WAIT_SECONDS, an API restart) and the same call retried later finds it.
// The MCP request waits up to MCP_APPROVAL_WAIT_SECONDS, sending progress notifications, then
// answers that the approval is pending; the call itself runs in the API, on the pooled session.
import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { ToolApproval } from '../approval-policy/entities.js';
import { toolKeyOf } from '../approval-policy/policy.js';
import { approvalLink } from '../approvals/links.js';
import { plaintextSummary } from '../payloads/plaintext-summaries.js';
import { SEARCH_ATTRIBUTES } from '../temporal.js';
import { awaitMcpDecisionUpdate, claimMcpCallUpdate, mcpApprovalWorkflowId, type McpApprovalInput, type McpApprovalOutcome } from '../workflows/mcp-approval.contract.js';
import type { CallContext, McpGatewayDeps } from './deps.js';
import type { CatalogTool } from './tool-catalog.js';

/** How often a waiting call tells the client it still waits. */
const PROGRESS_INTERVAL_MS = 5_000;

export interface ApprovalDecision {
  status: 'approved' | 'denied' | 'expired' | 'pending';
  approvalId: string;
  /** What the client is told when the call does not run. */
  message: string;
}

/** Waits for a decision on this call (a live request for the same call is reused); `approved` means the call may run now, once. */
export async function awaitApproval(deps: McpGatewayDeps, context: CallContext, tool: CatalogTool, argumentsText: string): Promise<ApprovalDecision> {
  const began = Date.now();
  const waitMs = deps.config.MCP_APPROVAL_WAIT_SECONDS * 1000;
  // A live request already used (its approved call claimed) or over is passed over for the next.
  const spent = new Set<string>();
  for (let round = 0; round < 3; round += 1) {
    const approval = (await liveApprovalOf(deps, context, tool, argumentsText, spent)) ?? (await requestApproval(deps, context, tool, argumentsText));
    const outcome = await waitForOutcome(deps, context, approval, Math.max(1, waitMs - (Date.now() - began)), tool);
    if (outcome === undefined) return pending(approval);
    if (outcome !== 'gone' && outcome.status !== 'approved') return refused(approval, outcome);
    if (outcome !== 'gone' && (await claim(deps, context, approval))) return { status: 'approved', approvalId: approval.id, message: '' };
    spent.add(approval.id);
  }
  return { status: 'expired', approvalId: [...spent].at(-1) ?? '', message: 'the approval request could not be waited on; call the tool again' };
}

/** A request for the same call by the same key that is still pending, or approved and not yet expired. */
async function liveApprovalOf(deps: McpGatewayDeps, context: CallContext, tool: CatalogTool, argumentsText: string, spent: ReadonlySet<string>): Promise<ToolApproval | null> {
  return deps.orm.em.fork().findOne(
    ToolApproval,
    {
      ...(spent.size > 0 ? { id: { $nin: [...spent] } } : {}),
      organizationId: context.caller.organizationId,
      apiKeyId: context.caller.apiKeyId!,
      tool: toolKeyOf(tool.toolId, tool.toolName),
      arguments: argumentsText,
      status: { $in: ['pending', 'approved'] },
      expiresAt: { $gt: deps.clock.now() },
    },
    { orderBy: { requestedAt: 'desc' } },
  );
}

/** Records the request and starts its workflow; a failed start leaves no pending row behind. */
async function requestApproval(deps: McpGatewayDeps, context: CallContext, tool: CatalogTool, argumentsText: string): Promise<ToolApproval> {
  const em = deps.orm.em.fork();
  const id = randomUUID();
  const requestedAt = deps.clock.now();
  const approval = em.create(ToolApproval, {
    id,
    organizationId: context.caller.organizationId,
    workflowId: mcpApprovalWorkflowId(id),
    apiKeyId: context.caller.apiKeyId!,
    ownerId: context.caller.userId,
    tool: toolKeyOf(tool.toolId, tool.toolName),
    arguments: argumentsText,
    requestedAt,
    expiresAt: new Date(requestedAt.getTime() + deps.config.APPROVAL_TIMEOUT_SECONDS * 1000),
    status: 'pending',
  });
  await em.flush();
  const input: McpApprovalInput = { organizationId: approval.organizationId, approvalId: id, expiresAt: approval.expiresAt.toISOString() };
  try {
    await deps.temporal.clientFor(approval.organizationId).workflow.start('mcpApprovalWorkflow', {
      workflowId: approval.workflowId,
      taskQueue: deps.temporal.taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      typedSearchAttributes: [{ key: SEARCH_ATTRIBUTES.OrganizationId, value: approval.organizationId }],
      staticSummary: plaintextSummary(`MCP tool call waiting for approval ${id}`),
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) {
      await em.nativeUpdate(ToolApproval, { id, status: 'pending' }, { status: 'cancelled', decidedAt: deps.clock.now(), decidedVia: 'cancel', reason: 'its workflow could not start' });
      throw error;
    }
  }
  void mailToKeyUser(deps, context, approval);
  return approval;
}

/**
 * The request goes to the key's user by e-mail with the two signed links (the same single-use,
 * expiring links the run's channels get); a failed send is logged: the API decides it as well.
 */
async function mailToKeyUser(deps: McpGatewayDeps, context: CallContext, approval: ToolApproval): Promise<void> {
  const channel = `email:${context.caller.email}`;
  const approveUrl = approvalLink(deps, approval, 'approve', channel);
  const denyUrl = approvalLink(deps, approval, 'deny', channel);
  try {
    await deps.mailer.send({
      to: context.caller.email,
      subject: `A tool call waits for your approval: ${approval.tool}`,
      messageId: `<approval.${approval.id}@ai-workspace>`,
      text: [
        `An MCP client using your API key asks to call ${approval.tool}.`,
        `Arguments: ${approval.arguments}`,
        `Approve: ${approveUrl}`,
        `Deny: ${denyUrl}`,
        `Expires ${approval.expiresAt.toISOString()}.`,
      ].join('\n'),
      link: approveUrl,
    });
  } catch (error) {
    deps.logger.warn({ err: error, approvalId: approval.id }, 'could not e-mail an approval request to the key\'s user');
  }
}

/**
 * The outcome, once decided, within `waitMs` (undefined past it), telling the client it waits
 * meanwhile; `gone` when the request's workflow has ended (its approval used or expired).
 */
async function waitForOutcome(deps: McpGatewayDeps, context: CallContext, approval: ToolApproval, waitMs: number, tool: CatalogTool): Promise<McpApprovalOutcome | undefined | 'gone'> {
  const handle = deps.temporal.clientFor(approval.organizationId).workflow.getHandle(approval.workflowId);
  const decided = handle.executeUpdate(awaitMcpDecisionUpdate).then(
    (outcome) => outcome,
    () => 'gone' as const,
  );
  const began = Date.now();
  const message = `${tool.name} waits for a person's approval (approval ${approval.id}: GET /v1/approvals/${approval.id})`;
  let timer: NodeJS.Timeout | undefined;
  let ticker: NodeJS.Timeout | undefined;
  const report = () => context.progress?.({ elapsedMs: Date.now() - began, totalMs: waitMs, message }).catch(() => {});
  try {
    void report();
    ticker = setInterval(() => void report(), Math.min(PROGRESS_INTERVAL_MS, Math.max(250, waitMs / 4)));
    return await Promise.race([
      decided,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), waitMs);
        context.signal?.addEventListener('abort', () => resolve(undefined), { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    clearInterval(ticker);
  }
}

/** Takes the approved call for this request; false when another call already took it or the request is over. */
async function claim(deps: McpGatewayDeps, context: CallContext, approval: ToolApproval): Promise<boolean> {
  try {
    return await deps.temporal.clientFor(context.caller.organizationId).workflow.getHandle(approval.workflowId).executeUpdate(claimMcpCallUpdate);
  } catch {
    return false;
  }
}

function pending(approval: ToolApproval): ApprovalDecision {
  return {
    status: 'pending',
    approvalId: approval.id,
    message: `the call waits for a person's approval: approval ${approval.id} is pending (expires ${approval.expiresAt.toISOString()}). Once it is approved in GET /v1/approvals, call the tool again with the same arguments and it runs at once.`,
  };
}

function refused(approval: ToolApproval, outcome: McpApprovalOutcome): ApprovalDecision {
  switch (outcome.status) {
    case 'denied':
      return { status: 'denied', approvalId: approval.id, message: `a person denied the call (approval ${approval.id})${outcome.reason ? `: ${outcome.reason}` : ''}` };
    case 'cancelled':
      return { status: 'denied', approvalId: approval.id, message: `approval ${approval.id} was cancelled${outcome.reason ? `: ${outcome.reason}` : ''}` };
    default:
      return { status: 'expired', approvalId: approval.id, message: `nobody approved the call before approval ${approval.id} expired` };
  }
}
