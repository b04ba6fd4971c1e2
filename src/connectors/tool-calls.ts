// The record of every tool call, whoever made it (a run, a webhook execution, an MCP client through
// /v1/mcp): one `tool.called` audit event (tool, who, outcome, duration; the arguments only when
// AUDIT_TOOL_ARGUMENTS is on, and then as they left, after DLP masking) and the tool-call metrics.
// A failure to write the record is logged, never thrown: the call has happened (or been refused)
// and a retry of the caller would repeat it.
import { recordAuditEvent, type AuditActor } from '../audit/audit.service.js';
import { metrics } from '../metrics.js';
import type { AppDeps } from '../runtime-deps.js';

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

export async function recordToolCall(deps: Pick<AppDeps, 'orm' | 'clock' | 'config' | 'logger'>, record: ToolCallRecord): Promise<void> {
  metrics.toolCalls.inc({ via: record.via, outcome: record.outcome });
  metrics.toolCallDuration.observe({ via: record.via, outcome: record.outcome }, record.durationMs / 1000);
  try {
    const em = deps.orm.em.fork();
    recordAuditEvent(em, {
      organizationId: record.organizationId,
      actor: record.actor,
      action: 'tool.called',
      target: record.source,
      metadata: {
        tool: record.tool,
        via: record.via,
        outcome: record.outcome,
        durationMs: Math.round(record.durationMs * 10) / 10,
        ...(record.approvalId ? { approvalId: record.approvalId } : {}),
        ...(deps.config.AUDIT_TOOL_ARGUMENTS && record.arguments !== undefined ? { arguments: record.arguments } : {}),
      },
      requestId: record.requestId,
      at: deps.clock.now(),
    });
    await em.flush();
  } catch (error) {
    deps.logger.warn({ err: error, tool: record.tool, organizationId: record.organizationId }, 'could not record a tool call in the audit log');
  }
}
