// The approval policy applied to the tools a run or webhook execution is offered: each binding
// whose mode is `always` is marked, so the workflow knows which calls wait (src/approval-policy/policy.ts
// says the precedence). The connections' defaults are read here, with the listing.
import type { EntityManager } from '@mikro-orm/core';
import { ToolConnection } from './entities.js';
import type { ConnectionTools } from './tool-use.js';
import { approvalModeFor, type ToolApprovals } from '../approval-policy/policy.js';

export async function withApprovalModes(
  em: EntityManager,
  tools: ConnectionTools,
  policy: { skillAlways: readonly string[]; own: ToolApprovals },
): Promise<ConnectionTools> {
  const connectionIds = [...new Set(Object.values(tools.bindings).map((binding) => binding.connectionId))];
  if (connectionIds.length === 0) return tools;
  const connections = await em.find(ToolConnection, { id: { $in: connectionIds } }, { fields: ['id', 'toolApprovals'] });
  const defaults = new Map(connections.map((connection) => [connection.id, connection.toolApprovals ?? {}]));
  const bindings = Object.fromEntries(
    Object.entries(tools.bindings).map(([name, binding]) => {
      const mode = approvalModeFor({ ...policy, connection: defaults.get(binding.connectionId) ?? {} }, binding.toolId, binding.toolName);
      return [name, mode === 'always' ? { ...binding, approval: 'always' as const } : binding];
    }),
  );
  return { ...tools, bindings };
}
