// Seeds usage records straight into usage_records (the rollup trigger fires as for the
// gateway's own inserts), for billing tests on a fresh organization.
import { randomUUID } from 'node:crypto';
import type { Orm } from '../../src/db/orm.js';
import { UsageRecord, type UsageSource } from '../../src/billing/entities.js';

export interface SeedRecord {
  at: string;
  userId: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  /** Prompt-cache reads, writes and what the reads saved (USD); default 0. */
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  cacheSaving?: number;
  /** Default gateway. */
  source?: UsageSource;
}

export async function seedUsage(orm: Orm, organizationId: string, records: SeedRecord[]): Promise<void> {
  const em = orm.em.fork();
  await em.insertMany(
    UsageRecord,
    records.map((record) => ({
      id: randomUUID(),
      organizationId,
      userId: record.userId,
      apiKeyId: null,
      source: record.source ?? 'gateway',
      runId: record.source && record.source !== 'gateway' ? `run-${randomUUID()}` : null,
      requestId: null,
      model: record.model,
      provider: 'fake',
      upstreamModel: `${record.model}-upstream`,
      inputTokens: record.inputTokens,
      outputTokens: record.outputTokens,
      cost: record.cost,
      cacheReadTokens: record.cacheReadTokens ?? 0,
      cacheWriteTokens: record.cacheWriteTokens ?? 0,
      cacheSaving: record.cacheSaving ?? 0,
      estimated: false,
      createdAt: new Date(record.at),
    })),
  );
}
