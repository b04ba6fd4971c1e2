// Writes the audit row of every gateway request and the usage record of every answered one,
// batched off the request path: records queue in memory and are inserted together every
// `flushIntervalMs` (or at once when a batch fills). close() flushes what is queued, so a
// graceful shutdown loses nothing.
import { randomUUID } from 'node:crypto';
import { UsageRecord, type UsageSource } from '../billing/entities.js';
import type { Orm } from '../db/orm.js';
import type { Logger } from '../logger.js';
import { GatewayRequestRecord, type GatewayOutcome } from './entities.js';

export interface GatewayRequestEntry {
  organizationId: string;
  userId: string;
  apiKeyId: string | null;
  source: UsageSource;
  runId: string | null;
  requestId: string | null;
  modelRequested: string;
  model: string | null;
  provider: string | null;
  upstreamModel: string | null;
  stream: boolean;
  attempts: number;
  outcome: GatewayOutcome;
  status: number;
  errorCode: string | null;
  latencyMs: number;
  inputTokens: number;
  outputTokens: number;
  estimated: boolean;
  cost: number;
  dlpFindings: Record<string, number>;
  promptText: string | null;
  createdAt: Date;
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

  private async write(batch: GatewayRequestEntry[]): Promise<void> {
    const usage = batch.filter((entry) => entry.model !== null && entry.inputTokens + entry.outputTokens > 0).map(toUsageRecord);
    const em = this.orm.em.fork();
    await em.transactional(async (tx) => {
      await tx.insertMany(GatewayRequestRecord, batch.map((entry) => ({ id: randomUUID(), ...entry })));
      if (usage.length > 0) await tx.insertMany(UsageRecord, usage);
    });
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

function toUsageRecord(entry: GatewayRequestEntry): UsageRecord {
  return {
    id: randomUUID(),
    organizationId: entry.organizationId,
    userId: entry.userId,
    apiKeyId: entry.apiKeyId,
    source: entry.source,
    runId: entry.runId,
    requestId: entry.requestId,
    model: entry.model!,
    provider: entry.provider!,
    upstreamModel: entry.upstreamModel!,
    inputTokens: entry.inputTokens,
    outputTokens: entry.outputTokens,
    cost: entry.cost,
    estimated: entry.estimated,
    createdAt: entry.createdAt,
  };
}
