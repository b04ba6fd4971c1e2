// Every entity schema the ORM knows, registered by the composition root: each feature owns its
// schemas (and a migration) and is listed here, so src/db/ opens a database without knowing any
// feature. The entry points, the test helpers, the benchmarks and the scripts open the database
// with this list (`openDatabase(target, { entities })`); no feature imports it.
import { ToolApprovalSchema } from './approval-policy/entities.js';
import { AssistantSchema } from './assistants/entities.js';
import { WebhookExecutionSchema, WebhookSchema } from './webhooks/entities.js';
import { AutomationRunSchema, AutomationSchema, ChannelDeliverySchema } from './automations/entities.js';
import { UsageRecordSchema } from './billing/entities.js';
import { ToolConnectionSchema } from './connectors/entities.js';
import { DlpPolicyRecordSchema, GatewayRequestRecordSchema } from './gateway/entities.js';
import { StoredResponseItemSchema, StoredResponseSchema } from './gateway/responses.entities.js';
import { SkillSchema, SkillVersionSchema } from './skills/entities.js';
import { AuditEventSchema } from './audit/entities.js';
import type { OrmEntities } from './db/orm.js';
import { ApiKeySchema, InvitationSchema, OrganizationSchema, SessionSchema, UserSchema } from './identity/entities.js';

export const entities: OrmEntities = [
  OrganizationSchema,
  UserSchema,
  ApiKeySchema,
  SessionSchema,
  InvitationSchema,
  AuditEventSchema,
  UsageRecordSchema,
  ToolConnectionSchema,
  GatewayRequestRecordSchema,
  DlpPolicyRecordSchema,
  StoredResponseSchema,
  StoredResponseItemSchema,
  AssistantSchema,
  WebhookSchema,
  WebhookExecutionSchema,
  SkillSchema,
  SkillVersionSchema,
  AutomationSchema,
  AutomationRunSchema,
  ChannelDeliverySchema,
  ToolApprovalSchema,
];
