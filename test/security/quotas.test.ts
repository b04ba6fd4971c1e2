// Quotas per organization at their limits, with small limits so the test
// reaches them: the request past the limit gets 403 quota_exceeded naming the resource, parallel
// creates at the limit never both pass, and another organization is not affected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let other: TestOrganization;

beforeAll(async () => {
  stack = await startStack({
    env: { QUOTA_AUTOMATIONS_PER_ORG: '2', QUOTA_WEBHOOKS_PER_ORG: '2', QUOTA_CONNECTIONS_PER_ORG: '4', QUOTA_API_KEYS_PER_USER: '3', QUOTA_ASSISTANTS_PER_ORG: '3' },
  });
  org = await createTestOrganization(stack.runtime.orm);
  other = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
});

const api = (key: string, method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key, body });
const automation = (name: string) => ({ name, systemPrompt: 'Say hi', schedule: '0 9 * * *', status: 'paused' });

function expectQuota(res: { status: number; body: any; text: string }, resource: string): void {
  expect(res.status, res.text).toBe(403);
  expect(res.body.error).toMatchObject({ code: 'quota_exceeded', type: 'insufficient_quota', param: resource });
  expect(res.body.error.message).toContain(resource);
}

describe('quotas', () => {
  it('connections: parallel creates at the limit never both pass; other organizations are unaffected', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api(i % 2 ? org.member.key : org.admin.key, 'POST', '/tools/connections', { toolId: 'time', name: `t${i}` })),
    );
    expect(results.filter((res) => res.status === 201)).toHaveLength(4);
    for (const res of results.filter((r) => r.status !== 201)) expectQuota(res, 'connections');
    expect((await api(other.member.key, 'POST', '/tools/connections', { toolId: 'time', name: 'other' })).status).toBe(201);
    // Deleting one makes room for one. A connection is its creator's alone, and which of the two
    // creators won the four places depends on the race: delete one of whoever holds one.
    const holder = [org.member.key, org.admin.key];
    const held = await Promise.all(holder.map(async (key) => (await api(key, 'GET', '/tools/connections')).body.connections as Array<{ id: string }>));
    expect(held[0]!.length + held[1]!.length).toBe(4);
    const by = held[0]!.length > 0 ? 0 : 1;
    expect((await api(holder[by]!, 'DELETE', `/tools/connections/${held[by]![0]!.id}`)).status).toBe(204);
    expect((await api(org.member.key, 'POST', '/tools/connections', { toolId: 'time', name: 'again' })).status).toBe(201);
    expectQuota(await api(org.member.key, 'POST', '/tools/connections', { toolId: 'time', name: 'over' }), 'connections');
  });

  it('automations per organization', async () => {
    const results = await Promise.all([0, 1, 2].map((i) => api(org.member.key, 'POST', '/automations', automation(`a${i}`))));
    expect(results.filter((res) => res.status === 201), results.map((r) => r.text).join('\n')).toHaveLength(2);
    expectQuota(results.find((res) => res.status !== 201)!, 'automations');
    expectQuota(await api(org.owner.key, 'POST', '/automations', automation('owner too')), 'automations');
    expect((await api(other.member.key, 'POST', '/automations', automation('other'))).status).toBe(201);
  });

  it('webhooks per organization, across automations and assistants', async () => {
    const list = await api(org.member.key, 'GET', '/automations');
    const id = list.body.automations[0].id;
    expect((await api(org.member.key, 'POST', `/automations/${id}/webhooks`)).status).toBe(201);
    const second = await api(org.member.key, 'POST', `/automations/${id}/webhooks`);
    expect(second.status, second.text).toBe(201);
    expectQuota(await api(org.member.key, 'POST', `/automations/${id}/webhooks`), 'webhooks');
    expectQuota(
      await api(org.member.key, 'POST', '/assistants', { name: 'Hooked', systemPrompt: 'hi', trigger: { type: 'webhook' } }),
      'webhooks',
    );
    // A revoked webhook no longer counts.
    expect((await api(org.member.key, 'DELETE', `/automations/${id}/webhooks/${second.body.id}`)).status).toBe(204);
    expect((await api(org.member.key, 'POST', `/automations/${id}/webhooks`)).status).toBe(201);
  });

  it("webhooks: an assistant's trigger set by PUT counts too, and parallel updates at the limit never both pass", async () => {
    const team = await createTestOrganization(stack.runtime.orm);
    const ids: string[] = [];
    for (const name of ['a1', 'a2', 'a3']) {
      const res = await api(team.member.key, 'POST', '/assistants', { name, systemPrompt: 'hi' });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.id);
    }
    const results = await Promise.all(ids.map((id) => api(team.member.key, 'PUT', `/assistants/${id}`, { trigger: { type: 'webhook' } })));
    expect(results.filter((res) => res.status === 200), results.map((r) => r.text).join('\n')).toHaveLength(2);
    expectQuota(results.find((res) => res.status !== 200)!, 'webhooks');
    // The refused update changed nothing; removing a trigger makes room for one.
    const refused = ids[results.findIndex((res) => res.status !== 200)]!;
    expect((await api(team.member.key, 'GET', `/assistants/${refused}`)).body.trigger).toBeNull();
    const granted = ids[results.findIndex((res) => res.status === 200)]!;
    expect((await api(team.member.key, 'PUT', `/assistants/${granted}`, { trigger: null })).status).toBe(200);
    expect((await api(team.member.key, 'PUT', `/assistants/${refused}`, { trigger: { type: 'webhook' } })).status).toBe(200);
  });

  it('assistants per organization (QUOTA_ASSISTANTS_PER_ORG)', async () => {
    const team = await createTestOrganization(stack.runtime.orm);
    const results = await Promise.all([0, 1, 2, 3, 4].map((i) => api(i % 2 ? team.member.key : team.admin.key, 'POST', '/assistants', { name: `b${i}`, systemPrompt: 'hi' })));
    expect(results.filter((res) => res.status === 201), results.map((r) => r.text).join('\n')).toHaveLength(3);
    for (const res of results.filter((r) => r.status !== 201)) expectQuota(res, 'assistants');
    expect((await api(other.member.key, 'POST', '/assistants', { name: 'other', systemPrompt: 'hi' })).status).toBe(201);
    const made = results.find((res) => res.status === 201)!;
    const maker = made.body.createdBy === team.member.id ? team.member : team.admin;
    expect((await api(maker.key, 'DELETE', `/assistants/${made.body.id}`)).status).toBe(204);
    expect((await api(team.member.key, 'POST', '/assistants', { name: 'again', systemPrompt: 'hi' })).status).toBe(201);
  });

  it('API keys per user (revoked keys do not count)', async () => {
    const created = [];
    for (const name of ['k1', 'k2']) {
      const res = await api(org.member.key, 'POST', '/api-keys', { name });
      expect(res.status, res.text).toBe(201);
      created.push(res.body.id);
    }
    expectQuota(await api(org.member.key, 'POST', '/api-keys', { name: 'k3' }), 'api_keys');
    // Per user: the admin of the same organization still has room.
    expect((await api(org.admin.key, 'POST', '/api-keys', { name: 'admin key' })).status).toBe(201);
    expect((await api(org.member.key, 'DELETE', `/api-keys/${created[0]}`)).status).toBe(204);
    expect((await api(org.member.key, 'POST', '/api-keys', { name: 'k3' })).status).toBe(201);
  });
});
