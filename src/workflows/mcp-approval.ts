// `mcp/<approvalId>`: one /v1/mcp tool call waiting for a person. The API records the
// request (a `tool_approvals` row) and starts this workflow, which owns what an approval's
// workflow owns for runs: it takes the decision signals, expires the request with a durable timer
// (APPROVAL_TIMEOUT_SECONDS), and settles the row's outcome (a decision the API recorded wins).
// The MCP request that asked, or the same call retried by the client later on any API process,
// waits for the outcome with the `awaitDecision` update; an approved call then runs in the API
// after a successful `claimApprovedCall`, which succeeds once, so an approval runs one call. The
// workflow ends when the approved call is claimed or the request's time is over.
import { allHandlersFinished, condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { LOST_ATTEMPT_NOTICE } from './agent-steps.js';
import { approveSignal, denySignal, type ApprovalSignal } from './approvals.contract.js';
import { awaitMcpDecisionUpdate, claimMcpCallUpdate, type McpApprovalInput, type McpApprovalOutcome } from './mcp-approval.contract.js';

const { settleToolApprovals } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  ...LOST_ATTEMPT_NOTICE,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
  summary: 'Record the outcome of the approval request',
});

export async function mcpApprovalWorkflow(input: McpApprovalInput): Promise<McpApprovalOutcome> {
  let signalled: { status: 'approved' | 'denied'; reason: string | null } | undefined;
  let outcome: McpApprovalOutcome | undefined = undefined;
  let claimed = false;
  const take = (status: 'approved' | 'denied') => (signal: ApprovalSignal | string) => {
    const { approvalId, reason } = typeof signal === 'string' ? { approvalId: signal, reason: undefined } : signal;
    if (approvalId === input.approvalId && !signalled) signalled = { status, reason: reason ? String(reason) : null };
  };
  setHandler(approveSignal, take('approved'));
  setHandler(denySignal, take('denied'));
  setHandler(awaitMcpDecisionUpdate, async () => {
    await condition(() => outcome !== undefined);
    return outcome!;
  });
  setHandler(claimMcpCallUpdate, () => {
    if (outcome?.status !== 'approved' || claimed) return false;
    claimed = true;
    return true;
  });

  const remainingMs = () => Math.max(1, Date.parse(input.expiresAt) - Date.now());
  await condition(() => signalled !== undefined, remainingMs());
  const [settled] = await settleToolApprovals({
    organizationId: input.organizationId,
    outcomes: [signalled ? { id: input.approvalId, status: signalled.status, via: 'signal', reason: signalled.reason } : { id: input.approvalId, status: 'expired', via: 'timer', reason: null }],
  });
  outcome = { status: settled!.status, reason: settled!.reason };
  if (outcome.status === 'approved') await condition(() => claimed, remainingMs());
  await condition(allHandlersFinished);
  return outcome;
}
