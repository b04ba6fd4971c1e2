// Response shapes of automations and runs (SPEC "Automation", "Run"). Channel secrets never leave
// the database except once, right after they were generated.
import type { PendingApprovalView } from '../approval-policy/views.js';
import type { Automation, AutomationRun } from './entities.js';

export interface AutomationListItem {
  id: string;
  name: string;
  description: string;
  status: string;
  schedule: string;
  timezone: string;
  model: string;
  lastRunAt: string | null;
  nextRunAt: string | null;
  createdAt: string;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function automationListItem(automation: Automation): AutomationListItem {
  return {
    id: automation.id,
    name: automation.name,
    description: automation.description,
    status: automation.status,
    schedule: automation.schedule,
    timezone: automation.timezone,
    model: automation.model,
    lastRunAt: iso(automation.lastRunAt),
    nextRunAt: iso(automation.nextRunAt),
    createdAt: automation.createdAt.toISOString(),
  };
}

/** The full automation; `revealedSecrets` (channel index -> secret) only right after generation. */
export function automationView(automation: Automation, revealedSecrets: Map<number, string> = new Map()) {
  return {
    ...automationListItem(automation),
    /** The user its runs act as (the list keeps the spec's fields only). */
    ownerId: automation.ownerId,
    systemPrompt: automation.systemPrompt,
    skillId: automation.skillId,
    skillVersion: automation.skillVersion,
    tools: automation.tools,
    toolApprovals: automation.toolApprovals,
    channels: automation.channels.map((channel, index) => ({
      type: channel.type,
      target: channel.target,
      ...(revealedSecrets.has(index) ? { secret: revealedSecrets.get(index) } : {}),
    })),
    skippedFires: automation.skippedFires,
    /** Fires missed while workers or the Temporal server were down and not caught up. */
    missedFires: automation.missedFires,
    updatedAt: automation.updatedAt.toISOString(),
  };
}

/** A run; `pendingApprovals` lists the tool calls it waits on (a running run only). */
export function runView(run: AutomationRun, pendingApprovals: PendingApprovalView[] = []) {
  return {
    id: run.id,
    automationId: run.automationId,
    trigger: run.trigger,
    status: run.status,
    startedAt: run.startedAt.toISOString(),
    completedAt: iso(run.completedAt),
    duration: run.durationMs,
    tokensInput: run.tokensInput,
    tokensOutput: run.tokensOutput,
    estimatedCost: run.estimatedCost,
    output: run.output,
    error: run.error,
    /** The skill version the run used (recorded when it started); null without a skill. */
    skill: run.skillId && run.skillVersion ? { skillId: run.skillId, version: run.skillVersion } : null,
    /** The run this one retries; null for any other run. */
    retryOf: run.retryOf,
    /** When the fire of a scheduled or catch-up run was due; null for other runs (and runs from before it was recorded). */
    scheduledFor: iso(run.scheduledFor),
    pendingApprovals,
  };
}
