// The security audit log: features record events in their own unit of work (so an event exists
// exactly when the change it describes was committed) and admins read them newest first.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEvent } from './entities.js';

/** Who acted, as the audit log names them (identity's `Caller` has this shape). */
export interface AuditActor {
  userId: string;
  apiKeyId?: string | undefined;
}

export interface AuditEventInput {
  organizationId: string;
  /** Who acted; omit for the system or an unauthenticated actor (e.g. accepting an invitation). */
  actor?: AuditActor | undefined;
  action: string;
  target?: { type: string; id: string } | undefined;
  /** Safe details only: ids, names, before/after values. Never keys, tokens or passwords. */
  metadata?: Record<string, unknown>;
  requestId?: string | undefined;
  at: Date;
}

/**
 * Adds an audit event to `em`'s unit of work; it is written by the caller's next flush (or
 * transaction commit), together with the change it records.
 */
export function recordAuditEvent(em: EntityManager, input: AuditEventInput): AuditEvent {
  return em.create(AuditEvent, {
    organizationId: input.organizationId,
    actorUserId: input.actor?.userId ?? null,
    actorApiKeyId: input.actor?.apiKeyId ?? null,
    action: input.action,
    targetType: input.target?.type ?? null,
    targetId: input.target?.id ?? null,
    metadata: input.metadata ?? {},
    requestId: input.requestId ?? null,
    createdAt: input.at,
  });
}

export interface AuditEventView {
  id: string;
  action: string;
  actorUserId: string | null;
  actorApiKeyId: string | null;
  targetType: string | null;
  targetId: string | null;
  metadata: Record<string, unknown>;
  requestId: string | null;
  createdAt: string;
}

export async function listAuditEvents(
  em: EntityManager,
  caller: { organizationId: string },
  page: { limit: number; offset: number },
): Promise<{ auditLogs: AuditEventView[]; total: number }> {
  const [events, total] = await em.findAndCount(
    AuditEvent,
    { organizationId: caller.organizationId },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: page.limit, offset: page.offset },
  );
  return { auditLogs: events.map(toView), total };
}

function toView(event: AuditEvent): AuditEventView {
  return {
    id: event.id,
    action: event.action,
    actorUserId: event.actorUserId,
    actorApiKeyId: event.actorApiKeyId,
    targetType: event.targetType,
    targetId: event.targetId,
    metadata: event.metadata,
    requestId: event.requestId,
    createdAt: event.createdAt.toISOString(),
  };
}
