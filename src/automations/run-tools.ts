// Activities that give automation runs their tools: the tools of the automation owner's
// connections, and one tool call per activity (its own timeout; the workflow retries nothing
// a tool may already have done, see the retry policy where these are proxied).
import type { AppDeps } from '../runtime-deps.js';
import { toActivityFailure } from '../agent-run/retry.js';
import { withApprovalModes } from '../connectors/approval-modes.js';
import { callToolWithDlp, listConnectionTools, type ConnectionTools, type ToolBinding, type ToolCallResult } from '../connectors/tool-use.js';
import { Automation, AutomationRun } from './entities.js';
import { settingsOfRun } from './run-activities.js';

export function createRunToolActivities(deps: Pick<AppDeps, 'config' | 'orm' | 'secrets' | 'logger' | 'clock' | 'gateway'>) {
  return {
    /**
     * The run's tools (the automation's, plus its skill version's) resolved to its owner's connections,
     * as OpenAI function tools; the bindings of calls that wait for approval are marked.
     */
    async listRunTools(input: { runId: string }): Promise<ConnectionTools> {
      const em = deps.orm.em.fork();
      const run = await em.findOne(AutomationRun, { id: input.runId });
      const automation = run ? await em.findOne(Automation, { id: run.automationId, organizationId: run.organizationId }) : null;
      if (!run || !automation) return { tools: [], bindings: {}, unavailable: [] };
      const settings = await settingsOfRun(em, run, automation);
      const tools = await listConnectionTools(deps, { organizationId: automation.organizationId, userId: automation.ownerId, toolIds: settings.tools });
      for (const missing of tools.unavailable) {
        deps.logger.warn({ runId: run.id, automationId: automation.id, toolId: missing.toolId }, 'run tool unavailable');
      }
      // Calls of tools under an `always` policy wait for a person (src/workflows/approval-wait.ts).
      return withApprovalModes(em, tools, { skillAlways: settings.approvalRequired, own: automation.toolApprovals ?? {} });
    },

    /** One tool call, as the automation's owner now (the owner may have changed since the model chose it). */
    async callRunTool(input: { runId: string; organizationId: string; binding: ToolBinding; arguments: string }): Promise<ToolCallResult> {
      const em = deps.orm.em.fork();
      const run = await em.findOne(AutomationRun, { id: input.runId, organizationId: input.organizationId });
      const automation = run ? await em.findOne(Automation, { id: run.automationId, organizationId: run.organizationId }) : null;
      if (!automation) return { text: 'Tool error: the automation of this run no longer exists', isError: true, truncated: false };
      return callToolWithDlp(deps, { ...input, userId: automation.ownerId, source: { type: 'run', id: input.runId } }, toActivityFailure);
    },
  };
}
