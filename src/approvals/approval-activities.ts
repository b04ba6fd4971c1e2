// Activities of the approval wait (src/workflows/approval-wait.ts): record one model turn's
// requests (arguments masked per the organization's DLP policy) and send each to the run's
// channels with its two signed links (once per channel), settle their outcomes from the
// rows, cancel the undecided ones with their run. Each is safe to retry: requests are keyed by the
// id the workflow chose, and an outcome only moves a pending row.
import type { AppDeps } from '../runtime-deps.js';
import { Assistant } from '../assistants/entities.js';
import { Automation, AutomationRun } from '../automations/entities.js';
import { AppError } from '../errors.js';
import { guardOutgoingText } from '../gateway/dlp/outgoing.js';
import { createChannelSender, type ChannelSender } from '../channels/index.js';
import type { StoredChannel } from '../channels/types.js';
import { WebhookExecution } from '../webhooks/entities.js';
import type { ApprovalRequestInput, ApprovalSubject, SettledApproval } from '../workflows/approvals.contract.js';
import { decideApproval, type Decision } from './decisions.js';
import { ToolApproval } from '../approval-policy/entities.js';
import { approvalLink } from './links.js';

type Deps = Pick<AppDeps, 'config' | 'orm' | 'clock' | 'gateway' | 'logger' | 'secrets' | 'mailer'>;

/** What the stored arguments say when the DLP policy blocks them (the call itself is blocked the same way). */
export const WITHHELD_ARGUMENTS = '[withheld: blocked by the DLP policy]';

export interface RequestApprovalsInput {
  organizationId: string;
  workflowId: string;
  requests: ApprovalRequestInput[];
}

export function createApprovalActivities(deps: Deps) {
  const channels = createChannelSender(deps);
  return {
    /** Records the turn's requests as pending (once per id) and returns when they expire. */
    async requestToolApprovals(input: RequestApprovalsInput & ApprovalSubject): Promise<{ expiresAt: string }> {
      const em = deps.orm.em.fork();
      const existing = await em.find(ToolApproval, { id: { $in: input.requests.map((request) => request.id) } });
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
          ...subject.ids,
          ownerId: subject.ownerId,
          tool: request.tool,
          arguments: await maskedArguments(deps, input.organizationId, request, source),
          requestedAt,
          expiresAt,
          status: 'pending',
        });
      }
      await em.flush();
      const recorded = await em.find(ToolApproval, { id: { $in: input.requests.map((request) => request.id) } }, { orderBy: { tool: 'asc', id: 'asc' } });
      await notifyChannels(deps, channels, subject, recorded);
      return { expiresAt: recorded[0]!.expiresAt.toISOString() };
    },

    /**
     * The outcome of each request: a row still pending takes the workflow's (an operator's signal,
     * or expiry when the timer fired); a row already decided (the API, a link) keeps its decision.
     */
    async settleToolApprovals(input: { organizationId: string; outcomes: Array<Pick<Decision, 'status' | 'via' | 'reason'> & { id: string }> }): Promise<SettledApproval[]> {
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

interface Subject {
  ids: { runId: string; automationId: string } | { executionId: string; assistantId: string };
  ownerId: string;
  name: string;
  channels: StoredChannel[];
}

/** The run's automation, or the execution's assistant, as of the request: owner, name, channels. */
async function subjectOf(deps: Deps, input: ApprovalSubject & { organizationId: string }): Promise<Subject> {
  const em = deps.orm.em.fork();
  if ('runId' in input) {
    const run = await em.findOneOrFail(AutomationRun, { id: input.runId, organizationId: input.organizationId });
    const automation = await em.findOneOrFail(Automation, { id: run.automationId, organizationId: input.organizationId });
    return { ids: { runId: run.id, automationId: automation.id }, ownerId: automation.ownerId, name: automation.name, channels: automation.channels };
  }
  const execution = await em.findOneOrFail(WebhookExecution, { id: input.executionId, organizationId: input.organizationId });
  const assistant = await em.findOneOrFail(Assistant, { id: execution.assistantId!, organizationId: input.organizationId });
  return { ids: { executionId: execution.id, assistantId: assistant.id }, ownerId: assistant.ownerId, name: assistant.name, channels: assistant.channels };
}

/**
 * Sends each request to each channel, with the links signed for that channel. A channel that
 * fails is logged and left (the request can still be decided through the API or a signal); one
 * that took it is recorded on the row, so a retried activity does not send it twice.
 */
async function notifyChannels(deps: Deps, sender: ChannelSender, subject: Subject, approvals: ToolApproval[]): Promise<void> {
  if (subject.channels.length === 0) return;
  const source = 'runId' in subject.ids ? { type: 'run' as const, id: subject.ids.runId } : { type: 'webhook_execution' as const, id: subject.ids.executionId };
  const organizationId = approvals[0]?.organizationId ?? '';
  for (const approval of approvals) {
    for (const [index, channel] of subject.channels.entries()) {
      if (approval.notifiedChannels.includes(index)) continue;
      try {
        const name = await guardOutgoingText(deps, { organizationId, text: subject.name, destination: `channel:${channel.type}`, source });
        await sender.send(
          { type: channel.type, target: channel.target, secret: channel.encryptedSecret ? deps.secrets.decrypt(channel.encryptedSecret) : undefined },
          approvalMessage(deps, subject, name, approval, index, `${channel.type}:${channel.target}`),
        );
      } catch (error) {
        deps.logger.warn({ err: error, approvalId: approval.id, channelType: channel.type }, 'could not send an approval request to a channel');
        continue;
      }
      await deps.orm.em.fork().getConnection().execute(
        `update "tool_approvals" set "notified_channels" = "notified_channels" || ?::jsonb where "id" = ?`,
        [JSON.stringify([index]), approval.id],
      );
    }
  }
}

function approvalMessage(deps: Deps, subject: Subject, name: string, approval: ToolApproval, index: number, channel: string) {
  const approveUrl = approvalLink(deps, approval, 'approve', channel);
  const denyUrl = approvalLink(deps, approval, 'deny', channel);
  return {
    kind: 'approval_requested' as const,
    deliveryId: `approval.${approval.id}.${index}`,
    approvalId: approval.id,
    subjectName: name,
    subject: subject.ids,
    tool: approval.tool,
    arguments: approval.arguments,
    expiresAt: approval.expiresAt.toISOString(),
    approveUrl,
    denyUrl,
    output: [
      `A tool call waits for your approval: ${approval.tool}`,
      `Arguments: ${approval.arguments}`,
      `Approve: ${approveUrl}`,
      `Deny: ${denyUrl}`,
      `Expires ${approval.expiresAt.toISOString()}.`,
    ].join('\n'),
  };
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
