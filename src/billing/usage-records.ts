// Billing owns usage_records (one row per upstream call that produced tokens: the source of
// summaries, budgets and each key's spend). Other features write and read them only through this
// module: the gateway's recorder writes each batch's usage with billing's insert statement, the key service asks it each key's
// spend this month.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { UsageSource } from './entities.js';
import { billingPeriodOf } from './period.js';

/** One call as billing records it; calls without a model or without tokens are no usage. */
export interface UsageEntry {
  organizationId: string;
  userId: string;
  apiKeyId: string | null;
  source: UsageSource;
  /** Run or webhook execution id, when the call belongs to one. */
  runId: string | null;
  requestId: string | null;
  /** The model id that answered (not the tier); null when no model answered. */
  model: string | null;
  provider: string | null;
  upstreamModel: string | null;
  /** Every prompt token, the cached ones below included. */
  inputTokens: number;
  outputTokens: number;
  /** Of inputTokens, read from the upstream's prompt cache (absent: none). */
  cacheReadTokens?: number | undefined;
  /** Of inputTokens, written to the upstream's prompt cache (absent: none). */
  cacheWriteTokens?: number | undefined;
  /** Of cacheWriteTokens, written with the 1-hour TTL. */
  cacheWrite1hTokens?: number | undefined;
  /** USD the cache reads saved: their cost at the input price less their cost (absent: 0). */
  cacheSaving?: number | undefined;
  /** USD. */
  cost: number;
  estimated: boolean;
  /** Answered from the gateway's response cache: no upstream call, cost 0. */
  cached: boolean;
  createdAt: Date;
}

/**
 * The statement that records the usage of a batch of calls: `rows` names a relation whose columns
 * are UsageEntry's property names, the optional cache ones included (null counts as 0; other
 * columns are ignored). The gateway's recorder puts it after
 * the CTEs that read its batch and write its request audit rows, so a batch is one statement: one
 * round trip, written whole or not at all. Ids are drawn by PostgreSQL.
 */
export function insertUsageRecordsFrom(rows: string): string {
  return `
insert into "usage_records" ("id", "organization_id", "user_id", "api_key_id", "source", "run_id", "request_id",
  "model", "provider", "upstream_model", "input_tokens", "output_tokens", "cost", "estimated", "cached", "created_at",
  "cache_read_tokens", "cache_write_tokens", "cache_write_1h_tokens", "cache_saving")
select gen_random_uuid(), "organizationId", "userId", "apiKeyId", "source", "runId", "requestId",
  "model", "provider", "upstreamModel", "inputTokens", "outputTokens", "cost", "estimated", "cached", "createdAt",
  coalesce("cacheReadTokens", 0), coalesce("cacheWriteTokens", 0), coalesce("cacheWrite1hTokens", 0), coalesce("cacheSaving", 0)
from ${rows}
where "model" is not null and "inputTokens" + "outputTokens" > 0`;
}

/** Each key's recorded spend (USD) in the billing period of `at`, by key id (one grouped query). */
export async function keySpendInPeriod(em: EntityManager, organizationId: string, keyIds: readonly string[], at: Date): Promise<Map<string, number>> {
  if (keyIds.length === 0) return new Map();
  const period = billingPeriodOf(at);
  const rows = await em.execute<Array<{ api_key_id: string; spent: number | string }>>(
    `select "api_key_id", coalesce(sum("cost"), 0) as "spent" from "usage_records"
      where "organization_id" = ? and "api_key_id" = any(?::uuid[]) and "created_at" >= ? and "created_at" < ?
      group by "api_key_id"`,
    [organizationId, `{${keyIds.join(',')}}`, period.start, period.end],
  );
  return new Map(rows.map((row) => [row.api_key_id, Number(row.spent)]));
}
