// Approval requests whose automation or assistant is gone: nobody may decide them any more
// (SECURITY.md's third round). Deleting the subject cancels its pending requests in the delete's own
// transaction; a decision by a person locks the subject's row first and, finding it gone, cancels
// the request instead of deciding it, so a request recorded while the delete ran cannot be approved
// either. Cancellations are not audited (neither are those of a cancelled run).
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { ToolApproval } from './entities.js';

export type ApprovalSubjectRef = { automationId: string } | { assistantId: string } | { apiKeyId: string };

/** The reason a /v1/mcp request carries when its key was revoked (alone, or with its user). */
export const KEY_REVOKED_REASON = 'its API key was revoked';

/** The reason a request of a deleted subject carries. */
export function subjectDeletedReason(subject: ApprovalSubjectRef): string {
  if ('apiKeyId' in subject) return KEY_REVOKED_REASON;
  return `its ${'automationId' in subject ? 'automation' : 'assistant'} was deleted`;
}

/**
 * Cancels the subject's pending requests; returns the workflows that were waiting on them (one
 * each), so the caller can stop them.
 */
export async function cancelPendingApprovalsOf(em: EntityManager, organizationId: string, subject: ApprovalSubjectRef, now: Date): Promise<string[]> {
  return cancelPending(em, { organizationId, status: 'pending' as const, ...subject }, subjectDeletedReason(subject), now);
}

async function cancelPending(em: EntityManager, where: FilterQuery<ToolApproval>, reason: string, now: Date): Promise<string[]> {
  const waiting = await em.find(ToolApproval, where, { fields: ['id', 'workflowId'] });
  if (waiting.length === 0) return [];
  await em.nativeUpdate(ToolApproval, { $and: [where, { id: { $in: waiting.map((row) => row.id) } }] }, {
    status: 'cancelled', decidedAt: now, decidedVia: 'cancel', reason,
  });
  return [...new Set(waiting.map((row) => row.workflowId))];
}

/** `cancelPendingApprovalsOf` for all of the keys at once (a key and those under it, a disabled or removed user's). */
export async function cancelPendingApprovalsOfKeys(em: EntityManager, organizationId: string, apiKeyIds: string[], now: Date): Promise<string[]> {
  if (apiKeyIds.length === 0) return [];
  return cancelPending(em, { organizationId, status: 'pending' as const, apiKeyId: { $in: apiKeyIds } }, KEY_REVOKED_REASON, now);
}

/**
 * True while the request's automation (or assistant) exists; takes a key-share lock on its row
 * for the rest of the caller's transaction, so a delete waits for the decision (or the decision
 * for the delete, and then finds the row gone).
 */
export async function lockApprovalSubject(em: EntityManager, approval: Pick<ToolApproval, 'organizationId' | 'automationId' | 'assistantId' | 'apiKeyId'>): Promise<boolean> {
  // A /v1/mcp call's subject is its API key, while it is not revoked.
  if (approval.apiKeyId) {
    const keys = await em.getConnection().execute<unknown[]>(
      'select 1 from "api_keys" where "id" = ? and "organization_id" = ? and "revoked_at" is null for key share',
      [approval.apiKeyId, approval.organizationId],
      'all',
      em.getTransactionContext(),
    );
    return keys.length > 0;
  }
  const table = approval.automationId ? 'automations' : 'assistants';
  const id = approval.automationId ?? approval.assistantId;
  if (!id) return false;
  const rows = await em.getConnection().execute<unknown[]>(
    `select 1 from "${table}" where "id" = ? and "organization_id" = ? for key share`,
    [id, approval.organizationId],
    'all',
    em.getTransactionContext(),
  );
  return rows.length > 0;
}

/** The subject of a request, for `subjectDeletedReason`. */
export function subjectOfApproval(approval: Pick<ToolApproval, 'automationId' | 'assistantId' | 'apiKeyId'>): ApprovalSubjectRef {
  if (approval.apiKeyId) return { apiKeyId: approval.apiKeyId };
  return approval.automationId ? { automationId: approval.automationId } : { assistantId: approval.assistantId! };
}
