// Activities of the approval wait (src/workflows/approval-wait.ts): record one model turn's
// requests (arguments masked per the organization's DLP policy), settle their outcomes from the
// rows, cancel the undecided ones with their run. Each is safe to retry: requests are keyed by the
// id the workflow chose, and an outcome only moves a pending row.
import type { AppDeps } from '../runtime-deps.js';
import { Assistant } from '../assistants/entities.js';
import { Automation, AutomationRun } from '../automations/entities.js';
import { AppError } from '../errors.js';
import { guardOutgoingText } from '../gateway/dlp/outgoing.js';
import { WebhookExecution } from '../webhooks/entities.js';
import type { ApprovalRequestInput, ApprovalSubject, SettledApproval } from '../workflows/approvals.contract.js';
import { decideApproval, type Decision } from './decisions.js';
import { ToolApproval } from './entities.js';

type Deps = Pick<AppDeps, 'config' | 'orm' | 'clock' | 'gateway' | 'logger'>;

/** What the stored arguments say when the DLP policy blocks them (the call itself is blocked the same way). */
export const WITHHELD_ARGUMENTS = '[withheld: blocked by the DLP policy]';

export interface RequestApprovalsInput {
  organizationId: string;
  workflowId: string;
  requests: ApprovalRequestInput[];
}

export function createApprovalActivities(deps: Deps) {
  return {
    /** Records the turn's requests as pending (once per id) and returns when they expire. */
    async requestToolApprovals(input: RequestApprovalsInput & ApprovalSubject): Promise<{ expiresAt: string }> {
      const em = deps.orm.em.fork();
      const existing = await em.find(ToolApproval, { id: { $in: input.requests.map((request) => request.id) } });
      if (existing.length === input.requests.length) return { expiresAt: existing[0]!.expiresAt.toISOString() };
      const subject = await subjectOf(deps, input);
      const requestedAt = deps.clock.now();
      const expiresAt = new Date(requestedAt.getTime() + deps.config.APPROVAL_TIMEOUT_SECONDS * 1000);
      const source = 'runId' in input ? { type: 'run' as const, id: input.runId } : { type: 'webhook_execution' as const, id: input.executionId };
      for (const request of input.requests) {
        if (existing.some((row) => row.id === request.id)) continue;
        em.create(ToolApproval, {
          id: request.id,
          organizationId: input.organizationId,
          workflowId: input.workflowId,
          ...subject,
          tool: request.tool,
          arguments: await maskedArguments(deps, input.organizationId, request, source),
          requestedAt,
          expiresAt,
          status: 'pending',
        });
      }
      await em.flush();
      return { expiresAt: (existing[0]?.expiresAt ?? expiresAt).toISOString() };
    },

    /**
     * The outcome of each request: a row still pending takes the workflow's (an operator's signal,
     * or expiry when the timer fired); a row already decided (the API, a link) keeps its decision.
     */
    async settleToolApprovals(input: { organizationId: string; outcomes: Array<Pick<Decision, 'status' | 'via' | 'reason'> & { id: string }>; allDecided: boolean }): Promise<SettledApproval[]> {
      const settled: SettledApproval[] = [];
      for (const outcome of input.outcomes) {
        const row = await decideApproval(deps, input.organizationId, outcome.id, { status: outcome.status, via: outcome.via, reason: outcome.reason });
        settled.push({ id: outcome.id, status: row.status === 'pending' ? 'expired' : row.status, reason: row.reason });
      }
      return settled;
    },

    /** The requests of a cancelled run or execution that nobody decided become `cancelled`. */
    async cancelToolApprovals(input: { organizationId: string; ids: string[] }): Promise<void> {
      if (input.ids.length === 0) return;
      await deps.orm.em.fork().nativeUpdate(
        ToolApproval,
        { id: { $in: input.ids }, organizationId: input.organizationId, status: 'pending' },
        { status: 'cancelled', decidedAt: deps.clock.now(), decidedVia: 'cancel' },
      );
    },
  };
}

/** The run's automation and owner, or the execution's assistant and owner, as of the request. */
async function subjectOf(deps: Deps, input: ApprovalSubject & { organizationId: string }) {
  const em = deps.orm.em.fork();
  if ('runId' in input) {
    const run = await em.findOneOrFail(AutomationRun, { id: input.runId, organizationId: input.organizationId });
    const automation = await em.findOneOrFail(Automation, { id: run.automationId, organizationId: input.organizationId });
    return { runId: run.id, automationId: automation.id, ownerId: automation.ownerId };
  }
  const execution = await em.findOneOrFail(WebhookExecution, { id: input.executionId, organizationId: input.organizationId });
  const assistant = await em.findOneOrFail(Assistant, { id: execution.assistantId!, organizationId: input.organizationId });
  return { executionId: execution.id, assistantId: assistant.id, ownerId: assistant.ownerId };
}

/** The arguments as a person may see them: masked per the DLP policy, withheld when it blocks them. */
async function maskedArguments(deps: Deps, organizationId: string, request: ApprovalRequestInput, source: { type: 'run' | 'webhook_execution'; id: string }): Promise<string> {
  try {
    return await guardOutgoingText(deps, { organizationId, text: request.arguments, destination: `approval:${request.tool}`, source });
  } catch (error) {
    if (error instanceof AppError && error.code === 'dlp_blocked') return WITHHELD_ARGUMENTS;
    throw error;
  }
}
