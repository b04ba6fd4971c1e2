// One decision on an approval request, whoever takes it (a user through the API, a signed link, an
// operator's signal, the timer): it moves the row only while the row is pending, so the first
// decision wins and any later one finds it decided. Approvals and denials are audited with who
// decided, in the same transaction as the change. A person decides only while the request's
// automation (or assistant) exists: once it is deleted, its requests are cancelled.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../runtime-deps.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import type { Caller } from '../identity/caller.js';
import { ToolApproval, type DecisionVia } from '../approval-policy/entities.js';
import { lockApprovalSubject, subjectDeletedReason, subjectOfApproval } from '../approval-policy/cancellation.js';

export interface Decision {
  status: 'approved' | 'denied' | 'expired';
  via: DecisionVia;
  reason: string | null;
  /** The user who decided (API). */
  actor?: Pick<Caller, 'userId' | 'apiKeyId'>;
  /** The channel a link was sent to. */
  channel?: string;
  /** Also made the tool `never` for the automation or assistant (API). */
  remember?: boolean;
  requestId?: string;
}

/**
 * Moves a pending request to `decision`; returns the row as it is afterwards and whether this
 * decision moved it. A person (API, link) decides only before the request expires; the
 * workflow's own outcomes (signal, timer) are taken whenever they arrive.
 */
export async function decideApproval(
  deps: Pick<AppDeps, 'orm' | 'clock'>,
  organizationId: string,
  id: string,
  decision: Decision,
): Promise<ToolApproval & { moved: boolean }> {
  const now = deps.clock.now();
  return deps.orm.em.fork().transactional(async (em) => {
    const byPerson = decision.via === 'api' || decision.via === 'link';
    if (byPerson && (await subjectGone(em, organizationId, id, now))) {
      return Object.assign(await em.findOneOrFail(ToolApproval, { id, organizationId }), { moved: false });
    }
    const moved = await em.nativeUpdate(
      ToolApproval,
      { id, organizationId, status: 'pending', ...(byPerson ? { expiresAt: { $gt: now } } : {}) },
      {
        status: decision.status,
        decidedAt: now,
        decidedBy: decision.actor?.userId ?? null,
        decidedVia: decision.via,
        decidedChannel: decision.channel ?? null,
        reason: decision.reason,
      },
    );
    const row = await em.findOneOrFail(ToolApproval, { id, organizationId });
    if (moved > 0 && decision.status !== 'expired') {
      recordAuditEvent(em, {
        organizationId,
        actor: decision.actor,
        action: `approval.${decision.status}`,
        target: { type: 'approval', id },
        metadata: {
          tool: row.tool,
          via: decision.via,
          ...(decision.channel ? { channel: decision.channel } : {}),
          ...(row.runId ? { runId: row.runId } : row.apiKeyId ? { apiKeyId: row.apiKeyId } : { executionId: row.executionId }),
          ...(decision.reason ? { reason: decision.reason } : {}),
          ...(decision.remember ? { remember: true } : {}),
        },
        requestId: decision.requestId,
        at: now,
      });
    }
    return Object.assign(row, { moved: moved > 0 });
  });
}

/**
 * True when the pending request's automation (or assistant) is gone: the request is cancelled then
 * (a delete that raced its recording missed it). Otherwise the subject's row stays locked until
 * the decision commits, so a delete cannot slip in between.
 */
async function subjectGone(em: EntityManager, organizationId: string, id: string, now: Date): Promise<boolean> {
  // Kept out of the identity map: the caller reads the row again after changing it.
  const row = await em.findOne(ToolApproval, { id, organizationId, status: 'pending' }, { disableIdentityMap: true });
  if (!row || (await lockApprovalSubject(em, row))) return false;
  await em.nativeUpdate(
    ToolApproval,
    { id, organizationId, status: 'pending' },
    { status: 'cancelled', decidedAt: now, decidedVia: 'cancel', reason: subjectDeletedReason(subjectOfApproval(row)) },
  );
  return true;
}
