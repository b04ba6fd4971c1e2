// Security audit log: who did what to which identity or setting, per organization. Never holds
// secrets (keys, tokens, passwords), only ids, names and before/after values of settings.
import { randomUUID } from 'node:crypto';
import { EntitySchema, OptionalProps } from '@mikro-orm/core';

export class AuditEvent {
  [OptionalProps]?: 'id' | 'createdAt' | 'actorUserId' | 'actorApiKeyId' | 'targetType' | 'targetId' | 'metadata' | 'requestId';
  id: string = randomUUID();
  organizationId!: string;
  /** The user who acted; null for the system or an anonymous sign-in attempt. */
  actorUserId: string | null = null;
  actorApiKeyId: string | null = null;
  /** Dotted verb, e.g. `api_key.created`, `user.role_changed`, `budget.updated`. */
  action!: string;
  targetType: string | null = null;
  targetId: string | null = null;
  metadata: Record<string, unknown> = {};
  requestId: string | null = null;
  createdAt: Date = new Date();
}

export const AuditEventSchema = new EntitySchema<AuditEvent>({
  class: AuditEvent,
  tableName: 'audit_logs',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    actorUserId: { type: 'uuid', nullable: true },
    actorApiKeyId: { type: 'uuid', nullable: true },
    action: { type: 'string', length: 64 },
    targetType: { type: 'string', length: 32, nullable: true },
    targetId: { type: 'string', length: 100, nullable: true },
    metadata: { type: 'json' },
    requestId: { type: 'string', length: 128, nullable: true },
    createdAt: { type: 'datetime', length: 3 },
  },
});
