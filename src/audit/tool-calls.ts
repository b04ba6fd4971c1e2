// The record of every tool call, whoever made it (a run, a webhook execution, an MCP client through
// /v1/mcp): one `tool.called` audit event (tool, who, outcome, duration; the arguments only when
// AUDIT_TOOL_ARGUMENTS is on, and then as they left, after DLP masking) and the tool-call metrics.
// Buffered like the gateway's request records (src/gateway/recorder.ts): events queue in memory
// and are written every FLUSH_INTERVAL_MS by group commit (src/db/group-commit.ts: one statement
// per batch, a failed batch written row by row so one bad row loses only itself), off the call's
// path: a /v1/mcp call answered only after its own insert and commit spent more than the whole
// call to the server, and an insert per call was still the API's largest database cost once it
// was off the path. close() writes everything queued, so a graceful shutdown loses nothing; a
// crash loses the last FLUSH_INTERVAL_MS of events, as it does the gateway's records. A failure
// to write is logged, never thrown: the call has happened (or been refused) and a retry of the
// caller would repeat it.
import type { AuditActor } from './audit.service.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { GroupCommit } from '../db/group-commit.js';
import type { Orm } from '../db/orm.js';
import { runPrepared } from '../db/prepared.js';
import type { Logger } from '../logger.js';
import { metrics } from '../metrics.js';

/** ok, error (the tool or its connector failed), blocked (DLP), refused (owner, access, busy), denied / expired (approval). */
export type ToolCallOutcome = 'ok' | 'error' | 'blocked' | 'refused' | 'denied' | 'expired' | 'pending';

export interface ToolCallRecord {
  organizationId: string;
  actor: AuditActor;
  /** `<connectorId>__<toolName>` */
  tool: string;
  via: 'run' | 'mcp';
  /** What made the call: the run or execution, or the API key. */
  source: { type: string; id: string };
  outcome: ToolCallOutcome;
  durationMs: number;
  /** As sent to the tool (after masking); kept only when AUDIT_TOOL_ARGUMENTS is on. */
  arguments?: string | undefined;
  /** The approval request the call waited for. */
  approvalId?: string | undefined;
  requestId?: string | undefined;
}

export type ToolCallLogDeps = { orm: Orm; clock: Clock; config: Pick<Config, 'AUDIT_TOOL_ARGUMENTS'>; logger: Logger };

/** An audit_logs row as the batch statement reads it (json_to_recordset, by these property names). */
interface AuditRow {
  organizationId: string;
  actorUserId: string;
  actorApiKeyId: string | null;
  targetType: string;
  targetId: string;
  metadata: Record<string, unknown>;
  requestId: string | null;
  createdAt: string;
}

/** How long an event waits for others to share its insert. */
const FLUSH_INTERVAL_MS = 200;

export class ToolCallLog {
  private readonly commits: GroupCommit<AuditRow>;
  private queue: Array<{ row: AuditRow; tool: string }> = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly writing = new Set<Promise<void>>();

  constructor(private readonly deps: ToolCallLogDeps) {
    this.commits = new GroupCommit<AuditRow>((rows) => this.insert(rows), { maxBatch: 500 });
  }

  /** Counts the call and queues its event (written within FLUSH_INTERVAL_MS). */
  record(record: ToolCallRecord): void {
    metrics.toolCalls.inc({ via: record.via, outcome: record.outcome });
    metrics.toolCallDuration.observe({ via: record.via, outcome: record.outcome }, record.durationMs / 1000);
    this.queue.push({ row: this.rowOf(record), tool: record.tool });
    this.timer ??= setTimeout(() => this.flush(), FLUSH_INTERVAL_MS);
  }

  /** Writes every event queued so far (the rows added here in one turn share a statement). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const queued = this.queue;
    this.queue = [];
    for (const { row, tool } of queued) {
      const written = this.commits.add(row).catch((error: unknown) => {
        this.deps.logger.warn({ err: error, tool, organizationId: row.organizationId }, 'could not record a tool call in the audit log');
      });
      this.writing.add(written);
      void written.finally(() => this.writing.delete(written));
    }
    return Promise.all([...this.writing]).then(() => undefined);
  }

  /** Writes everything queued and waits for every write begun. */
  async close(): Promise<void> {
    await this.flush();
  }

  private rowOf(record: ToolCallRecord): AuditRow {
    return {
      organizationId: record.organizationId,
      actorUserId: record.actor.userId,
      actorApiKeyId: record.actor.apiKeyId ?? null,
      targetType: record.source.type,
      targetId: record.source.id,
      metadata: {
        tool: record.tool,
        via: record.via,
        outcome: record.outcome,
        durationMs: Math.round(record.durationMs * 10) / 10,
        ...(record.approvalId ? { approvalId: record.approvalId } : {}),
        ...(this.deps.config.AUDIT_TOOL_ARGUMENTS && record.arguments !== undefined ? { arguments: record.arguments } : {}),
      },
      requestId: record.requestId ?? null,
      createdAt: this.deps.clock.now().toISOString(),
    };
  }

  /** One statement per batch, its rows as one bound JSON parameter (see src/gateway/recorder.ts). */
  private async insert(rows: AuditRow[]): Promise<void> {
    await runPrepared(this.deps.orm, 'tool-called-batch', INSERT_SQL, [JSON.stringify(rows)]);
  }
}

const INSERT_SQL = `
insert into "audit_logs" ("id", "organization_id", "actor_user_id", "actor_api_key_id", "action", "target_type", "target_id", "metadata", "request_id", "created_at")
select gen_random_uuid(), "organizationId", "actorUserId", "actorApiKeyId", 'tool.called', "targetType", "targetId", "metadata", "requestId", "createdAt"
from json_to_recordset(?::json) as r(
  "organizationId" uuid, "actorUserId" uuid, "actorApiKeyId" uuid, "targetType" text, "targetId" text,
  "metadata" jsonb, "requestId" text, "createdAt" timestamptz
)`;
