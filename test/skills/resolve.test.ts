// resolveSkillVersion: what an automation run gets from a skill (its pinned or current version),
// under the same visibility rules as the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSettingsFor } from '../../src/skills/run-settings.js';
import { resolveSkillReference, resolveSkillVersion } from '../../src/skills/skills.service.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let a: TestOrganization;
let b: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  [a, b] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
});
afterAll(async () => stack?.stop());

async function skillWithTwoVersions(visibility: string): Promise<string> {
  const created = await call(stack.baseUrl, 'POST', '/skills', {
    key: a.member.key,
    body: { name: 'Triage', description: 'Triage issues', category: 'development', systemPrompt: 'v1 prompt', tools: ['github'], visibility },
  });
  await call(stack.baseUrl, 'POST', `/skills/${created.body.id}/versions`, {
    key: a.member.key,
    body: { systemPrompt: 'v2 prompt', tools: ['github', 'slack'], modelTier: 'premium' },
  });
  return created.body.id;
}

const em = () => stack.runtime.orm.em.fork();

describe('resolveSkillVersion', () => {
  it('returns the current version when none is pinned, and the pinned one when it is', async () => {
    const id = await skillWithTwoVersions('team');
    await expect(resolveSkillVersion(em(), a.id, id)).resolves.toEqual({
      skillId: id,
      version: 2,
      systemPrompt: 'v2 prompt',
      tools: ['github', 'slack'],
      approvalRequired: [],
      modelTier: 'premium',
    });
    await expect(resolveSkillVersion(em(), a.id, id, 1)).resolves.toEqual({
      skillId: id,
      version: 1,
      systemPrompt: 'v1 prompt',
      tools: ['github'],
      approvalRequired: [],
      modelTier: 'standard',
    });
  });

  it('answers not_found for a version that does not exist', async () => {
    const id = await skillWithTwoVersions('team');
    await expect(resolveSkillVersion(em(), a.id, id, 3)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('applies visibility: a team skill is not found from another organization, a public one is', async () => {
    const team = await skillWithTwoVersions('team');
    await expect(resolveSkillVersion(em(), b.id, team)).rejects.toMatchObject({ code: 'not_found' });
    const open = await skillWithTwoVersions('public');
    await expect(resolveSkillVersion(em(), b.id, open, 1)).resolves.toMatchObject({ version: 1 });
  });

  it('resolves a private skill only for its creator, never for the organization alone', async () => {
    const id = await skillWithTwoVersions('private');
    await expect(resolveSkillVersion(em(), a.id, id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(resolveSkillVersion(em(), { organizationId: a.id, userId: a.admin.id }, id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(resolveSkillVersion(em(), { organizationId: a.id, userId: a.member.id }, id)).resolves.toMatchObject({ version: 2 });
  });

  it('answers not_found for an id that is not a skill id', async () => {
    await expect(resolveSkillVersion(em(), a.id, 'not-a-uuid')).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('resolveSkillReference (a skill named in a request body)', () => {
  it('resolves a visible skill, pinned or current', async () => {
    const id = await skillWithTwoVersions('team');
    await expect(resolveSkillReference(em(), a.id, { skillId: id })).resolves.toMatchObject({ version: 2 });
    await expect(resolveSkillReference(em(), a.id, { skillId: id, skillVersion: 1 })).resolves.toMatchObject({ version: 1, systemPrompt: 'v1 prompt' });
  });

  it('answers 400 naming skillId for a skill the caller cannot see, and skillVersion for a missing version', async () => {
    const id = await skillWithTwoVersions('team');
    await expect(resolveSkillReference(em(), b.id, { skillId: id })).rejects.toMatchObject({ code: 'bad_request', param: 'skillId' });
    await expect(resolveSkillReference(em(), a.id, { skillId: 'nope' })).rejects.toMatchObject({ code: 'bad_request', param: 'skillId' });
    await expect(resolveSkillReference(em(), a.id, { skillId: id, skillVersion: 9 })).rejects.toMatchObject({ code: 'bad_request', param: 'skillVersion' });
  });
});

describe('runSettingsFor (what an automation naming a skill runs with)', () => {
  const automation = { systemPrompt: 'Today only.', model: 'standard', tools: ['slack'] };

  it("runs a pinned version with that version's prompt, tools and tier, even after newer versions", async () => {
    const id = await skillWithTwoVersions('private');
    const source = { ...automation, organizationId: a.id, ownerId: a.member.id, skillId: id };
    await expect(runSettingsFor(em(), { ...source, skillVersion: 1 })).resolves.toEqual({
      systemPrompt: 'v1 prompt\n\nToday only.',
      model: 'standard',
      tools: ['github', 'slack'],
      approvalRequired: [],
      skill: { skillId: id, version: 1 },
    });
    await expect(runSettingsFor(em(), source)).resolves.toMatchObject({ model: 'premium', skill: { skillId: id, version: 2 } });
  });

  it("fails with not_found when the skill is not visible to the automation's creator", async () => {
    const id = await skillWithTwoVersions('private');
    const source = { ...automation, organizationId: a.id, ownerId: a.admin.id, skillId: id };
    await expect(runSettingsFor(em(), source)).rejects.toMatchObject({ code: 'not_found' });
  });
});
