// Assistant records: a system prompt, a model (id or tier) and where its answers go. An assistant
// with a webhook trigger is activated by HTTP POSTs to its webhook URL (see src/webhooks).
import { randomUUID } from 'node:crypto';
import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import type { ToolApprovals } from '../approval-policy/policy.js';
import type { StoredChannel } from '../channels/types.js';

export const ASSISTANT_TRIGGER_TYPES = ['webhook'] as const;
export type AssistantTriggerType = (typeof ASSISTANT_TRIGGER_TYPES)[number];

/** A channel as stored: same shape as an automation's (webhook signing secret encrypted). */
export type AssistantChannel = StoredChannel;

export class Assistant {
  [OptionalProps]?: 'id' | 'description' | 'skillId' | 'skillVersion' | 'tools' | 'toolApprovals' | 'channels' | 'triggerType' | 'createdAt' | 'updatedAt';
  id: string = randomUUID();
  organizationId!: string;
  /** The user who created it (kept for the record). */
  createdBy!: string;
  /** The user its executions act as (connections, skill access, usage); only they change what it runs. */
  ownerId!: string;
  name!: string;
  description: string = '';
  systemPrompt!: string;
  /** A model id or a tier name. */
  model!: string;
  skillId: string | null = null;
  /** The pinned version of that skill (the current one at create, or when the owner re-pins). */
  skillVersion: number | null = null;
  tools: string[] = [];
  /** Which tool calls wait for a person (src/approval-policy/policy.ts). */
  toolApprovals: ToolApprovals = {};
  channels: AssistantChannel[] = [];
  triggerType: AssistantTriggerType | null = null;
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

export const AssistantSchema = new EntitySchema<Assistant>({
  class: Assistant,
  tableName: 'assistants',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    createdBy: { type: 'uuid' },
    ownerId: { type: 'uuid' },
    name: { type: 'string', length: 200 },
    description: { type: 'text' },
    systemPrompt: { type: 'text' },
    model: { type: 'string', length: 200 },
    skillId: { type: 'string', length: 100, nullable: true },
    skillVersion: { type: 'integer', nullable: true },
    tools: { type: 'json' },
    toolApprovals: { type: 'json' },
    channels: { type: 'json' },
    triggerType: { type: 'string', length: 16, nullable: true },
    createdAt: { type: 'datetime', length: 3 },
    updatedAt: { type: 'datetime', length: 3, onUpdate: () => new Date() },
  },
});
