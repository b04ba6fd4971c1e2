// Billing owns usage_records (one row per upstream call that produced tokens: the source of
// summaries, budgets and each key's spend). Other features write and read them only through this
// module: the gateway's recorder hands it each batch of calls, the key service asks it each key's
// spend this month.
import type { EntityManager, Knex } from '@mikro-orm/postgresql';
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
  inputTokens: number;
  outputTokens: number;
  /** USD. */
  cost: number;
  estimated: boolean;
  /** Answered from the gateway's response cache: no upstream call, cost 0. */
  cached: boolean;
  createdAt: Date;
}

/**
 * Writes the usage of a batch of calls in the caller's connection or transaction (the gateway
 * writes its request audit rows in the same one). `entriesJson` is `JSON.stringify` of
 * UsageEntry-shaped objects (other keys are ignored), bound as one parameter: one statement per
 * batch, and no quoting of the batch into the SQL text on the event loop.
 */
export async function insertUsageRecords(connection: Knex, entriesJson: string): Promise<void> {
  await connection.raw(INSERT_USAGE_SQL, [entriesJson]);
}

/** The JSON keys are UsageEntry's property names, matched by json_to_recordset; ids are drawn by PostgreSQL. */
const INSERT_USAGE_SQL = `
insert into "usage_records" ("id", "organization_id", "user_id", "api_key_id", "source", "run_id", "request_id",
  "model", "provider", "upstream_model", "input_tokens", "output_tokens", "cost", "estimated", "cached", "created_at")
select gen_random_uuid(), "organizationId", "userId", "apiKeyId", "source", "runId", "requestId",
  "model", "provider", "upstreamModel", "inputTokens", "outputTokens", "cost", "estimated", "cached", "createdAt"
from json_to_recordset(?::json) as r(
  "organizationId" uuid, "userId" uuid, "apiKeyId" uuid, "source" text, "runId" text, "requestId" text,
  "model" text, "provider" text, "upstreamModel" text, "inputTokens" integer, "outputTokens" integer,
  "cost" double precision, "estimated" boolean, "cached" boolean, "createdAt" timestamptz
)
where "model" is not null and "inputTokens" + "outputTokens" > 0`;

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
