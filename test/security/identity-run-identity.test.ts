// Run identity (SECURITY.md), as a member, an admin and the owner of one of two
// organizations would try it through the HTTP API: an admin cannot change what another user's
// automation or assistant runs; taking ownership makes the runs act as the new owner (the usage
// record of the run names them); a new skill version never changes an automation or assistant
// that pinned the previous one, until its owner re-pins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageRecord } from '../../src/billing/entities.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream, type RecordedRequest } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let upstream: FakeUpstream;
let stack: Stack;
let org: TestOrganization;
let other: TestOrganization;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  stack = await startStack({ env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream, anthropic: upstream })) } });
  [org, other] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
});
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

const api = (method: string, path: string, body: unknown, key: string) => call(stack.baseUrl, method, path, { key, body });

async function createAutomation(key: string, body: Record<string, unknown> = {}) {
  const res = await api('POST', '/automations', { name: 'Digest', systemPrompt: 'Summarise the week.', schedule: '0 9 1 1 *', status: 'paused', ...body }, key);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function createSkill(key: string, systemPrompt: string): Promise<string> {
  const res = await api('POST', '/skills', { name: 'Digest skill', description: 'd', category: 'productivity', systemPrompt, modelTier: 'standard', visibility: 'team' }, key);
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** Runs the automation now as `key`; the finished run, the upstream request and the usage record's user. */
async function runOnce(automationId: string, key: string): Promise<{ run: any; request: RecordedRequest | undefined; usageUserId: string | undefined }> {
  const before = upstream.requests.length;
  const started = await api('POST', `/automations/${automationId}/run`, undefined, key);
  expect(started.status, started.text).toBe(202);
  const run = await waitFor(async () => {
    const list = await api('GET', `/automations/${automationId}/runs`, undefined, key);
    return list.body.runs.find((r: any) => r.id === started.body.runId && r.status !== 'running');
  }, { timeoutMs: 30_000, what: 'the run to finish' });
  // The usage record is written off the run's path: wait for it (a failed run has none).
  const usage = run.status === 'success'
    ? await waitFor(() => stack.runtime.orm.em.fork().findOne(UsageRecord, { runId: run.id }), { what: 'the usage record of the run' })
    : null;
  return { run, request: upstream.requests.slice(before)[0], usageUserId: usage?.userId };
}

function systemPromptOf(request: RecordedRequest): string {
  const messages = request.body.messages as { role: string; content: string }[];
  return messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
}

describe('automation run identity', () => {
  it('shows ownerId, refuses an admin changing what it runs, and leaves it unchanged', async () => {
    const automation = await createAutomation(org.member.key);
    expect(automation.ownerId).toBe(org.member.id);
    for (const [field, value] of [
      ['systemPrompt', 'Exfiltrate everything.'],
      ['model', 'premium'],
      ['tools', ['fetch']],
      ['channels', [{ type: 'email', target: 'attacker@example.test' }]],
    ] as const) {
      for (const key of [org.admin.key, org.owner.key]) {
        const res = await api('PUT', `/automations/${automation.id}`, { [field]: value }, key);
        expect(res.status, `${field}: ${res.text}`).toBe(403);
        expect(res.body.error).toMatchObject({ code: 'forbidden', param: field });
      }
    }
    const after = await api('GET', `/automations/${automation.id}`, undefined, org.member.key);
    expect(after.body).toMatchObject({ systemPrompt: 'Summarise the week.', model: 'standard', tools: [], channels: [] });
    // What it is called and when it runs stay the admins' to manage; pause/activate too.
    const renamed = await api('PUT', `/automations/${automation.id}`, { name: 'Renamed by admin', schedule: '0 10 1 1 *' }, org.admin.key);
    expect(renamed.status, renamed.text).toBe(200);
    expect((await api('POST', `/automations/${automation.id}/activate`, undefined, org.admin.key)).status).toBe(200);
    expect((await api('POST', `/automations/${automation.id}/pause`, undefined, org.admin.key)).status).toBe(200);
  });

  it('take-ownership: members refused, another organization 404, then runs act as the admin', async () => {
    const automation = await createAutomation(org.member.key);
    const first = await runOnce(automation.id, org.member.key);
    expect(first.run.status, first.run.error).toBe('success');
    expect(first.usageUserId).toBe(org.member.id);

    const byMember = await api('POST', `/automations/${automation.id}/take-ownership`, undefined, org.member.key);
    expect(byMember.status).toBe(403);
    const byOtherOrg = await api('POST', `/automations/${automation.id}/take-ownership`, undefined, other.admin.key);
    expect(byOtherOrg.status).toBe(404);

    const taken = await api('POST', `/automations/${automation.id}/take-ownership`, undefined, org.admin.key);
    expect(taken.status, taken.text).toBe(200);
    expect(taken.body).toMatchObject({ id: automation.id, ownerId: org.admin.id });
    const audit = await api('GET', '/audit-logs?limit=100', undefined, org.owner.key);
    expect(audit.body.auditLogs).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'automation.ownership_taken', actorUserId: org.admin.id })]),
    );

    // The new owner edits what it runs; the former owner no longer may.
    expect((await api('PUT', `/automations/${automation.id}`, { systemPrompt: 'Admin prompt.' }, org.member.key)).status).toBe(403);
    expect((await api('PUT', `/automations/${automation.id}`, { systemPrompt: 'Admin prompt.' }, org.admin.key)).status).toBe(200);
    const second = await runOnce(automation.id, org.admin.key);
    expect(second.run.status, second.run.error).toBe('success');
    expect(second.usageUserId).toBe(org.admin.id);
    expect(systemPromptOf(second.request!)).toBe('Admin prompt.');
  });

  it('pins the current skill version at create; a new version changes nothing until the owner re-pins', async () => {
    const skillId = await createSkill(org.member.key, 'Skill v1.');
    const automation = await createAutomation(org.member.key, { skillId, systemPrompt: 'Go.' });
    expect(automation).toMatchObject({ skillId, skillVersion: 1 });

    // The skill's author (here an admin may edit the team skill too) publishes a new version.
    const v2 = await api('POST', `/skills/${skillId}/versions`, { systemPrompt: 'Skill v2: send secrets.', modelTier: 'standard' }, org.admin.key);
    expect(v2.status, v2.text).toBe(201);
    const pinned = await runOnce(automation.id, org.member.key);
    expect(pinned.run).toMatchObject({ status: 'success', skill: { skillId, version: 1 } });
    expect(systemPromptOf(pinned.request!)).toBe('Skill v1.\n\nGo.');

    // Only the owner re-pins (skillVersion null = the current version now).
    expect((await api('PUT', `/automations/${automation.id}`, { skillVersion: null }, org.admin.key)).status).toBe(403);
    const repinned = await api('PUT', `/automations/${automation.id}`, { skillVersion: null }, org.member.key);
    expect(repinned.body).toMatchObject({ skillId, skillVersion: 2 });
    const after = await runOnce(automation.id, org.member.key);
    expect(systemPromptOf(after.request!)).toBe('Skill v2: send secrets.\n\nGo.');
  });

  it('fails a run clearly when its owner is disabled (manual run by an admin)', async () => {
    const automation = await createAutomation(org.member.key);
    const member = await createUser();
    const owned = await createAutomation(member.key);
    expect((await api('PUT', `/users/${member.id}/status`, { status: 'disabled' }, org.admin.key)).status).toBe(200);
    const { run } = await runOnce(owned.id, org.admin.key);
    expect(run).toMatchObject({ status: 'failure', error: expect.stringMatching(/owner/i) });
    // Unrelated automations are untouched.
    expect((await api('GET', `/automations/${automation.id}`, undefined, org.member.key)).body.ownerId).toBe(org.member.id);
  });
});

describe('assistant run identity', () => {
  async function createAssistant(key: string, body: Record<string, unknown> = {}) {
    const res = await api('POST', '/assistants', { name: 'Helper', systemPrompt: 'Help.', model: 'standard', ...body }, key);
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  it('shows ownerId and skillVersion; admins cannot change what it runs; take-ownership moves it', async () => {
    const skillId = await createSkill(org.member.key, 'Assistant skill v1.');
    const assistant = await createAssistant(org.member.key, { skillId });
    expect(assistant).toMatchObject({ ownerId: org.member.id, skillId, skillVersion: 1 });
    const edit = await api('PUT', `/assistants/${assistant.id}`, { systemPrompt: 'Leak.' }, org.admin.key);
    expect(edit.status, edit.text).toBe(403);
    expect(edit.body.error).toMatchObject({ code: 'forbidden', param: 'systemPrompt' });
    expect((await api('PUT', `/assistants/${assistant.id}`, { name: 'Renamed' }, org.admin.key)).status).toBe(200);

    await api('POST', `/skills/${skillId}/versions`, { systemPrompt: 'Assistant skill v2.', modelTier: 'standard' }, org.member.key);
    expect((await api('GET', `/assistants/${assistant.id}`, undefined, org.member.key)).body.skillVersion).toBe(1);

    expect((await api('POST', `/assistants/${assistant.id}/take-ownership`, undefined, org.member.key)).status).toBe(403);
    expect((await api('POST', `/assistants/${assistant.id}/take-ownership`, undefined, other.owner.key)).status).toBe(404);
    const taken = await api('POST', `/assistants/${assistant.id}/take-ownership`, undefined, org.owner.key);
    expect(taken.status, taken.text).toBe(200);
    expect(taken.body).toMatchObject({ ownerId: org.owner.id, skillVersion: 1 });
    expect((await api('PUT', `/assistants/${assistant.id}`, { systemPrompt: 'Owner prompt.' }, org.owner.key)).status).toBe(200);
  });
});

async function createUser() {
  const { createTestUser } = await import('../helpers/orgs.js');
  return createTestUser(stack.runtime.orm, org.id, 'member');
}
