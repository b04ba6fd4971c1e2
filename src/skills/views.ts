// The JSON shapes of skills, versions and publish results (SPEC "Skill", "Skill version",
// "Publish result"). A skill shows the prompt, tools and tier of its current version.
import type { ModelTier, Skill, SkillStatus, SkillVersion, SkillVisibility } from './entities.js';

export interface SkillVersionView {
  version: number;
  skillId: string;
  systemPrompt: string;
  tools: string[];
  /** Tools whose calls always wait for a person's approval. */
  approvalRequired: string[];
  modelTier: ModelTier;
  notes: string | null;
  createdAt: Date;
}

export interface SkillView {
  id: string;
  name: string;
  description: string;
  category: string;
  /** Of the current version; null only for a skill without versions. */
  systemPrompt: string | null;
  modelTier: ModelTier;
  tools: string[];
  visibility: SkillVisibility;
  status: SkillStatus;
  currentVersion: number;
  publishedAt: Date | null;
  /** Where the published skill is listed; null while it is a draft. */
  marketplaceUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SkillDetailView extends SkillView {
  /** Every version, newest first. */
  versions: SkillVersionView[];
}

export interface PublishResult {
  id: string;
  status: SkillStatus;
  publishedAt: Date;
  marketplaceUrl: string;
}

export function marketplaceUrlOf(marketplaceBase: string, skillId: string): string {
  return `${marketplaceBase}/skills/${skillId}`;
}

export function versionView(version: SkillVersion): SkillVersionView {
  return {
    version: version.version,
    skillId: version.skillId,
    systemPrompt: version.systemPrompt,
    tools: version.tools,
    approvalRequired: version.approvalRequired,
    modelTier: version.modelTier,
    notes: version.notes,
    createdAt: version.createdAt,
  };
}

export function skillView(skill: Skill, current: SkillVersion | undefined, marketplaceBase: string): SkillView {
  return {
    id: skill.id,
    name: skill.name,
    description: skill.description,
    category: skill.category,
    systemPrompt: current?.systemPrompt ?? null,
    modelTier: current?.modelTier ?? 'standard',
    tools: current?.tools ?? [],
    visibility: skill.visibility,
    status: skill.status,
    currentVersion: skill.currentVersion,
    publishedAt: skill.publishedAt,
    marketplaceUrl: skill.status === 'published' ? marketplaceUrlOf(marketplaceBase, skill.id) : null,
    createdAt: skill.createdAt,
    updatedAt: skill.updatedAt,
  };
}

/** `versions` newest first; the first is the current one. */
export function skillDetailView(skill: Skill, versions: SkillVersion[], marketplaceBase: string): SkillDetailView {
  return { ...skillView(skill, versions[0], marketplaceBase), versions: versions.map(versionView) };
}
