// The default MARKETPLACE_URL resolves on the service: GET /marketplace/skills/{id} answers,
// without authentication, the public fields of a published public skill, and 404 for anything
// else (draft, unpublished again, unknown); the marketplaceUrl that publishing returns is it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
});

const SECRET_PROMPT = 'Internal: our escalation contact is ops-lead@corp.example';

async function createSkill(visibility: 'private' | 'team' | 'public'): Promise<string> {
  const res = await call(stack.baseUrl, 'POST', '/skills', {
    key: org.member.key,
    body: { name: `Release notes ${visibility}`, description: 'Turns merged PRs into notes', category: 'development', systemPrompt: SECRET_PROMPT, tools: ['github'], visibility },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

describe('GET /marketplace/skills/{id}', () => {
  it('serves the public fields of a published skill at the marketplaceUrl publishing returned, without authentication', async () => {
    const id = await createSkill('public');
    const published = await call(stack.baseUrl, 'POST', `/skills/${id}/publish`, { key: org.member.key });
    expect(published.status, published.text).toBe(200);
    const url = new URL(published.body.marketplaceUrl as string);
    expect(url.pathname).toBe(`/marketplace/skills/${id}`);

    const page = await call(stack.api.url, 'GET', url.pathname);
    expect(page.status, page.text).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^application\/json/);
    expect(page.body).toEqual({
      id,
      name: 'Release notes public',
      description: 'Turns merged PRs into notes',
      category: 'development',
      publishedAt: published.body.publishedAt,
      currentVersion: { version: 1, modelTier: 'standard', tools: ['github'], createdAt: expect.any(String) },
    });
    // Nothing private: no prompt, organization or author.
    expect(page.text).not.toContain('ops-lead');
    expect(page.text).not.toContain(org.id);
    expect(page.text).not.toContain(org.member.id);
  });

  it('answers 404 for a draft, a skill made private again, and an unknown id; 400 for a malformed id', async () => {
    const draft = await createSkill('public');
    const retracted = await createSkill('public');
    await call(stack.baseUrl, 'POST', `/skills/${retracted}/publish`, { key: org.member.key });
    expect((await call(stack.api.url, 'GET', `/marketplace/skills/${retracted}`)).status).toBe(200);
    const put = await call(stack.baseUrl, 'PUT', `/skills/${retracted}`, { key: org.member.key, body: { visibility: 'team' } });
    expect(put.status, put.text).toBe(200);
    for (const id of [draft, retracted, '00000000-0000-4000-8000-000000000000']) {
      const res = await call(stack.api.url, 'GET', `/marketplace/skills/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      expect(res.text).not.toContain('ops-lead');
    }
    const malformed = await call(stack.api.url, 'GET', '/marketplace/skills/not-a-uuid');
    expect(malformed.body.error).toMatchObject({ code: 'bad_request', param: 'id' });
  });
});
