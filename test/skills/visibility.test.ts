// Every visibility x caller x operation combination, generated. The skill is created by a member
// of organization A; callers are that creator, another member, the admin and the owner of A,
// and the member, admin and owner of organization B. The expected outcome comes from the rules
// of docs/design.md written out here on their own (not imported from the code under test):
//   sees:    public, or same organization and (team, or the caller created it)
//   changes: sees, same organization, and creator or admin or owner
// A caller who cannot see a skill gets 404; who sees but cannot change it gets 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestUser } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

type Visibility = 'private' | 'team' | 'public';
type CallerName = 'creator' | 'sameOrgMember' | 'sameOrgAdmin' | 'sameOrgOwner' | 'otherOrgMember' | 'otherOrgAdmin' | 'otherOrgOwner';
type Operation = 'list' | 'get' | 'getVersion' | 'update' | 'delete' | 'createVersion' | 'publish';

const VISIBILITIES: Visibility[] = ['private', 'team', 'public'];
const CALLERS: CallerName[] = ['creator', 'sameOrgMember', 'sameOrgAdmin', 'sameOrgOwner', 'otherOrgMember', 'otherOrgAdmin', 'otherOrgOwner'];
const OPERATIONS: Operation[] = ['list', 'get', 'getVersion', 'update', 'delete', 'createVersion', 'publish'];

function sees(visibility: Visibility, caller: CallerName): boolean {
  const sameOrganization = !caller.startsWith('otherOrg');
  return visibility === 'public' || (sameOrganization && (visibility === 'team' || caller === 'creator'));
}

function changes(visibility: Visibility, caller: CallerName): boolean {
  const sameOrganization = !caller.startsWith('otherOrg');
  const entitled = caller === 'creator' || caller.endsWith('Admin') || caller.endsWith('Owner');
  return sees(visibility, caller) && sameOrganization && entitled;
}

/** What the caller gets back: an HTTP status, or for list whether the skill is in it. */
function expected(operation: Operation, visibility: Visibility, caller: CallerName): number | 'listed' | 'absent' {
  if (operation === 'list') return sees(visibility, caller) ? 'listed' : 'absent';
  if (!sees(visibility, caller)) return 404;
  if (operation === 'get' || operation === 'getVersion') return 200;
  if (!changes(visibility, caller)) return 403;
  switch (operation) {
    case 'update':
      return 200;
    case 'delete':
      return 204;
    case 'createVersion':
      return 201;
    case 'publish':
      // Allowed to try; only a public skill passes the publish preconditions.
      return visibility === 'public' ? 200 : 400;
  }
}

let stack: Stack;
let users: Record<CallerName, TestUser>;
let run = 0;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  const [a, b] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
  users = {
    creator: await createTestUser(stack.runtime.orm, a.id, 'member'),
    sameOrgMember: a.member,
    sameOrgAdmin: a.admin,
    sameOrgOwner: a.owner,
    otherOrgMember: b.member,
    otherOrgAdmin: b.admin,
    otherOrgOwner: b.owner,
  };
});
afterAll(async () => stack?.stop());

async function act(operation: Operation, skillId: string, category: string, key: string) {
  switch (operation) {
    case 'list':
      return call(stack.baseUrl, 'GET', `/skills?category=${category}`, { key });
    case 'get':
      return call(stack.baseUrl, 'GET', `/skills/${skillId}`, { key });
    case 'getVersion':
      return call(stack.baseUrl, 'GET', `/skills/${skillId}/versions/1`, { key });
    case 'update':
      return call(stack.baseUrl, 'PUT', `/skills/${skillId}`, { key, body: { name: 'Changed by someone' } });
    case 'delete':
      return call(stack.baseUrl, 'DELETE', `/skills/${skillId}`, { key });
    case 'createVersion':
      return call(stack.baseUrl, 'POST', `/skills/${skillId}/versions`, { key, body: { systemPrompt: 'Changed prompt' } });
    case 'publish':
      return call(stack.baseUrl, 'POST', `/skills/${skillId}/publish`, { key });
  }
}

const matrix = VISIBILITIES.flatMap((visibility) =>
  CALLERS.flatMap((caller) => OPERATIONS.map((operation) => ({ visibility, caller, operation, outcome: expected(operation, visibility, caller) }))),
);

describe('skill visibility and permissions', () => {
  it('covers every combination', () => {
    expect(matrix).toHaveLength(3 * 7 * 7);
  });

  it.each(matrix)('$operation on a $visibility skill by $caller -> $outcome', async ({ visibility, caller, operation, outcome }) => {
    // A fresh skill per case, in a category of its own, so cases never see each other's effects.
    const category = `matrix-${process.pid}-${++run}`;
    const created = await call(stack.baseUrl, 'POST', '/skills', {
      key: users.creator.key,
      body: { name: 'Matrix skill', description: 'Visibility matrix', category, systemPrompt: 'Original prompt', visibility },
    });
    expect(created.status).toBe(201);
    const skillId: string = created.body.id;

    const res = await act(operation, skillId, category, users[caller].key);

    if (operation === 'list') {
      expect(res.status).toBe(200);
      const ids = res.body.skills.map((skill: any) => skill.id);
      expect(ids.includes(skillId) ? 'listed' : 'absent').toBe(outcome);
      expect(res.body.total).toBe(outcome === 'listed' ? 1 : 0);
      return;
    }
    expect(res.status, res.text).toBe(outcome);
    if (outcome === 403) expect(res.body.error.code).toBe('forbidden');
    if (outcome === 404) expect(res.body.error.code).toBe('not_found');
    if (outcome === 400) expect(res.body.error.code).toBe('skill_not_publishable');

    // A refused write changed nothing; an allowed one took effect (checked as the creator).
    const after = await call(stack.baseUrl, 'GET', `/skills/${skillId}`, { key: users.creator.key });
    const allowedWrite = outcome === 200 || outcome === 201 || outcome === 204;
    if (operation === 'delete') expect(after.status).toBe(allowedWrite ? 404 : 200);
    if (operation === 'update') expect(after.body.name).toBe(allowedWrite ? 'Changed by someone' : 'Matrix skill');
    if (operation === 'createVersion') expect(after.body.currentVersion).toBe(allowedWrite ? 2 : 1);
    if (operation === 'publish') expect(after.body.status).toBe(allowedWrite ? 'published' : 'draft');
  });
});
