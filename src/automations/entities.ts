// Automation records: the automation (its configuration plus the schedule state the entity
// workflow writes back), its runs, and channel deliveries (one row per delivered output, the
// idempotency record that keeps a retried activity from posting twice).
import { randomUUID } from 'node:crypto';
import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import type { ToolApprovals } from '../approval-policy/policy.js';
import type { ChannelType, StoredChannel } from '../channels/types.js';
import type { AutomationStatus, RunTrigger } from '../workflows/run.contract.js';

// The run workflow's contract owns these (the workflow bundle reads them too).
export { AUTOMATION_STATUSES, RUN_TRIGGERS, type AutomationStatus, type RunTrigger } from '../workflows/run.contract.js';

export const RUN_STATUSES = ['running', 'success', 'failure'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export class Automation {
  [OptionalProps]?:
    | 'id' | 'description' | 'tools' | 'toolApprovals' | 'channels' | 'skillId' | 'skillVersion' | 'lastRunAt' | 'nextRunAt' | 'skippedFires' | 'missedFires' | 'stateVersion'
    | 'createdAt' | 'updatedAt';
  id: string = randomUUID();
  organizationId!: string;
  /** Who created it (kept for the record; runs do not act as them once ownership moved). */
  createdBy!: string;
  /**
   * The user a run acts as: their role, tool connections, skill access and usage. Initially the
   * creator; moved by take-ownership. Only they change what the automation runs.
   */
  ownerId!: string;
  name!: string;
  description: string = '';
  systemPrompt!: string;
  model!: string;
  schedule!: string;
  timezone!: string;
  tools: string[] = [];
  /** Which tool calls wait for a person (src/approval-policy/policy.ts); empty: none of its own. */
  toolApprovals: ToolApprovals = {};
  channels: StoredChannel[] = [];
  /** The skill whose prompt, tools and tier the runs use (see src/skills/run-settings.ts). */
  skillId: string | null = null;
  /** The pinned version of that skill: set at create and when the owner re-pins (never null with a skill). */
  skillVersion: number | null = null;
  status!: AutomationStatus;
  lastRunAt: Date | null = null;
  nextRunAt: Date | null = null;
  /** Scheduled fires skipped because a run was still running (before code 3 also: missed past the catch-up window). */
  skippedFires: number = 0;
  /** Fires missed while workers or the Temporal server were down and not caught up (docs/design.md "Missed fires"). */
  missedFires: number = 0;
  /** Version of the schedule state last written by the entity workflow; older writes are ignored. */
  stateVersion: number = 0;
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

export class AutomationRun {
  [OptionalProps]?:
    | 'completedAt' | 'durationMs' | 'tokensInput' | 'tokensOutput' | 'estimatedCost' | 'output' | 'error' | 'context'
    | 'skillId' | 'skillVersion' | 'retryOf' | 'scheduledFor';
  id!: string;
  automationId!: string;
  organizationId!: string;
  trigger!: RunTrigger;
  status!: RunStatus;
  startedAt!: Date;
  completedAt: Date | null = null;
  durationMs: number | null = null;
  tokensInput: number = 0;
  tokensOutput: number = 0;
  estimatedCost: number = 0;
  output: string | null = null;
  error: string | null = null;
  /** The webhook body that triggered the run, when there is one. */
  context: unknown = null;
  /** The skill version the run used, recorded when the run starts; every step of the run uses it. */
  skillId: string | null = null;
  skillVersion: number | null = null;
  /** The run this one retries (POST .../runs/{runId}/retry); null for any other run. */
  retryOf: string | null = null;
  /** When the fire of a scheduled or catch-up run was due (a catch-up run starts after it); null for other runs. */
  scheduledFor: Date | null = null;
}

export class ChannelDelivery {
  [OptionalProps]?: 'deliveredAt' | 'runId' | 'executionId';
  /** Stable across activity retries: `<runId or executionId>:<channelIndex>`. */
  id!: string;
  /** The automation run delivered, or null for a webhook execution's delivery (src/agent-run/delivery-records.ts). */
  runId: string | null = null;
  executionId: string | null = null;
  channelType!: ChannelType;
  /** What the channel answered (Slack ts, SMTP message id, HTTP status). */
  receipt!: string;
  deliveredAt: Date = new Date();
}

export const AutomationSchema = new EntitySchema<Automation>({
  class: Automation,
  tableName: 'automations',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    createdBy: { type: 'uuid' },
    ownerId: { type: 'uuid' },
    name: { type: 'string', length: 200 },
    description: { type: 'text' },
    systemPrompt: { type: 'text' },
    model: { type: 'string', length: 200 },
    schedule: { type: 'string', length: 200 },
    timezone: { type: 'string', length: 64 },
    tools: { type: 'json' },
    toolApprovals: { type: 'json' },
    channels: { type: 'json' },
    skillId: { type: 'uuid', nullable: true },
    skillVersion: { type: 'integer', nullable: true },
    status: { type: 'string', length: 16 },
    lastRunAt: { type: 'datetime', length: 3, nullable: true },
    nextRunAt: { type: 'datetime', length: 3, nullable: true },
    skippedFires: { type: 'integer' },
    missedFires: { type: 'integer' },
    stateVersion: { type: 'integer' },
    createdAt: { type: 'datetime', length: 3 },
    updatedAt: { type: 'datetime', length: 3, onUpdate: () => new Date() },
  },
});

export const AutomationRunSchema = new EntitySchema<AutomationRun>({
  class: AutomationRun,
  tableName: 'automation_runs',
  properties: {
    id: { type: 'uuid', primary: true },
    automationId: { type: 'uuid' },
    organizationId: { type: 'uuid' },
    trigger: { type: 'string', length: 16 },
    status: { type: 'string', length: 16 },
    startedAt: { type: 'datetime', length: 3 },
    completedAt: { type: 'datetime', length: 3, nullable: true },
    durationMs: { type: 'integer', nullable: true },
    tokensInput: { type: 'integer' },
    tokensOutput: { type: 'integer' },
    estimatedCost: { type: 'double' },
    output: { type: 'text', nullable: true },
    error: { type: 'text', nullable: true },
    context: { type: 'json', nullable: true },
    skillId: { type: 'uuid', nullable: true },
    skillVersion: { type: 'integer', nullable: true },
    retryOf: { type: 'uuid', nullable: true },
    scheduledFor: { type: 'datetime', length: 3, nullable: true },
  },
});

export const ChannelDeliverySchema = new EntitySchema<ChannelDelivery>({
  class: ChannelDelivery,
  tableName: 'channel_deliveries',
  properties: {
    id: { type: 'string', length: 80, primary: true },
    runId: { type: 'uuid', nullable: true },
    executionId: { type: 'string', length: 64, nullable: true },
    channelType: { type: 'string', length: 16 },
    receipt: { type: 'string', length: 500 },
    deliveredAt: { type: 'datetime', length: 3 },
  },
});
