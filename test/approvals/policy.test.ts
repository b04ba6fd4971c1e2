// The approval policy through the API: `toolApprovals` on automations, assistants and
// connections, a skill version's `approvalRequired`; only the owner changes an automation's or
// assistant's policy (403 naming the field); bad entries are 400 naming the entry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  org = await createTestOrganization(stack.runtime.orm);
  // An automation's tools need a connection of its owner's.
  const connection = await as(org.member.key)('POST', '/tools/connections', { toolId: 'filesystem', name: 'Files' });
  expect(connection.status, connection.text).toBe(201);
});
afterAll(async () => {
  await stack?.stop();
});

const as = (key: string) => (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key, body });
const automationBody = { name: 'Files', systemPrompt: 'Write the report.', schedule: '0 9 * * *', status: 'paused', tools: ['filesystem'] };

describe('tool approval policy', () => {
  it('stores an automation policy and shows it', async () => {
    const created = await as(org.member.key)('POST', '/automations', { ...automationBody, toolApprovals: { filesystem__write_file: 'always', 'filesystem__*': 'never' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.toolApprovals).toEqual({ filesystem__write_file: 'always', 'filesystem__*': 'never' });
    const read = await as(org.member.key)('GET', `/automations/${created.body.id}`);
    expect(read.body.toolApprovals).toEqual({ filesystem__write_file: 'always', 'filesystem__*': 'never' });
  });

  it('defaults to no entries, so nothing waits', async () => {
    const created = await as(org.member.key)('POST', '/automations', automationBody);
    expect(created.body.toolApprovals).toEqual({});
  });

  it('answers 400 naming the entry that is not <connectorId>__<toolName>', async () => {
    const bad = await as(org.member.key)('POST', '/automations', { ...automationBody, toolApprovals: { write_file: 'always' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('toolApprovals.write_file');
    const mode = await as(org.member.key)('POST', '/automations', { ...automationBody, toolApprovals: { filesystem__write_file: 'maybe' } });
    expect(mode.status).toBe(400);
    expect(mode.body.error.param).toBe('toolApprovals.filesystem__write_file');
  });

  it("answers 403 naming toolApprovals when an admin changes another user's automation policy", async () => {
    const created = await as(org.member.key)('POST', '/automations', automationBody);
    const changed = await as(org.admin.key)('PUT', `/automations/${created.body.id}`, { toolApprovals: { 'filesystem__*': 'never' } });
    expect(changed.status).toBe(403);
    expect(changed.body.error.param).toBe('toolApprovals');
    const own = await as(org.member.key)('PUT', `/automations/${created.body.id}`, { toolApprovals: { 'filesystem__*': 'always' } });
    expect(own.status, own.text).toBe(200);
    expect(own.body.toolApprovals).toEqual({ 'filesystem__*': 'always' });
  });

  it("keeps an assistant's policy its owner's alone", async () => {
    const created = await as(org.member.key)('POST', '/assistants', { name: 'Helper', systemPrompt: 'Help.', toolApprovals: { 'filesystem__*': 'always' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.toolApprovals).toEqual({ 'filesystem__*': 'always' });
    const changed = await as(org.owner.key)('PUT', `/assistants/${created.body.id}`, { toolApprovals: {} });
    expect(changed.status).toBe(403);
    expect(changed.body.error.param).toBe('toolApprovals');
    const bad = await as(org.member.key)('PUT', `/assistants/${created.body.id}`, { toolApprovals: { '*': 'always' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('toolApprovals.*');
  });

  it("takes a connection's default for its own connector only", async () => {
    const created = await as(org.member.key)('POST', '/tools/connections', { toolId: 'filesystem', name: 'Files', toolApprovals: { 'filesystem__*': 'always' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.toolApprovals).toEqual({ 'filesystem__*': 'always' });
    const other = await as(org.member.key)('POST', '/tools/connections', { toolId: 'filesystem', name: 'Files', toolApprovals: { 'github__*': 'always' } });
    expect(other.status).toBe(400);
    expect(other.body.error.param).toBe('toolApprovals.github__*');
  });

  it("keeps a skill version's approvalRequired list and carries it to the next version", async () => {
    const skill = await as(org.member.key)('POST', '/skills', {
      name: 'Writer', description: 'Writes files', category: 'productivity', systemPrompt: 'Write.', tools: ['filesystem'], approvalRequired: ['filesystem__write_file'],
    });
    expect(skill.status, skill.text).toBe(201);
    expect(skill.body.versions[0].approvalRequired).toEqual(['filesystem__write_file']);
    const next = await as(org.member.key)('POST', `/skills/${skill.body.id}/versions`, { systemPrompt: 'Write better.' });
    expect(next.status, next.text).toBe(201);
    expect(next.body.approvalRequired).toEqual(['filesystem__write_file']);
    const bad = await as(org.member.key)('POST', `/skills/${skill.body.id}/versions`, { systemPrompt: 'x', approvalRequired: ['write_file'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('approvalRequired[0]');
  });
});
