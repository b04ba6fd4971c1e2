// Skills use cases: create (with version 1), list, read, change metadata, delete, add a version,
// publish to the marketplace, and resolve a version for a run. Every read goes through the
// visibility rules of access.ts; every write locks the skill row first, so concurrent writes to
// one skill (new versions above all) happen one after the other and never share a number.
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Orm } from '../db/orm.js';
import { AppError, badRequest, notFound } from '../errors.js';
import type { Caller } from '../identity/caller.js';
import { assertCanEdit, visibleTo, type SkillViewer } from './access.js';
import { Skill, SkillVersion, type ModelTier } from './entities.js';
import { skillIdParam, type CreateSkillInput, type CreateVersionInput, type ListSkillsQuery, type UpdateSkillInput } from './skills.schemas.js';
import {
  marketplaceUrlOf,
  skillDetailView,
  skillView,
  versionView,
  type PublishResult,
  type SkillDetailView,
  type SkillVersionView,
  type SkillView,
} from './views.js';

export interface SkillsDeps {
  orm: Orm;
  clock: Clock;
  config: Pick<Config, 'marketplaceUrl'>;
}

export async function createSkill(deps: SkillsDeps, caller: Caller, input: CreateSkillInput): Promise<SkillDetailView> {
  const now = deps.clock.now();
  return deps.orm.em.fork().transactional(async (em) => {
    const skill = em.create(Skill, {
      organizationId: caller.organizationId,
      createdById: caller.userId,
      name: input.name,
      description: input.description,
      category: input.category,
      visibility: input.visibility,
      currentVersion: 1,
      createdAt: now,
      updatedAt: now,
    });
    // The version row references the skill row: the skill must be written first.
    await em.flush();
    const first = em.create(SkillVersion, {
      skillId: skill.id,
      version: 1,
      systemPrompt: input.systemPrompt,
      tools: input.tools,
      approvalRequired: input.approvalRequired,
      modelTier: input.modelTier,
      createdById: caller.userId,
      createdAt: now,
    });
    return skillDetailView(skill, [first], deps.config.marketplaceUrl);
  });
}

export async function listSkills(deps: SkillsDeps, caller: Caller, query: ListSkillsQuery): Promise<{ skills: SkillView[]; total: number }> {
  const em = deps.orm.em.fork();
  const filters = {
    ...(query.visibility ? { visibility: query.visibility } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.category ? { category: query.category } : {}),
  };
  const [page, total] = await em.findAndCount(
    Skill,
    { $and: [visibleTo(caller), filters] },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: query.limit, offset: query.offset },
  );
  const currentVersions = await loadCurrentVersions(em, page);
  return {
    skills: page.map((skill) => skillView(skill, currentVersions.get(skill.id), deps.config.marketplaceUrl)),
    total,
  };
}

export async function getSkill(deps: SkillsDeps, caller: Caller, skillId: string): Promise<SkillDetailView> {
  const em = deps.orm.em.fork();
  const skill = await findVisibleSkill(em, caller, skillId);
  return skillDetailView(skill, await loadVersions(em, skill.id), deps.config.marketplaceUrl);
}

export async function getSkillVersion(deps: SkillsDeps, caller: Caller, skillId: string, version: number): Promise<SkillVersionView> {
  const em = deps.orm.em.fork();
  const skill = await findVisibleSkill(em, caller, skillId);
  const found = await em.findOne(SkillVersion, { skillId: skill.id, version });
  if (!found) throw notFound(`Version ${version} of skill`);
  return versionView(found);
}

/** Changes the metadata fields present in `input`; the versions stay as they are. */
export async function updateSkill(deps: SkillsDeps, caller: Caller, skillId: string, input: UpdateSkillInput): Promise<SkillDetailView> {
  const now = deps.clock.now();
  return deps.orm.em.fork().transactional(async (em) => {
    const skill = await lockSkillForEdit(em, caller, skillId);
    applyMetadata(skill, input, now);
    return skillDetailView(skill, await loadVersions(em, skill.id), deps.config.marketplaceUrl);
  });
}

/** Deletes the skill; its versions go with it (foreign key cascade). */
export async function deleteSkill(deps: SkillsDeps, caller: Caller, skillId: string): Promise<void> {
  await deps.orm.em.fork().transactional(async (em) => {
    const skill = await lockSkillForEdit(em, caller, skillId);
    em.remove(skill);
  });
}

/**
 * Adds the next version. The row lock on the skill serializes concurrent calls, so each reads
 * the number its predecessor wrote; the (skill_id, version) primary key is the backstop.
 */
export async function createSkillVersion(deps: SkillsDeps, caller: Caller, skillId: string, input: CreateVersionInput): Promise<SkillVersionView> {
  const now = deps.clock.now();
  try {
    return await deps.orm.em.fork().transactional(async (em) => {
      const skill = await lockSkillForEdit(em, caller, skillId);
      const current = await loadVersion(em, skill);
      const next = em.create(SkillVersion, {
        skillId: skill.id,
        version: skill.currentVersion + 1,
        systemPrompt: input.systemPrompt,
        tools: input.tools ?? current?.tools ?? [],
        approvalRequired: input.approvalRequired ?? current?.approvalRequired ?? [],
        modelTier: input.modelTier ?? current?.modelTier ?? 'standard',
        notes: input.notes ?? null,
        createdById: caller.userId,
        createdAt: now,
      });
      skill.currentVersion = next.version;
      skill.updatedAt = now;
      return versionView(next);
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw new AppError('conflict', 'Another version of this skill was created at the same time; retry', { cause: error });
    }
    throw error;
  }
}

/**
 * Publishes a public skill that has a version. Idempotent: publishing a published skill keeps
 * its publishedAt.
 */
export async function publishSkill(deps: SkillsDeps, caller: Caller, skillId: string): Promise<PublishResult> {
  const now = deps.clock.now();
  return deps.orm.em.fork().transactional(async (em) => {
    const skill = await lockSkillForEdit(em, caller, skillId);
    assertPublishable(skill);
    const publishedAt = skill.status === 'published' && skill.publishedAt ? skill.publishedAt : now;
    if (publishedAt === now) {
      skill.status = 'published';
      skill.publishedAt = now;
      skill.updatedAt = now;
    }
    return { id: skill.id, status: skill.status, publishedAt, marketplaceUrl: marketplaceUrlOf(deps.config.marketplaceUrl, skill.id) };
  });
}

export interface ResolvedSkillVersion {
  skillId: string;
  version: number;
  systemPrompt: string;
  tools: string[];
  /** Tools whose calls always wait for a person's approval. */
  approvalRequired: string[];
  modelTier: ModelTier;
}

/**
 * What a run needs from a skill: the pinned version, or the current one when `version` is
 * omitted. `viewer` is the caller, or the organization id when no user acts (then only team and
 * public skills of that organization and public skills of others are visible, never private ones).
 * A skill or version the viewer cannot see is 404 not_found.
 */
export async function resolveSkillVersion(
  em: EntityManager,
  viewer: SkillViewer | string,
  skillId: string,
  version?: number,
): Promise<ResolvedSkillVersion> {
  const skill = await findVisibleSkill(em, viewerOf(viewer), skillId);
  const found = await loadVersion(em, skill, version);
  if (!found) throw notFound(version === undefined ? 'Version of skill' : `Version ${version} of skill`);
  return resolved(found);
}

/**
 * For a request body that refers to a skill (an automation's `skillId` and optional pinned
 * `skillVersion`): the same resolution, but a reference that does not resolve is the body's
 * fault, so 400 bad_request naming the field instead of 404.
 */
export async function resolveSkillReference(
  em: EntityManager,
  viewer: SkillViewer | string,
  reference: { skillId: string; skillVersion?: number | null | undefined },
  params: { skillId: string; skillVersion: string } = { skillId: 'skillId', skillVersion: 'skillVersion' },
): Promise<ResolvedSkillVersion> {
  const skill = await findVisibleSkill(em, viewerOf(viewer), reference.skillId).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'not_found') {
      throw badRequest(`No skill ${reference.skillId} is visible to the caller`, params.skillId);
    }
    throw error;
  });
  const version = reference.skillVersion ?? undefined;
  const found = await loadVersion(em, skill, version);
  if (!found) throw badRequest(`The skill has no version ${version ?? 'yet'}`, version === undefined ? params.skillId : params.skillVersion);
  return resolved(found);
}

function viewerOf(viewer: SkillViewer | string): SkillViewer {
  return typeof viewer === 'string' ? { organizationId: viewer } : viewer;
}

function resolved(version: SkillVersion): ResolvedSkillVersion {
  return {
    skillId: version.skillId,
    version: version.version,
    systemPrompt: version.systemPrompt,
    tools: version.tools,
    approvalRequired: version.approvalRequired,
    modelTier: version.modelTier,
  };
}

async function findVisibleSkill(em: EntityManager, viewer: SkillViewer, skillId: string, options: { forUpdate?: boolean } = {}): Promise<Skill> {
  // An id that cannot exist is simply not found (and never reaches the uuid column as garbage).
  if (!skillIdParam.safeParse(skillId).success) throw notFound('Skill');
  const skill = await em.findOne(
    Skill,
    { $and: [{ id: skillId }, visibleTo(viewer)] },
    options.forUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!skill) throw notFound('Skill');
  return skill;
}

/** Locks the skill row for the rest of the transaction, after checking the caller may change it. */
async function lockSkillForEdit(em: EntityManager, caller: Caller, skillId: string): Promise<Skill> {
  const skill = await findVisibleSkill(em, caller, skillId, { forUpdate: true });
  assertCanEdit(skill, caller);
  return skill;
}

function applyMetadata(skill: Skill, input: UpdateSkillInput, now: Date): void {
  if (input.name !== undefined) skill.name = input.name;
  if (input.description !== undefined) skill.description = input.description;
  if (input.category !== undefined) skill.category = input.category;
  if (input.visibility !== undefined) {
    skill.visibility = input.visibility;
    // Only public skills are listed in the marketplace; leaving public unpublishes.
    if (input.visibility !== 'public' && skill.status === 'published') {
      skill.status = 'draft';
      skill.publishedAt = null;
    }
  }
  if (Object.values(input).some((value) => value !== undefined)) skill.updatedAt = now;
}

function assertPublishable(skill: Skill): void {
  const failed: string[] = [];
  if (skill.visibility !== 'public') {
    failed.push(`its visibility is ${skill.visibility}, and only public skills can be published (change it with PUT /skills/{id})`);
  }
  if (skill.currentVersion < 1) failed.push('it has no version yet (create one with POST /skills/{id}/versions)');
  if (failed.length > 0) throw new AppError('skill_not_publishable', `The skill cannot be published: ${failed.join('; and ')}`);
}

async function loadVersions(em: EntityManager, skillId: string): Promise<SkillVersion[]> {
  return em.find(SkillVersion, { skillId }, { orderBy: { version: 'desc' } });
}

/** The given version of the skill, or its current one. */
async function loadVersion(em: EntityManager, skill: Skill, version = skill.currentVersion): Promise<SkillVersion | null> {
  if (version < 1) return null;
  return em.findOne(SkillVersion, { skillId: skill.id, version });
}

async function loadCurrentVersions(em: EntityManager, skills: Skill[]): Promise<Map<string, SkillVersion>> {
  const wanted = skills.filter((skill) => skill.currentVersion > 0).map((skill) => ({ skillId: skill.id, version: skill.currentVersion }));
  if (wanted.length === 0) return new Map();
  const versions = await em.find(SkillVersion, { $or: wanted });
  return new Map(versions.map((version) => [version.skillId, version]));
}
