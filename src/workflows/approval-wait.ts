// Waiting for people to decide on tool calls, for the run and the webhook-execution
// workflows. The calls of one model turn under an `always` policy are recorded together (one
// activity, which also sends them to the channels), then the workflow waits for a decision on each
// (the `approve` / `deny` signals) or for their expiry (one durable timer). The rows are the
// record: the outcome of each request comes back from `settleToolApprovals`, so a decision the
// API recorded wins over a signal or the timer that raced it. While it waits the workflow holds no
// worker slot and no budget reservation (a model call reserves and settles within its activity).
import { CancellationScope, condition, isCancellation, patched, proxyActivities, setHandler, uuid4 } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { LOST_ATTEMPT_NOTICE } from './agent-steps.js';
import type { ApprovalCall } from './tool-loop.js';
import { approveSignal, denySignal, type ApprovalSignal, type ApprovalSubject, type SettledApproval } from './approvals.contract.js';

const bookkeeping = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 };
const { requestToolApprovals } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute', ...LOST_ATTEMPT_NOTICE, retry: bookkeeping, summary: 'Record the approval requests and send them to the channels',
});
const { settleToolApprovals, cancelToolApprovals } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds', ...LOST_ATTEMPT_NOTICE, retry: bookkeeping, summary: 'Record the outcome of the approval requests',
});

/**
 * Marks histories where a tool call waited for approval. Executions from before approvals never
 * reach the wait (their tool listings mark no binding); were one to, it would run the calls at
 * once as it did.
 */
export const TOOL_APPROVALS_PATCH = 'tool-approvals';

export interface ApprovalWaiter {
  /** Waits for a decision on each call; per call id, null (approved: make the call) or the tool result the model gets instead. */
  awaitApprovals(calls: ApprovalCall[]): Promise<Record<string, string | null>>;
  /** Milliseconds this workflow has spent waiting for people so far. */
  waitedMs(): number;
}

export function approvalWaiter(subject: ApprovalSubject & { organizationId: string; workflowId: string }): ApprovalWaiter {
  const signalled = new Map<string, { status: 'approved' | 'denied'; reason?: string }>();
  let listening = false;
  let waited = 0;

  function listen(): void {
    if (listening) return;
    listening = true;
    // The first decision wins here too; the row decides in the end (settleToolApprovals).
    const take = (status: 'approved' | 'denied') => (signal: ApprovalSignal | string) => {
      const { approvalId, reason } = typeof signal === 'string' ? { approvalId: signal, reason: undefined } : signal;
      if (typeof approvalId === 'string' && !signalled.has(approvalId)) signalled.set(approvalId, { status, ...(reason ? { reason: String(reason) } : {}) });
    };
    setHandler(approveSignal, take('approved'));
    setHandler(denySignal, take('denied'));
  }

  async function awaitApprovals(calls: ApprovalCall[]): Promise<Record<string, string | null>> {
    if (!patched(TOOL_APPROVALS_PATCH)) return Object.fromEntries(calls.map((call) => [call.callId, null]));
    listen();
    const requests = calls.map((call) => ({ id: uuid4(), callId: call.callId, tool: `${call.binding.toolId}__${call.binding.toolName}`, arguments: call.arguments }));
    const ids = requests.map((request) => request.id);
    const began = Date.now();
    try {
      const { expiresAt } = await requestToolApprovals({
        ...subject, requests: requests.map(({ id, tool, arguments: args }) => ({ id, tool, arguments: args })),
      });
      await condition(() => ids.every((id) => signalled.has(id)), Math.max(1, Date.parse(expiresAt) - Date.now()));
      const settled = await settleToolApprovals({
        organizationId: subject.organizationId,
        outcomes: ids.map((id) => {
          const signal = signalled.get(id);
          return signal ? { id, status: signal.status, via: 'signal' as const, reason: signal.reason ?? null } : { id, status: 'expired' as const, via: 'timer' as const, reason: null };
        }),
      });
      const byId = new Map(settled.map((outcome) => [outcome.id, outcome]));
      return Object.fromEntries(requests.map((request) => [request.callId, refusalOf(byId.get(request.id))]));
    } catch (error) {
      // Cancelled while waiting: the requests nobody decided are cancelled with the run.
      if (isCancellation(error)) await CancellationScope.nonCancellable(() => cancelToolApprovals({ organizationId: subject.organizationId, ids }));
      throw error;
    } finally {
      waited += Date.now() - began;
    }
  }

  return { awaitApprovals, waitedMs: () => waited };
}

/** What the model hears instead of the tool's result; null when the call was approved. */
export function refusalOf(outcome: SettledApproval | undefined): string | null {
  if (!outcome) return 'Tool call not run: its approval request was lost.';
  switch (outcome.status) {
    case 'approved':
      return null;
    case 'denied':
      return `Tool call not run: a person denied it${outcome.reason ? ` (reason: ${outcome.reason})` : ''}.`;
    case 'expired':
      return 'Tool call not run: nobody approved it before its approval request expired.';
    case 'cancelled':
      return 'Tool call not run: its approval request was cancelled.';
  }
}
