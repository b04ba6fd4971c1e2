// Writes the audit row of every gateway request and, through billing's writer, the usage record
// of every answered one, batched off the request path: records queue in memory and are inserted together every
// `flushIntervalMs` (or at once when a batch fills). close() flushes what is queued, so a
// graceful shutdown loses nothing.
import { insertUsageRecordsFrom, type UsageEntry } from '../billing/usage-records.js';
import type { Orm } from '../db/orm.js';
import { runPrepared } from '../db/prepared.js';
import type { Logger } from '../logger.js';
import type { GatewayOutcome } from './entities.js';

/** A request's audit row; its usage fields are billing's (UsageEntry), written as its usage record. */
export interface GatewayRequestEntry extends UsageEntry {
  modelRequested: string;
  stream: boolean;
  attempts: number;
  outcome: GatewayOutcome;
  status: number;
  errorCode: string | null;
  latencyMs: number;
  dlpFindings: Record<string, number>;
  promptText: string | null;
}

export interface RecorderOptions {
  flushIntervalMs?: number;
  maxBatch?: number;
  /** Records kept for a retry after a failed write, beyond which the oldest are dropped (and logged). */
  maxQueued?: number;
}

export class RequestRecorder {
  private queue: GatewayRequestEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly flushIntervalMs: number;
  private readonly maxBatch: number;
  private readonly maxQueued: number;

  constructor(private readonly orm: Orm, private readonly logger: Logger, options: RecorderOptions = {}) {
    this.flushIntervalMs = options.flushIntervalMs ?? 200;
    this.maxBatch = options.maxBatch ?? 500;
    this.maxQueued = options.maxQueued ?? 50_000;
  }

  record(entry: GatewayRequestEntry): void {
    this.queue.push(entry);
    if (this.queue.length >= this.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushIntervalMs).unref();
  }

  /** Writes everything queued so far; writes never overlap. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.writing = this.writing.then(() => this.writeQueued());
    return this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        await this.write(batch);
      } catch (error) {
        this.requeue(batch, error);
        return;
      }
    }
  }

  /**
   * One statement per batch: the rows travel as a single JSON parameter and PostgreSQL fans them
   * out into the audit rows and billing's usage records (billing's statement, `insertUsageRecordsFrom`),
   * so a batch costs one round trip and is written whole or not at all (a failed batch is retried
   * whole). The parameter is bound ($1), not inlined: MikroORM's execute() quotes every value into
   * the SQL text, which for a batch's JSON meant escaping it character by character on the API's
   * event loop. Row ids are drawn by PostgreSQL, so the entries are serialized as they are. A
   * prepared statement (runPrepared): parsed and planned once per connection.
   */
  private async write(batch: GatewayRequestEntry[]): Promise<void> {
    await runPrepared(this.orm, 'gateway-recorder-batch', INSERT_BATCH_SQL, [JSON.stringify(batch)]);
  }

  private requeue(batch: GatewayRequestEntry[], error: unknown): void {
    this.queue = [...batch, ...this.queue];
    const dropped = this.queue.length - this.maxQueued;
    if (dropped > 0) this.queue.splice(0, dropped);
    // Only the error's kind: database errors quote the row, which may hold prompt text.
    const { name, code } = error as { name?: string; code?: string };
    this.logger.error({ error: name, code, queued: this.queue.length, dropped: Math.max(0, dropped) }, 'gateway records not written; will retry');
    this.timer ??= setTimeout(() => void this.flush(), this.flushIntervalMs * 5).unref();
  }
}

/** The JSON keys are GatewayRequestEntry's property names, matched by json_to_recordset. */
const INSERT_BATCH_SQL = `
with "rows" as (
  select * from json_to_recordset(?::json) as r(
    "organizationId" uuid, "userId" uuid, "apiKeyId" uuid, "source" text,
    "runId" text, "requestId" text, "modelRequested" text, "model" text, "provider" text,
    "upstreamModel" text, "stream" boolean, "attempts" integer, "outcome" text, "status" integer,
    "errorCode" text, "latencyMs" integer, "inputTokens" integer, "outputTokens" integer,
    "estimated" boolean, "cost" double precision, "dlpFindings" jsonb, "promptText" text,
    "cached" boolean, "createdAt" timestamptz, "cacheReadTokens" integer, "cacheWriteTokens" integer,
    "cacheWrite1hTokens" integer, "cacheSaving" double precision
  )
), "audited" as (
  insert into "gateway_requests" ("id", "organization_id", "user_id", "api_key_id", "source", "run_id", "request_id",
    "model_requested", "model", "provider", "upstream_model", "stream", "attempts", "outcome", "status", "error_code",
    "latency_ms", "input_tokens", "output_tokens", "estimated", "cost", "dlp_findings", "prompt_text", "cached", "created_at",
    "cache_read_tokens", "cache_write_tokens", "cache_write_1h_tokens")
  select gen_random_uuid(), "organizationId", "userId", "apiKeyId", "source", "runId", "requestId",
    "modelRequested", "model", "provider", "upstreamModel", "stream", "attempts", "outcome", "status", "errorCode",
    "latencyMs", "inputTokens", "outputTokens", "estimated", "cost", "dlpFindings", "promptText", "cached", "createdAt",
    coalesce("cacheReadTokens", 0), coalesce("cacheWriteTokens", 0), coalesce("cacheWrite1hTokens", 0)
  from "rows"
)${insertUsageRecordsFrom('"rows"')}`;
