import { describe, expect, it } from 'vitest';
import type { Caller } from '../identity/caller.js';
import type { Role } from '../identity/entities.js';
import { canEdit, canSee, visibleTo } from './access.js';
import type { SkillVisibility } from './entities.js';

const ORG = 'org-a';
const CREATOR = 'user-creator';

const skill = (visibility: SkillVisibility) => ({ organizationId: ORG, createdById: CREATOR, visibility });
const caller = (userId: string, role: Role, organizationId = ORG): Caller => ({ organizationId, userId, role, email: `${userId}@x.test`, via: 'api_key' });

describe('canSee', () => {
  it('shows a private skill to its creator only', () => {
    expect(canSee(skill('private'), caller(CREATOR, 'member'))).toBe(true);
    expect(canSee(skill('private'), caller('someone', 'owner'))).toBe(false);
    expect(canSee(skill('private'), { organizationId: ORG })).toBe(false);
  });

  it('shows a team skill to its organization, including an organization acting without a user', () => {
    expect(canSee(skill('team'), caller('someone', 'member'))).toBe(true);
    expect(canSee(skill('team'), { organizationId: ORG })).toBe(true);
    expect(canSee(skill('team'), caller('outsider', 'owner', 'org-b'))).toBe(false);
  });

  it('shows a public skill to everyone', () => {
    expect(canSee(skill('public'), caller('outsider', 'member', 'org-b'))).toBe(true);
    expect(canSee(skill('public'), { organizationId: 'org-b' })).toBe(true);
  });

  it('never shows a private skill whose creator is gone', () => {
    expect(canSee({ ...skill('private'), createdById: null }, { organizationId: ORG, userId: null })).toBe(false);
  });
});

describe('canEdit', () => {
  it('lets the creator, an admin and the owner change a team skill, not another member', () => {
    expect(canEdit(skill('team'), caller(CREATOR, 'member'))).toBe(true);
    expect(canEdit(skill('team'), caller('admin', 'admin'))).toBe(true);
    expect(canEdit(skill('team'), caller('owner', 'owner'))).toBe(true);
    expect(canEdit(skill('team'), caller('member', 'member'))).toBe(false);
  });

  it('keeps a public skill read-only outside its organization, even for an owner', () => {
    expect(canEdit(skill('public'), caller('owner-b', 'owner', 'org-b'))).toBe(false);
  });

  it('does not let an admin change a private skill they cannot see', () => {
    expect(canEdit(skill('private'), caller('admin', 'admin'))).toBe(false);
  });
});

describe('visibleTo', () => {
  it('includes the private branch only when a user is known', () => {
    expect(JSON.stringify(visibleTo({ organizationId: ORG, userId: 'u' }))).toContain('"private"');
    expect(JSON.stringify(visibleTo({ organizationId: ORG }))).not.toContain('"private"');
  });
});
