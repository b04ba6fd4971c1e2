// Gateway records: one audit row per chat request (who, what was asked, which target answered,
// how it went; DLP finding types and counts, never prompt text unless configured) and each
// organization's DLP policy.
import { randomUUID } from 'node:crypto';
import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import type { UsageSource } from '../billing/entities.js';

export const GATEWAY_OUTCOMES = ['success', 'failure', 'blocked', 'aborted', 'rejected'] as const;
export type GatewayOutcome = (typeof GATEWAY_OUTCOMES)[number];

export class GatewayRequestRecord {
  [OptionalProps]?: 'id' | 'createdAt' | 'cached';
  id: string = randomUUID();
  organizationId!: string;
  userId!: string;
  apiKeyId!: string | null;
  source!: UsageSource;
  runId!: string | null;
  requestId!: string | null;
  /** What the client sent as `model` (a model id or a tier). */
  modelRequested!: string;
  /** The model that answered, the provider and upstream model of the last target tried. */
  model!: string | null;
  provider!: string | null;
  upstreamModel!: string | null;
  stream!: boolean;
  attempts!: number;
  outcome!: GatewayOutcome;
  /** The HTTP status the client got (200 for success). */
  status!: number;
  errorCode!: string | null;
  latencyMs!: number;
  inputTokens!: number;
  outputTokens!: number;
  estimated!: boolean;
  cost!: number;
  /** Detector type -> number of matches. */
  dlpFindings!: Record<string, number>;
  /** Only when the config enables it (auditPromptText). */
  promptText!: string | null;
  /** Answered from the response cache (no upstream call, cost 0). */
  cached: boolean = false;
  createdAt: Date = new Date();
}

export const GatewayRequestRecordSchema = new EntitySchema<GatewayRequestRecord>({
  class: GatewayRequestRecord,
  tableName: 'gateway_requests',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    userId: { type: 'uuid' },
    apiKeyId: { type: 'uuid', nullable: true },
    source: { type: 'string', length: 16 },
    runId: { type: 'string', length: 100, nullable: true },
    requestId: { type: 'string', length: 128, nullable: true },
    modelRequested: { type: 'string', length: 200 },
    model: { type: 'string', length: 200, nullable: true },
    provider: { type: 'string', length: 100, nullable: true },
    upstreamModel: { type: 'string', length: 200, nullable: true },
    stream: { type: 'boolean' },
    attempts: { type: 'integer' },
    outcome: { type: 'string', length: 16 },
    status: { type: 'integer' },
    errorCode: { type: 'string', length: 64, nullable: true },
    latencyMs: { type: 'integer' },
    inputTokens: { type: 'integer' },
    outputTokens: { type: 'integer' },
    estimated: { type: 'boolean' },
    cost: { type: 'double' },
    dlpFindings: { type: 'json' },
    promptText: { type: 'text', nullable: true },
    cached: { type: 'boolean' },
    createdAt: { type: 'datetime', length: 3 },
  },
});

export class DlpPolicyRecord {
  [OptionalProps]?: 'updatedAt';
  organizationId!: string;
  /** Detector type -> action; detectors not listed use the defaults. */
  actions!: Record<string, string>;
  updatedBy!: string | null;
  updatedAt: Date = new Date();
}

export const DlpPolicyRecordSchema = new EntitySchema<DlpPolicyRecord>({
  class: DlpPolicyRecord,
  tableName: 'dlp_policies',
  properties: {
    organizationId: { type: 'uuid', primary: true },
    actions: { type: 'json' },
    updatedBy: { type: 'uuid', nullable: true },
    updatedAt: { type: 'datetime', length: 3 },
  },
});
