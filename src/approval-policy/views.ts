// Response shapes of approval requests: the full request (GET /approvals), and the short form a
// run's or execution's view lists while it waits (`pendingApprovals`).
import type { EntityManager } from '@mikro-orm/core';
import { ToolApproval } from './entities.js';

export interface PendingApprovalView {
  id: string;
  tool: string;
  arguments: string;
  expiresAt: string;
}

export function approvalView(approval: ToolApproval) {
  return {
    id: approval.id,
    status: approval.status,
    tool: approval.tool,
    /** The call's arguments (JSON text) after DLP masking. */
    arguments: approval.arguments,
    runId: approval.runId,
    automationId: approval.automationId,
    executionId: approval.executionId,
    assistantId: approval.assistantId,
    /** A /v1/mcp call: the API key that made it. */
    apiKeyId: approval.apiKeyId,
    requestedAt: approval.requestedAt.toISOString(),
    expiresAt: approval.expiresAt.toISOString(),
    decidedAt: approval.decidedAt?.toISOString() ?? null,
    decidedBy: approval.decidedBy,
    /** api (a user), link (a signed link sent to a channel), signal (an operator), timer (expired), cancel. */
    decidedVia: approval.decidedVia,
    decidedChannel: approval.decidedChannel,
    reason: approval.reason,
  };
}

/** The pending requests of the given runs (`runId`) or executions (`executionId`), by owner id. */
export async function pendingApprovalsOf(
  em: EntityManager,
  organizationId: string,
  key: 'runId' | 'executionId',
  ids: string[],
): Promise<Map<string, PendingApprovalView[]>> {
  const byOwner = new Map<string, PendingApprovalView[]>();
  if (ids.length === 0) return byOwner;
  const rows = await em.find(ToolApproval, { organizationId, [key]: { $in: ids }, status: 'pending' }, { orderBy: { requestedAt: 'asc', id: 'asc' } });
  for (const row of rows) {
    const owner = row[key]!;
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), { id: row.id, tool: row.tool, arguments: row.arguments, expiresAt: row.expiresAt.toISOString() }]);
  }
  return byOwner;
}
