// User lifecycle (SECURITY.md), through the HTTP API on two API instances sharing Redis and
// PostgreSQL (one instance on the embedded defaults, whose in-memory PGlite one process owns):
// disabling or removing a user ends their keys at once everywhere, pauses their automations (in
// the database and in the entity workflow) and makes the webhooks of what they own answer 404
// until an admin takes ownership; nobody but the owner touches the owner's role, status or keys;
// the owner hands ownership over with their own endpoint.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { automationStateQuery } from '../../src/workflows/automation.contract.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization, type TestUser } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
/** A second API instance on the same database and Redis; none on PGlite. */
let second: Stack | undefined;
let org: TestOrganization;
let other: TestOrganization;

beforeAll(async () => {
  stack = await startStack();
  if (inject('databaseUrl')) second = await startStack({ shareWith: stack, worker: false });
  [org, other] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
});
afterAll(async () => {
  await second?.stop();
  await stack?.stop();
});

const api = (method: string, path: string, body: unknown, key: string, base = stack.baseUrl) => call(base, method, path, { key, body });
/** The base URL of every API instance: the checks hold on each. */
const instances = () => [stack.baseUrl, ...(second ? [second.baseUrl] : [])];
const pathOf = (url: string) => new URL(url).pathname.replace(/^\/v1/, '');
const newMember = () => createTestUser(stack.runtime.orm, org.id, 'member');

async function ownedWork(user: TestUser) {
  const automation = await api('POST', '/automations', { name: 'Nightly', systemPrompt: 'Go.', schedule: '0 3 * * *' }, user.key);
  expect(automation.status, automation.text).toBe(201);
  const hook = await api('POST', `/automations/${automation.body.id}/webhooks`, undefined, user.key);
  expect(hook.status, hook.text).toBe(201);
  const assistant = await api('POST', '/assistants', { name: 'Bot', systemPrompt: 'Hi.', model: 'standard', trigger: { type: 'webhook' } }, user.key);
  expect(assistant.status, assistant.text).toBe(201);
  return { automationId: automation.body.id as string, automationHook: pathOf(hook.body.url), assistantId: assistant.body.id as string, assistantHook: pathOf(assistant.body.webhookUrl) };
}

const post = (path: string) => call(stack.baseUrl, 'POST', path, { body: { event: 'ping' } });

describe('disabling a user', () => {
  it('401s their key at once on both instances, pauses their automation, 404s their webhooks until take-ownership', async () => {
    const member = await newMember();
    const work = await ownedWork(member);
    // Warm both instances' credential caches.
    for (const base of instances()) expect((await api('GET', '/users/me', undefined, member.key, base)).status).toBe(200);
    expect((await post(work.automationHook)).status).toBe(202);

    const disabled = await api('PUT', `/users/${member.id}/status`, { status: 'disabled' }, org.admin.key);
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body).toMatchObject({ id: member.id, status: 'disabled' });

    for (const base of instances()) expect((await api('GET', '/users/me', undefined, member.key, base)).status).toBe(401);

    const automation = await api('GET', `/automations/${work.automationId}`, undefined, org.admin.key);
    expect(automation.body).toMatchObject({ status: 'paused', ownerId: member.id });
    const state = await stack.runtime.temporal.client.workflow.getHandle(`automation/${work.automationId}`).query(automationStateQuery);
    expect(state.status).toBe('paused');

    expect((await post(work.automationHook)).status).toBe(404);
    expect((await post(work.assistantHook)).status).toBe(404);

    const audit = await api('GET', '/audit-logs?limit=100', undefined, org.owner.key);
    expect(audit.body.auditLogs.map((e: any) => e.action)).toContain('user.disabled');

    // Taking ownership brings the webhooks back; the automation stays paused until activated.
    expect((await api('POST', `/automations/${work.automationId}/take-ownership`, undefined, org.admin.key)).status).toBe(200);
    expect((await api('POST', `/assistants/${work.assistantId}/take-ownership`, undefined, org.admin.key)).status).toBe(200);
    expect((await post(work.automationHook)).status).toBe(202);
    expect((await post(work.assistantHook)).status).toBe(202);
    expect((await api('GET', `/automations/${work.automationId}`, undefined, org.admin.key)).body.status).toBe('paused');
  });

  it('re-enables a disabled user (their old keys stay revoked); validates the body', async () => {
    const member = await newMember();
    expect((await api('PUT', `/users/${member.id}/status`, { status: 'disabled' }, org.admin.key)).status).toBe(200);
    const enabled = await api('PUT', `/users/${member.id}/status`, { status: 'active' }, org.admin.key);
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body.status).toBe('active');
    expect((await api('GET', '/users/me', undefined, member.key)).status).toBe(401);
    const bad = await api('PUT', `/users/${member.id}/status`, { status: 'invited' }, org.admin.key);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'bad_request', param: 'status' });
  });

  it('removing a user does the same', async () => {
    const member = await newMember();
    const work = await ownedWork(member);
    expect((await api('DELETE', `/users/${member.id}`, undefined, org.admin.key)).status).toBe(204);
    for (const base of instances()) expect((await api('GET', '/users/me', undefined, member.key, base)).status).toBe(401);
    expect((await api('GET', `/automations/${work.automationId}`, undefined, org.admin.key)).body.status).toBe('paused');
    expect((await post(work.automationHook)).status).toBe(404);
    expect((await post(work.assistantHook)).status).toBe(404);
  });

  it('admins manage members only; nobody disables the owner or another organization\'s user', async () => {
    const admin = await createTestUser(stack.runtime.orm, org.id, 'admin');
    const member = await newMember();
    expect((await api('PUT', `/users/${member.id}/status`, { status: 'disabled' }, org.member.key)).status).toBe(403);
    expect((await api('PUT', `/users/${admin.id}/status`, { status: 'disabled' }, org.admin.key)).status).toBe(403);
    expect((await api('PUT', `/users/${org.owner.id}/status`, { status: 'disabled' }, org.admin.key)).status).toBe(403);
    expect((await api('PUT', `/users/${member.id}/status`, { status: 'disabled' }, other.owner.key)).status).toBe(404);
    expect((await api('GET', '/users/me', undefined, member.key)).status).toBe(200);
    expect((await api('PUT', `/users/${admin.id}/status`, { status: 'disabled' }, org.owner.key)).status).toBe(200);
  });
});

describe("the owner's account", () => {
  it("no admin revokes the owner's key or changes the owner's role or status", async () => {
    const keys = await api('GET', '/api-keys', undefined, org.admin.key);
    const ownerKey = keys.body.apiKeys.find((key: any) => key.userId === org.owner.id);
    expect(ownerKey).toBeDefined();
    const revoke = await api('DELETE', `/api-keys/${ownerKey.id}`, undefined, org.admin.key);
    expect(revoke.status).toBe(403);
    expect(revoke.body.error.code).toBe('forbidden');
    expect((await api('PUT', `/users/${org.owner.id}/role`, { role: 'member' }, org.admin.key)).status).toBe(403);
    expect((await api('PUT', `/users/${org.owner.id}/status`, { status: 'disabled' }, org.admin.key)).status).toBe(403);
    expect((await api('GET', '/users/me', undefined, org.owner.key)).status).toBe(200);
  });

  it('transfers ownership with the owner\'s own endpoint only; the old owner becomes admin', async () => {
    const team = await createTestOrganization(stack.runtime.orm);
    expect((await api('POST', `/users/${team.member.id}/transfer-ownership`, undefined, team.admin.key)).status).toBe(403);
    expect((await api('POST', `/users/${other.member.id}/transfer-ownership`, undefined, team.owner.key)).status).toBe(404);
    const moved = await api('POST', `/users/${team.admin.id}/transfer-ownership`, undefined, team.owner.key);
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ id: team.admin.id, role: 'owner' });
    // Both keys act with the new roles at once, on the other instance too.
    for (const base of instances()) {
      expect((await api('GET', '/users/me', undefined, team.owner.key, base)).body.role).toBe('admin');
      expect((await api('GET', '/users/me', undefined, team.admin.key, base)).body.role).toBe('owner');
    }
    const audit = await api('GET', '/audit-logs?limit=100', undefined, team.admin.key);
    expect(audit.body.auditLogs.map((e: any) => e.action)).toContain('user.ownership_transferred');
  });
});
