// One approval request: a tool call of a run (or of a webhook execution, or of an MCP client through
// /v1/mcp with an API key) that waits for a person.
// The row is the record of the decision: the API decides by moving a pending row (a second
// decision finds it decided: 409), and the waiting workflow takes its outcome from the row.
import { EntitySchema, OptionalProps } from '@mikro-orm/core';

export const APPROVAL_STATUSES = ['pending', 'approved', 'denied', 'expired', 'cancelled'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
/** How a decision was taken: a user through the API, a signed link, an operator's Temporal signal, the timer. */
export const DECISION_VIAS = ['api', 'link', 'signal', 'timer', 'cancel'] as const;
export type DecisionVia = (typeof DECISION_VIAS)[number];

export class ToolApproval {
  [OptionalProps]?:
    | 'runId' | 'automationId' | 'executionId' | 'assistantId' | 'apiKeyId' | 'decidedAt' | 'decidedBy' | 'decidedVia' | 'decidedChannel' | 'reason' | 'notifiedChannels';
  id!: string;
  organizationId!: string;
  /** The waiting workflow: `run/<runId>`, `webhook/<executionId>` or `mcp/<approvalId>`. */
  workflowId!: string;
  runId: string | null = null;
  automationId: string | null = null;
  executionId: string | null = null;
  assistantId: string | null = null;
  /** A /v1/mcp call: the API key it was made with (then `ownerId` is the key's user). */
  apiKeyId: string | null = null;
  /** The owner the call acts as (the automation's or assistant's owner when it was requested). */
  ownerId!: string;
  /** `<connectorId>__<toolName>`. */
  tool!: string;
  /** The call's arguments (JSON text) after the organization's DLP masking. */
  arguments!: string;
  requestedAt!: Date;
  expiresAt!: Date;
  status!: ApprovalStatus;
  decidedAt: Date | null = null;
  /** The user who decided (API); null for a link, a signal, the timer. */
  decidedBy: string | null = null;
  decidedVia: DecisionVia | null = null;
  /** For a link: the channel it was sent to (`slack:#ops`, `email:a@b.c`, `webhook:https://...`). */
  decidedChannel: string | null = null;
  reason: string | null = null;
  /** Indexes of the channels the request was sent to. */
  notifiedChannels: number[] = [];
}

export const ToolApprovalSchema = new EntitySchema<ToolApproval>({
  class: ToolApproval,
  tableName: 'tool_approvals',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    workflowId: { type: 'string', length: 200 },
    runId: { type: 'uuid', nullable: true },
    automationId: { type: 'uuid', nullable: true },
    executionId: { type: 'string', length: 64, nullable: true },
    assistantId: { type: 'uuid', nullable: true },
    apiKeyId: { type: 'uuid', nullable: true },
    ownerId: { type: 'uuid' },
    tool: { type: 'string', length: 320 },
    arguments: { type: 'text' },
    requestedAt: { type: 'datetime', length: 3 },
    expiresAt: { type: 'datetime', length: 3 },
    status: { type: 'string', length: 16 },
    decidedAt: { type: 'datetime', length: 3, nullable: true },
    decidedBy: { type: 'uuid', nullable: true },
    decidedVia: { type: 'string', length: 16, nullable: true },
    decidedChannel: { type: 'string', length: 500, nullable: true },
    reason: { type: 'text', nullable: true },
    notifiedChannels: { type: 'json' },
  },
});
