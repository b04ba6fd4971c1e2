// How an automation that names a skill runs: with the prompt, tools and model
// tier of the skill version it pins (automations pin one at create; the current version is only
// the fallback of a row that somehow has none).
// Kept here, beside the skill rules, so the automation run only has to call one function:
//   const settings = await runSettingsFor(em, automation);   // then use settings.* for the call
import type { EntityManager } from '@mikro-orm/postgresql';
import { resolveSkillVersion, type ResolvedSkillVersion } from './skills.service.js';

/** The parts of an automation a run needs; skillId/skillVersion are optional. */
export interface AutomationRunSource {
  organizationId: string;
  /** The automation's owner: the run sees the skills that user sees (their private ones too). */
  ownerId: string | null;
  systemPrompt: string;
  model: string;
  tools: string[];
  skillId?: string | null;
  skillVersion?: number | null;
}

export interface RunSettings {
  systemPrompt: string;
  /** A model id or tier name for the gateway. */
  model: string;
  tools: string[];
  /** The skill version's tools that always wait for a person's approval ([] without a skill). */
  approvalRequired: string[];
  /** The skill version the run used, for the run record; null without a skill. */
  skill: { skillId: string; version: number } | null;
}

/**
 * The settings of one run. A skill that is gone or no longer visible fails the run with
 * not_found (resolveSkillVersion), which the run records as its error.
 */
export async function runSettingsFor(em: EntityManager, automation: AutomationRunSource): Promise<RunSettings> {
  if (!automation.skillId) return withoutSkill(automation);
  const skill = await resolveSkillVersion(
    em,
    { organizationId: automation.organizationId, userId: automation.ownerId },
    automation.skillId,
    automation.skillVersion ?? undefined,
  );
  return withSkill(automation, skill);
}

export function withoutSkill(automation: AutomationRunSource): RunSettings {
  return { systemPrompt: automation.systemPrompt, model: automation.model, tools: [...automation.tools], approvalRequired: [], skill: null };
}

/**
 * The skill's prompt comes first (the reusable instructions), the automation's own prompt after
 * it (this job's specifics); the skill's tier is the model; the tools are the skill's plus any
 * the automation adds, each once.
 */
export function withSkill(automation: AutomationRunSource, skill: ResolvedSkillVersion): RunSettings {
  const ownPrompt = automation.systemPrompt.trim();
  return {
    systemPrompt: ownPrompt ? `${skill.systemPrompt}\n\n${automation.systemPrompt}` : skill.systemPrompt,
    model: skill.modelTier,
    tools: [...new Set([...skill.tools, ...automation.tools])],
    approvalRequired: [...skill.approvalRequired],
    skill: { skillId: skill.skillId, version: skill.version },
  };
}
