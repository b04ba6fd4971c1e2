// Skills and their immutable versions. A skill holds the metadata that may change (name,
// description, category, visibility, publication); the prompt, tools and model tier live in
// numbered versions that never change once written (the database refuses updates to them).
import { randomUUID } from 'node:crypto';
import { EntitySchema, OptionalProps, PrimaryKeyProp } from '@mikro-orm/core';

export const SKILL_VISIBILITIES = ['private', 'team', 'public'] as const;
export type SkillVisibility = (typeof SKILL_VISIBILITIES)[number];
export const SKILL_STATUSES = ['draft', 'published'] as const;
export type SkillStatus = (typeof SKILL_STATUSES)[number];
export const MODEL_TIERS = ['standard', 'premium', 'enterprise'] as const;
export type ModelTier = (typeof MODEL_TIERS)[number];

export class Skill {
  [OptionalProps]?: 'id' | 'createdById' | 'visibility' | 'status' | 'currentVersion' | 'publishedAt' | 'createdAt' | 'updatedAt';
  id: string = randomUUID();
  organizationId!: string;
  /** The creator; null once that user is deleted (the skill stays with the organization). */
  createdById: string | null = null;
  name!: string;
  description!: string;
  category!: string;
  visibility: SkillVisibility = 'private';
  status: SkillStatus = 'draft';
  /** Number of the latest version; 0 only for a skill that has none yet. */
  currentVersion: number = 0;
  /** When the skill was published; null while it is a draft. */
  publishedAt: Date | null = null;
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

export class SkillVersion {
  [PrimaryKeyProp]?: ['skillId', 'version'];
  [OptionalProps]?: 'notes' | 'createdById' | 'createdAt' | 'approvalRequired';
  skillId!: string;
  version!: number;
  systemPrompt!: string;
  tools!: string[];
  /** Tools (`<connectorId>__<toolName>` or `<connectorId>__*`) whose calls always wait for a person's approval. */
  approvalRequired: string[] = [];
  modelTier!: ModelTier;
  notes: string | null = null;
  createdById: string | null = null;
  createdAt: Date = new Date();
}

export const SkillSchema = new EntitySchema<Skill>({
  class: Skill,
  tableName: 'skills',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    createdById: { type: 'uuid', nullable: true },
    name: { type: 'string', length: 100 },
    description: { type: 'string', length: 2000 },
    category: { type: 'string', length: 40 },
    visibility: { type: 'string', length: 16 },
    status: { type: 'string', length: 16 },
    currentVersion: { type: 'integer' },
    publishedAt: { type: 'datetime', length: 3, nullable: true },
    createdAt: { type: 'datetime', length: 3 },
    updatedAt: { type: 'datetime', length: 3 },
  },
});

export const SkillVersionSchema = new EntitySchema<SkillVersion>({
  class: SkillVersion,
  tableName: 'skill_versions',
  properties: {
    skillId: { type: 'uuid', primary: true },
    version: { type: 'integer', primary: true },
    systemPrompt: { type: 'text' },
    tools: { type: 'json' },
    approvalRequired: { type: 'json' },
    modelTier: { type: 'string', length: 16 },
    notes: { type: 'text', nullable: true },
    createdById: { type: 'uuid', nullable: true },
    createdAt: { type: 'datetime', length: 3 },
  },
});
