// Activities that give automation runs their tools: the tools of the automation owner's
// connections, and one tool call per activity (its own timeout; the workflow retries nothing
// a tool may already have done, see the retry policy where these are proxied).
import type { AppDeps } from '../runtime-deps.js';
import { toActivityFailure } from '../agent-run/retry.js';
import { withApprovalModes } from '../connectors/approval-modes.js';
import { callToolWithDlp, listConnectionTools, type ConnectionTools, type ToolBinding, type ToolCallResult } from '../connectors/tool-use.js';
import { settingsOfRow } from './run-plan.js';
import { ownerOfRun, runRowWithAutomation } from './run-rows.js';

export function createRunToolActivities(deps: Pick<AppDeps, 'config' | 'orm' | 'secrets' | 'logger' | 'clock' | 'gateway' | 'toolCalls'>) {
  const knex = () => deps.orm.em.getConnection().getKnex();
  return {
    /**
     * The run's tools (the automation's, plus its skill version's) resolved to its owner's connections,
     * as OpenAI function tools; the bindings of calls that wait for approval are marked.
     */
    async listRunTools(input: { runId: string }): Promise<ConnectionTools> {
      const row = await runRowWithAutomation(knex(), input.runId);
      if (!row) return { tools: [], bindings: {}, unavailable: [] };
      const em = deps.orm.em.fork();
      let settings;
      try {
        settings = await settingsOfRow(em, row);
      } catch (error) {
        throw toActivityFailure(error);
      }
      const tools = await listConnectionTools(deps, { organizationId: row.organizationId, userId: row.ownerId, toolIds: settings.tools });
      for (const missing of tools.unavailable) {
        deps.logger.warn({ runId: row.runId, automationId: row.automationId, toolId: missing.toolId }, 'run tool unavailable');
      }
      // Calls of tools under an `always` policy wait for a person (src/workflows/approval-wait.ts).
      return withApprovalModes(em, tools, { skillAlways: settings.approvalRequired, own: row.toolApprovals ?? {} });
    },

    /** One tool call, as the automation's owner now (the owner may have changed since the model chose it). */
    async callRunTool(input: { runId: string; organizationId: string; binding: ToolBinding; arguments: string }): Promise<ToolCallResult> {
      const ownerId = await ownerOfRun(knex(), input.runId, input.organizationId);
      if (!ownerId) return { text: 'Tool error: the automation of this run no longer exists', isError: true, truncated: false };
      return callToolWithDlp(deps, { ...input, userId: ownerId, source: { type: 'run', id: input.runId } }, toActivityFailure);
    },
  };
}
