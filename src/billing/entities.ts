// Usage records: one per upstream call that produced tokens (gateway request, run step), the
// source of billing summaries. Written and read by other features only through usage-records.ts.
import { randomUUID } from 'node:crypto';
import { EntitySchema, OptionalProps } from '@mikro-orm/core';

export const USAGE_SOURCES = ['gateway', 'automation', 'webhook', 'assistant'] as const;
export type UsageSource = (typeof USAGE_SOURCES)[number];

export class UsageRecord {
  [OptionalProps]?: 'id' | 'createdAt' | 'apiKeyId' | 'runId' | 'estimated' | 'requestId' | 'cached' | 'cacheReadTokens' | 'cacheWriteTokens' | 'cacheWrite1hTokens' | 'cacheSaving';
  id: string = randomUUID();
  organizationId!: string;
  userId!: string;
  apiKeyId: string | null = null;
  source!: UsageSource;
  /** Run or webhook execution id, when the call belongs to one. */
  runId: string | null = null;
  requestId: string | null = null;
  /** The model id that answered (not the tier). */
  model!: string;
  provider!: string;
  upstreamModel!: string;
  inputTokens!: number;
  outputTokens!: number;
  /** Of inputTokens, read from the upstream's prompt cache. */
  cacheReadTokens: number = 0;
  /** Of inputTokens, written to the upstream's prompt cache. */
  cacheWriteTokens: number = 0;
  /** Of cacheWriteTokens, written with the 1-hour TTL. */
  cacheWrite1hTokens: number = 0;
  /** USD the cache reads saved (their cost at the input price less their cost). */
  cacheSaving: number = 0;
  /** USD. */
  cost!: number;
  estimated: boolean = false;
  /** Answered from the gateway's response cache: no upstream call, cost 0. */
  cached: boolean = false;
  createdAt: Date = new Date();
}

export const UsageRecordSchema = new EntitySchema<UsageRecord>({
  class: UsageRecord,
  tableName: 'usage_records',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    userId: { type: 'uuid' },
    apiKeyId: { type: 'uuid', nullable: true },
    source: { type: 'string', length: 16 },
    runId: { type: 'string', length: 100, nullable: true },
    requestId: { type: 'string', length: 128, nullable: true },
    model: { type: 'string', length: 200 },
    provider: { type: 'string', length: 100 },
    upstreamModel: { type: 'string', length: 200 },
    inputTokens: { type: 'integer' },
    outputTokens: { type: 'integer' },
    cacheReadTokens: { type: 'integer' },
    cacheWriteTokens: { type: 'integer' },
    cacheWrite1hTokens: { type: 'integer', fieldName: 'cache_write_1h_tokens' },
    cacheSaving: { type: 'double' },
    cost: { type: 'double' },
    estimated: { type: 'boolean' },
    cached: { type: 'boolean' },
    createdAt: { type: 'datetime', length: 3 },
  },
});
