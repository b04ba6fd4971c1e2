// DLP on text a run sends out of the organization by itself, outside a model call: the output
// delivered to a channel (Slack, e-mail, webhook) and the arguments of a tool call sent to an MCP
// server. Same policy and actions as the gateway's scan: block throws `dlp_blocked` naming the
// detector types, mask returns the masked text, log passes it on. Whatever was found is written to
// the audit log as types and counts, never the matched text.
import { recordAuditEvent } from '../../audit/audit.service.js';
import type { Clock } from '../../clock.js';
import type { Orm } from '../../db/orm.js';
import { AppError } from '../../errors.js';
import { metrics } from '../../metrics.js';
import type { DlpPolicies } from './policy.js';
import { applyPolicyAsync } from './scanner.js';

export interface OutgoingDlpDeps {
  orm: Orm;
  clock: Clock;
  gateway: { dlpPolicies: DlpPolicies };
}

export interface OutgoingText {
  organizationId: string;
  text: string;
  /** Where the text goes, for the audit event: `channel:slack`, `tool:<connector>`... */
  destination: string;
  /** The run or webhook execution sending it. */
  source: { type: 'run' | 'webhook_execution'; id: string };
}

/** The text as it may leave (masked per the policy); AppError `dlp_blocked` when the policy blocks what it holds. */
export async function guardOutgoingText(deps: OutgoingDlpDeps, input: OutgoingText): Promise<string> {
  const policy = await deps.gateway.dlpPolicies.policyFor(input.organizationId);
  const result = await applyPolicyAsync(input.text, policy);
  if (Object.keys(result.counts).length === 0) return input.text;
  const em = deps.orm.em.fork();
  recordAuditEvent(em, {
    organizationId: input.organizationId,
    action: result.blocked.length > 0 ? 'dlp.blocked' : 'dlp.scanned',
    target: input.source,
    metadata: { destination: input.destination, findings: result.counts, blocked: result.blocked, masked: result.text !== input.text },
    at: deps.clock.now(),
  });
  await em.flush();
  if (result.blocked.length > 0) {
    for (const detector of result.blocked) metrics.dlpBlocks.inc({ detector });
    throw new AppError('dlp_blocked', `Blocked by the data-loss-prevention policy before ${input.destination}: found ${result.blocked.join(', ')}`, {
      details: { detectors: result.blocked },
    });
  }
  return result.text;
}
