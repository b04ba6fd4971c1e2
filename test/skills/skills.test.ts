// Skills on the real stack: create with version 1, versions numbered under concurrency and
// immutable, metadata-only PUT, publication and its preconditions, validation with `param`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Skill } from '../../src/skills/entities.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const MARKETPLACE = 'https://marketplace.example.test';

let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ worker: false, env: { MARKETPLACE_URL: MARKETPLACE } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => stack?.stop());

const validSkill = {
  name: 'Release notes writer',
  description: 'Turns merged pull requests into release notes',
  category: 'development',
  systemPrompt: 'You write concise release notes.',
  tools: ['github'],
};

async function createSkill(overrides: Record<string, unknown> = {}, key = org.member.key) {
  const res = await call(stack.baseUrl, 'POST', '/skills', { key, body: { ...validSkill, ...overrides } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('create and read', () => {
  it('creates a draft private skill with version 1 from the create body and returns 201 with the full resource', async () => {
    const res = await call(stack.baseUrl, 'POST', '/skills', { key: org.member.key, body: validSkill });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      name: validSkill.name,
      description: validSkill.description,
      category: 'development',
      systemPrompt: validSkill.systemPrompt,
      modelTier: 'standard',
      tools: ['github'],
      visibility: 'private',
      status: 'draft',
      currentVersion: 1,
      publishedAt: null,
      marketplaceUrl: null,
    });
    expect(Date.parse(res.body.createdAt)).not.toBeNaN();
    expect(res.body.updatedAt).toBe(res.body.createdAt);
    expect(res.body.versions).toEqual([
      {
        version: 1,
        skillId: res.body.id,
        systemPrompt: validSkill.systemPrompt,
        tools: ['github'],
        approvalRequired: [],
        modelTier: 'standard',
        notes: null,
        createdAt: res.body.createdAt,
      },
    ]);
  });

  it('returns the skill with its versions newest first, and one version by number', async () => {
    const skill = await createSkill({ modelTier: 'premium' });
    for (const prompt of ['second', 'third']) {
      const res = await call(stack.baseUrl, 'POST', `/skills/${skill.id}/versions`, { key: org.member.key, body: { systemPrompt: prompt } });
      expect(res.status).toBe(201);
    }
    const got = await call(stack.baseUrl, 'GET', `/skills/${skill.id}`, { key: org.member.key });
    expect(got.status).toBe(200);
    expect(got.body.currentVersion).toBe(3);
    expect(got.body.systemPrompt).toBe('third');
    expect(got.body.versions.map((v: any) => v.version)).toEqual([3, 2, 1]);

    const second = await call(stack.baseUrl, 'GET', `/skills/${skill.id}/versions/2`, { key: org.member.key });
    expect(second.status).toBe(200);
    // Omitted tools and modelTier carry over from the version before.
    expect(second.body).toMatchObject({ version: 2, skillId: skill.id, systemPrompt: 'second', tools: ['github'], modelTier: 'premium' });

    const missing = await call(stack.baseUrl, 'GET', `/skills/${skill.id}/versions/4`, { key: org.member.key });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });

  it('creates a version with its own tools, tier and notes and returns 201 with it', async () => {
    const skill = await createSkill();
    const res = await call(stack.baseUrl, 'POST', `/skills/${skill.id}/versions`, {
      key: org.member.key,
      body: { systemPrompt: 'v2', tools: ['github', 'slack'], modelTier: 'enterprise', notes: 'Adds Slack' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      version: 2,
      skillId: skill.id,
      systemPrompt: 'v2',
      tools: ['github', 'slack'],
      approvalRequired: [],
      modelTier: 'enterprise',
      notes: 'Adds Slack',
      createdAt: expect.any(String),
    });
    const got = await call(stack.baseUrl, 'GET', `/skills/${skill.id}`, { key: org.member.key });
    expect(got.body).toMatchObject({ currentVersion: 2, systemPrompt: 'v2', tools: ['github', 'slack'], modelTier: 'enterprise' });
  });

  it('lists {skills, total} newest first with limit and offset', async () => {
    const category = `list-${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createSkill({ category, name: `Skill ${i}` })).id);
    const first = await call(stack.baseUrl, 'GET', `/skills?category=${category}&limit=2`, { key: org.member.key });
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(3);
    expect(first.body.skills.map((s: any) => s.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.skills[0]).toMatchObject({ systemPrompt: validSkill.systemPrompt, tools: ['github'], currentVersion: 1 });
    expect(first.body.skills[0].versions).toBeUndefined();
    const rest = await call(stack.baseUrl, 'GET', `/skills?category=${category}&limit=2&offset=2`, { key: org.member.key });
    expect(rest.body).toMatchObject({ total: 3, skills: [{ id: ids[0] }] });
  });

  it('deletes a skill with all its versions and answers 204, then 404', async () => {
    const skill = await createSkill();
    await call(stack.baseUrl, 'POST', `/skills/${skill.id}/versions`, { key: org.member.key, body: { systemPrompt: 'v2' } });
    const deleted = await call(stack.baseUrl, 'DELETE', `/skills/${skill.id}`, { key: org.member.key });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await call(stack.baseUrl, 'GET', `/skills/${skill.id}`, { key: org.member.key })).status).toBe(404);
    const rows = await stack.runtime.orm.em.fork().getConnection().execute('select count(*)::int as n from skill_versions where skill_id = ?', [skill.id]);
    expect(rows).toEqual([{ n: 0 }]);
  });
});

describe('versions', () => {
  it('numbers 20 concurrent version creations 2..21 with no gap and no duplicate', async () => {
    const skill = await createSkill();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(stack.baseUrl, 'POST', `/skills/${skill.id}/versions`, { key: org.member.key, body: { systemPrompt: `prompt ${i}` } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const numbers = results.map((r) => r.body.version).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    // Each number holds the prompt of the request that got it.
    for (const r of results) {
      const stored = await call(stack.baseUrl, 'GET', `/skills/${skill.id}/versions/${r.body.version}`, { key: org.member.key });
      expect(stored.body.systemPrompt).toBe(r.body.systemPrompt);
    }
    const got = await call(stack.baseUrl, 'GET', `/skills/${skill.id}`, { key: org.member.key });
    expect(got.body.currentVersion).toBe(21);
    expect(got.body.versions.map((v: any) => v.version)).toEqual(Array.from({ length: 21 }, (_, i) => 21 - i));
  });

  it('never changes an existing version: metadata updates, new versions and publication leave version 1 as it was', async () => {
    const skill = await createSkill({ visibility: 'public' });
    const before = (await call(stack.baseUrl, 'GET', `/skills/${skill.id}/versions/1`, { key: org.member.key })).body;
    await call(stack.baseUrl, 'PUT', `/skills/${skill.id}`, { key: org.member.key, body: { name: 'Renamed', category: 'data' } });
    await call(stack.baseUrl, 'POST', `/skills/${skill.id}/versions`, {
      key: org.member.key,
      body: { systemPrompt: 'changed', tools: [], modelTier: 'premium', notes: 'n' },
    });
    await call(stack.baseUrl, 'POST', `/skills/${skill.id}/publish`, { key: org.member.key });
    const after = (await call(stack.baseUrl, 'GET', `/skills/${skill.id}/versions/1`, { key: org.member.key })).body;
    expect(after).toEqual(before);
  });

  it('offers no endpoint that changes or deletes a version', async () => {
    const skill = await createSkill();
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
      const res = await call(stack.baseUrl, method, `/skills/${skill.id}/versions/1`, { key: org.owner.key, body: { systemPrompt: 'tampered' } });
      expect(res.status, method).toBe(404);
    }
    const res = await call(stack.baseUrl, 'GET', `/skills/${skill.id}/versions/1`, { key: org.member.key });
    expect(res.body.systemPrompt).toBe(validSkill.systemPrompt);
  });

  it('keeps a team skill and its versions when the creator is deleted (only the creator link is cleared)', async () => {
    const creator = await createTestUser(stack.runtime.orm, org.id, 'member');
    const skill = await createSkill({ visibility: 'team' }, creator.key);
    const connection = stack.runtime.orm.em.fork().getConnection();
    await connection.execute('delete from api_keys where user_id = ?', [creator.id]);
    await connection.execute('delete from users where id = ?', [creator.id]);
    const got = await call(stack.baseUrl, 'GET', `/skills/${skill.id}`, { key: org.member.key });
    expect(got.status).toBe(200);
    expect(got.body.versions).toEqual(skill.versions);
    const rows = await connection.execute('select created_by_id from skill_versions where skill_id = ?', [skill.id]);
    expect(rows).toEqual([{ created_by_id: null }]);
  });

  it('refuses an UPDATE of a version row in the database itself', async () => {
    const skill = await createSkill();
    const connection = stack.runtime.orm.em.fork().getConnection();
    await expect(
      connection.execute(`update skill_versions set system_prompt = 'tampered' where skill_id = ? and version = 1`, [skill.id]),
    ).rejects.toThrow(/immutable/);
    const res = await call(stack.baseUrl, 'GET', `/skills/${skill.id}/versions/1`, { key: org.member.key });
    expect(res.body.systemPrompt).toBe(validSkill.systemPrompt);
  });
});

describe('PUT changes metadata only', () => {
  it('changes only the provided fields and returns 200 with the full resource', async () => {
    const skill = await createSkill();
    const res = await call(stack.baseUrl, 'PUT', `/skills/${skill.id}`, { key: org.member.key, body: { description: 'New description' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: skill.id,
      name: validSkill.name,
      description: 'New description',
      category: validSkill.category,
      visibility: 'private',
      currentVersion: 1,
      systemPrompt: validSkill.systemPrompt,
    });
    expect(res.body.versions).toHaveLength(1);
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(skill.updatedAt));
  });

  it.each(['systemPrompt', 'tools', 'modelTier'])('rejects %s with 400 pointing to POST /skills/{id}/versions', async (field) => {
    const skill = await createSkill();
    const value = field === 'tools' ? ['slack'] : field === 'modelTier' ? 'premium' : 'new prompt';
    const res = await call(stack.baseUrl, 'PUT', `/skills/${skill.id}`, { key: org.member.key, body: { name: 'Also renamed', [field]: value } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', param: field });
    expect(res.body.error.message).toContain('POST /skills/{id}/versions');
    const got = await call(stack.baseUrl, 'GET', `/skills/${skill.id}`, { key: org.member.key });
    expect(got.body).toMatchObject({ name: validSkill.name, currentVersion: 1, systemPrompt: validSkill.systemPrompt, tools: ['github'] });
  });
});

describe('publish', () => {
  it('publishes a public skill: status published, publishedAt, marketplaceUrl under MARKETPLACE_URL', async () => {
    const skill = await createSkill({ visibility: 'public' });
    const res = await call(stack.baseUrl, 'POST', `/skills/${skill.id}/publish`, { key: org.member.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: skill.id,
      status: 'published',
      publishedAt: expect.any(String),
      marketplaceUrl: `${MARKETPLACE}/skills/${skill.id}`,
    });
    const got = await call(stack.baseUrl, 'GET', `/skills/${skill.id}`, { key: org.member.key });
    expect(got.body).toMatchObject({ status: 'published', publishedAt: res.body.publishedAt, marketplaceUrl: res.body.marketplaceUrl });
  });

  it('is idempotent: republishing keeps publishedAt', async () => {
    const skill = await createSkill({ visibility: 'public' });
    const first = await call(stack.baseUrl, 'POST', `/skills/${skill.id}/publish`, { key: org.member.key });
    const second = await call(stack.baseUrl, 'POST', `/skills/${skill.id}/publish`, { key: org.member.key });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  it.each(['private', 'team'])('refuses a %s skill with 400 skill_not_publishable naming the visibility', async (visibility) => {
    const skill = await createSkill({ visibility });
    const res = await call(stack.baseUrl, 'POST', `/skills/${skill.id}/publish`, { key: org.member.key });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('skill_not_publishable');
    expect(res.body.error.message).toContain(`visibility is ${visibility}`);
    expect(res.body.error.message).not.toContain('no version');
    const got = await call(stack.baseUrl, 'GET', `/skills/${skill.id}`, { key: org.member.key });
    expect(got.body).toMatchObject({ status: 'draft', publishedAt: null });
  });

  async function insertSkillWithoutVersions(visibility: 'private' | 'public'): Promise<string> {
    const em = stack.runtime.orm.em.fork();
    const skill = em.create(Skill, {
      organizationId: org.id,
      createdById: org.member.id,
      name: 'No versions',
      description: 'Imported without a prompt',
      category: 'data',
      visibility,
    });
    await em.flush();
    return skill.id;
  }

  it('refuses a public skill without any version, saying so', async () => {
    const id = await insertSkillWithoutVersions('public');
    const res = await call(stack.baseUrl, 'POST', `/skills/${id}/publish`, { key: org.member.key });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('skill_not_publishable');
    expect(res.body.error.message).toContain('no version');
    expect(res.body.error.message).not.toContain('visibility');
  });

  it('names both failed conditions for a private skill without versions', async () => {
    const id = await insertSkillWithoutVersions('private');
    const res = await call(stack.baseUrl, 'POST', `/skills/${id}/publish`, { key: org.member.key });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('visibility is private');
    expect(res.body.error.message).toContain('no version');
  });

  it('returns a published skill to draft when its visibility leaves public; it must be published again', async () => {
    const skill = await createSkill({ visibility: 'public' });
    await call(stack.baseUrl, 'POST', `/skills/${skill.id}/publish`, { key: org.member.key });
    const team = await call(stack.baseUrl, 'PUT', `/skills/${skill.id}`, { key: org.member.key, body: { visibility: 'team' } });
    expect(team.body).toMatchObject({ visibility: 'team', status: 'draft', publishedAt: null, marketplaceUrl: null });
    const back = await call(stack.baseUrl, 'PUT', `/skills/${skill.id}`, { key: org.member.key, body: { visibility: 'public' } });
    expect(back.body).toMatchObject({ visibility: 'public', status: 'draft' });
    const again = await call(stack.baseUrl, 'POST', `/skills/${skill.id}/publish`, { key: org.member.key });
    expect(again.body.status).toBe('published');
  });

  it('keeps a published skill published when other metadata changes', async () => {
    const skill = await createSkill({ visibility: 'public' });
    const published = await call(stack.baseUrl, 'POST', `/skills/${skill.id}/publish`, { key: org.member.key });
    const res = await call(stack.baseUrl, 'PUT', `/skills/${skill.id}`, { key: org.member.key, body: { name: 'Renamed', visibility: 'public' } });
    expect(res.body).toMatchObject({ name: 'Renamed', status: 'published', publishedAt: published.body.publishedAt });
  });
});

describe('validation', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['a missing name', { name: undefined }, 'name'],
    ['a missing description', { description: undefined }, 'description'],
    ['a missing category', { category: undefined }, 'category'],
    ['a missing systemPrompt', { systemPrompt: undefined }, 'systemPrompt'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a name over 100 characters', { name: 'n'.repeat(101) }, 'name'],
    ['a description over 2000 characters', { description: 'd'.repeat(2001) }, 'description'],
    ['a systemPrompt over 50000 characters', { systemPrompt: 'p'.repeat(50_001) }, 'systemPrompt'],
    ['a blank systemPrompt', { systemPrompt: ' \n ' }, 'systemPrompt'],
    ['a category that is not a slug', { category: 'Data Science!' }, 'category'],
    ['an unknown modelTier', { modelTier: 'gold' }, 'modelTier'],
    ['an unknown visibility', { visibility: 'everyone' }, 'visibility'],
    ['tools that are not an array', { tools: 'github' }, 'tools'],
    ['a tool id that is not a string', { tools: ['github', 42] }, 'tools[1]'],
    ['a malformed tool id', { tools: ['Git Hub'] }, 'tools[0]'],
    ['a duplicated tool id', { tools: ['github', 'slack', 'github'] }, 'tools[2]'],
    ['more than 50 tools', { tools: Array.from({ length: 51 }, (_, i) => `tool-${i}`) }, 'tools'],
    ['an unknown field', { color: 'blue' }, 'color'],
  ];

  it.each(cases)('rejects a create with %s: 400 bad_request naming %s', async (_what, overrides, param) => {
    const res = await call(stack.baseUrl, 'POST', '/skills', { key: org.member.key, body: { ...validSkill, ...overrides } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', param });
  });

  it('rejects a body that is not an object with param body', async () => {
    const res = await call(stack.baseUrl, 'POST', '/skills', { key: org.member.key, body: ['not', 'an', 'object'] });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('body');
  });

  it('rejects a version without systemPrompt, and a bad PUT value, naming the field', async () => {
    const skill = await createSkill();
    const version = await call(stack.baseUrl, 'POST', `/skills/${skill.id}/versions`, { key: org.member.key, body: { notes: 'no prompt' } });
    expect(version.status).toBe(400);
    expect(version.body.error).toMatchObject({ code: 'bad_request', param: 'systemPrompt', message: "Missing required field 'systemPrompt'" });
    const put = await call(stack.baseUrl, 'PUT', `/skills/${skill.id}`, { key: org.member.key, body: { category: 'NOPE' } });
    expect(put.status).toBe(400);
    expect(put.body.error.param).toBe('category');
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['offset=-1', 'offset'],
    ['visibility=secret', 'visibility'],
    ['status=archived', 'status'],
  ])('rejects the list query %s naming %s', async (query, param) => {
    const res = await call(stack.baseUrl, 'GET', `/skills?${query}`, { key: org.member.key });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', param });
  });

  it('rejects a malformed skill id and version number in the path', async () => {
    const id = await call(stack.baseUrl, 'GET', '/skills/not-a-uuid', { key: org.member.key });
    expect(id.status).toBe(400);
    expect(id.body.error.param).toBe('id');
    const skill = await createSkill();
    for (const version of ['0', 'abc', '1.5']) {
      const res = await call(stack.baseUrl, 'GET', `/skills/${skill.id}/versions/${version}`, { key: org.member.key });
      expect(res.status, version).toBe(400);
      expect(res.body.error.param).toBe('version');
    }
  });

  it('requires authentication', async () => {
    const res = await call(stack.baseUrl, 'GET', '/skills');
    expect(res.status).toBe(401);
  });
});
