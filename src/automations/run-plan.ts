// A run's plan, made once at its start from the rows of the run and its automation: its shape
// (tools, channels, skill version) and what the model call needs (`RunPrompt`). The run workflow
// carries the prompt into its later steps (the `carried-plan` path), so they do not read the
// rows again; the model call still checks the owner (one indexed lookup), since the owner may be
// disabled while the run waits.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';
import { OWNER_INACTIVE_MESSAGE } from '../identity/run-principal.js';
import { runSettingsFor, type AutomationRunSource, type RunSettings } from '../skills/run-settings.js';
import type { RunPrompt, RunTrigger } from '../workflows/run.contract.js';
import { recordRunSkill, type RunRow } from './run-rows.js';

export type { RunPrompt } from '../workflows/run.contract.js';

export interface RunPlan {
  automationName: string;
  toolCount: number;
  channelCount: number;
  skill: RunSettings['skill'];
  /** Absent from the plans of workers from before the `carried-plan` path. */
  prompt?: RunPrompt;
  /** True when the step that made the plan also passed the DLP scan of the prompt and context. */
  scanned?: boolean;
  /** The run's time of work (RUN_WORK_SECONDS) as its start saw it; absent from older plans (an hour). */
  workSeconds?: number;
}

/**
 * The plan of a recorded run. Throws AppError `forbidden` when the owner is no longer an active
 * member, `not_found` when the skill no longer resolves; records the skill version on the run
 * the first time (a retry finds it recorded and resolves that same version).
 */
export async function planOfRun(em: EntityManager, row: RunRow): Promise<RunPlan> {
  const settings = await settingsOfRow(em, row);
  if (settings.skill && !row.runSkillId) {
    // Unpinned = the latest version when the run starts; every later step uses this one.
    await recordRunSkill(em.getConnection().getKnex(), row.runId, settings.skill);
  }
  return {
    automationName: row.name,
    toolCount: settings.tools.length,
    channelCount: row.channels.length,
    skill: settings.skill,
    prompt: {
      organizationId: row.organizationId,
      automationId: row.automationId,
      model: settings.model,
      systemPrompt: settings.systemPrompt,
      trigger: row.trigger,
      startedAt: row.startedAt.toISOString(),
      context: row.context ?? null,
    },
  };
}

/**
 * The prompt, model and tools of a run: with the skill version recorded on the run once it has
 * one, so a version published mid-run does not change the run. A skill that can no longer be
 * resolved fails the run (not_found, permanent); so does an owner disabled or removed meanwhile
 * (forbidden, permanent).
 */
export async function settingsOfRow(em: EntityManager, row: RunRow): Promise<RunSettings> {
  if (row.ownerStatus !== 'active') throw new AppError('forbidden', OWNER_INACTIVE_MESSAGE, { param: 'ownerId' });
  const source: AutomationRunSource = {
    organizationId: row.organizationId,
    ownerId: row.ownerId,
    systemPrompt: row.systemPrompt,
    model: row.model,
    tools: row.tools,
    ...(row.runSkillId ? { skillId: row.runSkillId, skillVersion: row.runSkillVersion } : { skillId: row.skillId, skillVersion: row.skillVersion }),
  };
  return runSettingsFor(em, source);
}

export function contextText(context: unknown): string | null {
  return context === null || context === undefined ? null : JSON.stringify(context, null, 2);
}

/** The user message of a run: what triggered it, when, and its context. */
export function runInstruction(run: { trigger: RunTrigger; startedAt: string; context: unknown }): string {
  const lines = [`Run triggered by ${run.trigger} at ${run.startedAt}.`];
  const context = contextText(run.context);
  if (context) lines.push('', 'Context (JSON):', context);
  return lines.join('\n');
}
