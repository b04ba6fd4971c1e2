// Who may see and who may change a skill (docs/design.md "Skills"):
//   private: its creator only; team: the creator's organization; public: every authenticated
//   caller of any organization, read-only outside its own.
//   Changing (update, delete, new version, publish) needs the creator, or an admin or owner of
//   the skill's organization, among those who can see it.
// A skill the caller cannot see does not exist for them (404); one they can see but not change
// is 403. The same rules exist twice on purpose: as predicates over a loaded skill and as a
// query filter, so lists never load what they may not show.
import type { FilterQuery } from '@mikro-orm/core';
import { forbidden } from '../errors.js';
import { hasRole, type Caller } from '../identity/caller.js';
import type { Skill } from './entities.js';

/** Whoever looks at skills: a caller, or an organization acting without a user (a run). */
export interface SkillViewer {
  organizationId: string;
  userId?: string | null;
}

type Guarded = Pick<Skill, 'organizationId' | 'createdById' | 'visibility'>;

export function canSee(skill: Guarded, viewer: SkillViewer): boolean {
  switch (skill.visibility) {
    case 'public':
      return true;
    case 'team':
      return skill.organizationId === viewer.organizationId;
    case 'private':
      return skill.organizationId === viewer.organizationId && isCreator(skill, viewer);
  }
}

export function canEdit(skill: Guarded, caller: Caller): boolean {
  return (
    canSee(skill, caller) &&
    skill.organizationId === caller.organizationId &&
    (isCreator(skill, caller) || hasRole(caller, 'admin'))
  );
}

export function assertCanEdit(skill: Guarded, caller: Caller): void {
  if (!canEdit(skill, caller)) throw forbidden('Only the creator of this skill or an admin or owner of its organization may change it');
}

/** The query form of canSee. */
export function visibleTo(viewer: SkillViewer): FilterQuery<Skill> {
  const ownOrganization: FilterQuery<Skill>[] = [{ organizationId: viewer.organizationId, visibility: 'team' }];
  if (viewer.userId) ownOrganization.push({ organizationId: viewer.organizationId, visibility: 'private', createdById: viewer.userId });
  return { $or: [{ visibility: 'public' }, ...ownOrganization] };
}

function isCreator(skill: Guarded, viewer: SkillViewer): boolean {
  return Boolean(viewer.userId) && skill.createdById === viewer.userId;
}
