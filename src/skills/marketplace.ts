// The public marketplace listing of one published skill, served where the default MARKETPLACE_URL
// points (`/marketplace/skills/{id}`), so a `marketplaceUrl` the API hands out resolves on the
// service itself. No authentication, so only what a listing needs: the skill's name,
// description and category, and its current version's number, model tier and tool ids. Never
// the organization, the author, the system prompt or version notes (signed-in callers read
// those through GET /v1/skills/{id}). A skill that is not published and public is 404, like an
// unknown one.
import type { Orm } from '../db/orm.js';
import { notFound } from '../errors.js';
import { Skill, SkillVersion, type ModelTier } from './entities.js';

export interface MarketplaceSkill {
  id: string;
  name: string;
  description: string;
  category: string;
  publishedAt: Date;
  currentVersion: { version: number; modelTier: ModelTier; tools: string[]; createdAt: Date };
}

export async function getMarketplaceSkill(deps: { orm: Orm }, id: string): Promise<MarketplaceSkill> {
  const em = deps.orm.em.fork();
  const skill = await em.findOne(Skill, { id, status: 'published', visibility: 'public' });
  const version = skill && skill.publishedAt ? await em.findOne(SkillVersion, { skillId: skill.id, version: skill.currentVersion }) : null;
  if (!skill || !skill.publishedAt || !version) throw notFound('Published skill');
  return {
    id: skill.id,
    name: skill.name,
    description: skill.description,
    category: skill.category,
    publishedAt: skill.publishedAt,
    currentVersion: { version: version.version, modelTier: version.modelTier, tools: version.tools, createdAt: version.createdAt },
  };
}
