// API keys' `mcpTools`: set at creation, immutable, and for a key created with a key
// each pattern covered by one of its creator's (an exact name by the same name or by its
// `<toolId>__*`; a `<toolId>__*` only by the same pattern), else 403 naming `mcpTools`. The
// attacker here holds a limited key and tries to mint a key that reaches more tools.
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
afterAll(async () => stack?.stop());

const createKey = (key: string, body: Record<string, unknown>) => call<any>(stack.baseUrl, 'POST', '/api-keys', { key, body: { name: 'k', ...body } });

describe('mcpTools on API keys', () => {
  it('is stored at creation and shown in the key list; absent means null (every tool)', async () => {
    const limited = await createKey(org.member.key, { mcpTools: ['github__*', 'fixture-http__echo'] });
    expect(limited.status, limited.text).toBe(201);
    expect(limited.body.mcpTools).toEqual(['github__*', 'fixture-http__echo']);
    const open = await createKey(org.member.key, {});
    expect(open.body.mcpTools).toBeNull();
    const list = await call<any>(stack.baseUrl, 'GET', '/api-keys', { key: org.member.key });
    expect(list.body.apiKeys.find((key: any) => key.id === limited.body.id).mcpTools).toEqual(['github__*', 'fixture-http__echo']);
  });

  it('refuses a malformed pattern with 400 naming it', async () => {
    for (const pattern of ['*', 'github', 'github__*__x', 'a b__c', 'x'.repeat(70) + '__y']) {
      const res = await createKey(org.member.key, { mcpTools: [pattern] });
      expect(res.status, pattern).toBe(400);
      expect(res.body.error.param).toBe('mcpTools.0');
    }
  });

  it('lets a child key narrow its creator\'s patterns and inherit them when it asks for none', async () => {
    const parent = await createKey(org.member.key, { mcpTools: ['github__*', 'fixture-http__echo'] });
    const inherited = await createKey(parent.body.key, {});
    expect(inherited.status, inherited.text).toBe(201);
    expect(inherited.body.mcpTools).toEqual(['github__*', 'fixture-http__echo']);
    const narrower = await createKey(parent.body.key, { mcpTools: ['github__create_issue', 'github__*', 'fixture-http__echo'] });
    expect(narrower.status, narrower.text).toBe(201);
    const none = await createKey(parent.body.key, { mcpTools: [] });
    expect(none.status, none.text).toBe(201);
    expect(none.body.mcpTools).toEqual([]);
    // A key with [] reaches nothing: its children can only ask for nothing.
    expect((await createKey(none.body.key, { mcpTools: ['github__create_issue'] })).status).toBe(403);
  });

  it('refuses 403 naming mcpTools when a child asks for a tool its creator does not reach', async () => {
    const parent = await createKey(org.member.key, { mcpTools: ['github__*', 'fixture-http__echo'] });
    for (const mcpTools of [['fixture-http__add'], ['fixture-http__*'], ['slack__*'], ['github__create_issue', 'gitlab__x']]) {
      const res = await createKey(parent.body.key, { mcpTools });
      expect(res.status, JSON.stringify(mcpTools)).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'forbidden', param: 'mcpTools' });
    }
    // An exact name cannot widen to its connector's wildcard either.
    const exactOnly = await createKey(org.member.key, { mcpTools: ['fixture-http__echo'] });
    const widened = await createKey(exactOnly.body.key, { mcpTools: ['fixture-http__*'] });
    expect(widened.status).toBe(403);
    expect(widened.body.error.param).toBe('mcpTools');
  });
});
