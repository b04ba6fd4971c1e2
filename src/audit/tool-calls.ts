// The record of every tool call, whoever made it (a run, a webhook execution, an MCP client through
// /v1/mcp): one `tool.called` audit event (tool, who, outcome, duration; the arguments only when
// AUDIT_TOOL_ARGUMENTS is on, and then as they left, after DLP masking) and the tool-call metrics.
// The events are written off the caller's path by group commit (src/db/group-commit.ts): the calls
// finished in one turn of the event loop, or while a write is in flight, share one statement and
// one commit. An interactive call through /v1/mcp answers without waiting for it (a
// synchronous commit was most of what the gateway added to a call on a busy disk); a run's
// activity waits, which costs it nothing it would notice. close() waits for every write begun,
// so a graceful shutdown loses nothing; a crash loses the events of the last few milliseconds'
// calls, as it does the gateway's buffered records. A failure to write is logged, never thrown:
// the call has happened (or been refused) and a retry of the caller would repeat it.
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

export class ToolCallLog {
  private readonly commits: GroupCommit<AuditRow>;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: ToolCallLogDeps) {
    this.commits = new GroupCommit<AuditRow>((rows) => this.insert(rows), { maxBatch: 200 });
  }

  /** Counts the call and writes its event; resolves once written (or its failure logged). Never rejects. */
  record(record: ToolCallRecord): Promise<void> {
    metrics.toolCalls.inc({ via: record.via, outcome: record.outcome });
    metrics.toolCallDuration.observe({ via: record.via, outcome: record.outcome }, record.durationMs / 1000);
    const written = this.commits.add(this.rowOf(record)).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, tool: record.tool, organizationId: record.organizationId }, 'could not record a tool call in the audit log');
    });
    this.inFlight.add(written);
    void written.finally(() => this.inFlight.delete(written));
    return written;
  }

  /** Waits for every event recorded so far to be written. */
  async close(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
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
