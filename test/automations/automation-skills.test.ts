// Automations that run with a skill, on the real stack with the gateway pointed
// at a fake upstream: a pinned version's prompt and tier are used even after newer versions are
// published, an automation created without a pin is pinned to the current version (a newer
// version changes it only when its owner re-pins with `skillVersion: null`), each run records the
// version it used, and references the caller cannot use are refused naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  // premium -> fake-claude (Anthropic format) on the same fake: the request shows which tier ran.
  stack = await startStack({ env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream, anthropic: upstream })) } });
  [org, other] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
});
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

const api = (method: string, path: string, body?: unknown, key = org.member.key) => call(stack.baseUrl, method, path, { key, body });

async function createSkill(key: string, body: Record<string, unknown>): Promise<string> {
  const res = await api('POST', '/skills', { name: 'Release notes', description: 'Writes release notes', category: 'productivity', ...body }, key);
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function addVersion(skillId: string, systemPrompt: string, modelTier: string, key = org.member.key): Promise<number> {
  const res = await api('POST', `/skills/${skillId}/versions`, { systemPrompt, modelTier }, key);
  expect(res.status, res.text).toBe(201);
  return res.body.version;
}

async function createAutomation(body: Record<string, unknown>, key = org.member.key) {
  return api('POST', '/automations', { name: 'Notes', systemPrompt: 'Cover this week.', schedule: '0 9 * * *', status: 'paused', ...body }, key);
}

/** Runs the automation now and returns the finished run and the upstream request it made. */
async function runOnce(automationId: string): Promise<{ run: any; request: RecordedRequest }> {
  const before = upstream.requests.length;
  const started = await api('POST', `/automations/${automationId}/run`);
  expect(started.status, started.text).toBe(202);
  const run = await waitFor(async () => {
    const list = await api('GET', `/automations/${automationId}/runs`);
    return list.body.runs.find((r: any) => r.id === started.body.runId && r.status !== 'running');
  }, { timeoutMs: 30_000, what: 'the run to finish' });
  const requests = upstream.requests.slice(before);
  expect(requests.length).toBeLessThanOrEqual(1);
  return { run, request: requests[0]! };
}

/** The system prompt the upstream received, in either API format. */
function systemPromptOf(request: RecordedRequest): string | undefined {
  if (request.api === 'anthropic') return request.body.system as string | undefined;
  const messages = request.body.messages as { role: string; content: string }[];
  return messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
}

describe('automations with a skill', () => {
  it("runs with the pinned version's prompt and tier even after newer versions are published", async () => {
    const skillId = await createSkill(org.member.key, { systemPrompt: 'You write release notes (v1).', modelTier: 'standard', visibility: 'team' });
    const created = await createAutomation({ skillId, skillVersion: 1 });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ skillId, skillVersion: 1 });
    await addVersion(skillId, 'You write release notes (v2).', 'premium');

    const { run, request } = await runOnce(created.body.id);
    expect(run).toMatchObject({ status: 'success', skill: { skillId, version: 1 } });
    expect(request.api).toBe('openai'); // v1's tier: standard -> fake-model
    expect(systemPromptOf(request)).toBe('You write release notes (v1).\n\nCover this week.');

    await addVersion(skillId, 'You write release notes (v3).', 'premium');
    const again = await runOnce(created.body.id);
    expect(again.run.skill).toEqual({ skillId, version: 1 });
    expect(systemPromptOf(again.request)).toBe('You write release notes (v1).\n\nCover this week.');
  });

  it('pins the current version when none is given, and moves only when the owner re-pins', async () => {
    const skillId = await createSkill(org.member.key, { systemPrompt: 'Latest is v1.', modelTier: 'standard' });
    const created = await createAutomation({ skillId, systemPrompt: 'Go.' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ skillId, skillVersion: 1 });

    const first = await runOnce(created.body.id);
    expect(first.run.skill).toEqual({ skillId, version: 1 });
    expect(systemPromptOf(first.request)).toBe('Latest is v1.\n\nGo.');

    await addVersion(skillId, 'Latest is v2.', 'premium');
    const unchanged = await runOnce(created.body.id);
    expect(unchanged.run.skill).toEqual({ skillId, version: 1 });
    expect((await api('PUT', `/automations/${created.body.id}`, { skillVersion: null })).body).toMatchObject({ skillId, skillVersion: 2 });
    const second = await runOnce(created.body.id);
    expect(second.run).toMatchObject({ status: 'success', skill: { skillId, version: 2 } });
    expect(second.request.api).toBe('anthropic'); // v2's tier: premium -> fake-claude
    expect(systemPromptOf(second.request)).toBe('Latest is v2.\n\nGo.');
  });

  it('pins, unpins and removes the skill on update, and shows it in the automation', async () => {
    const skillId = await createSkill(org.member.key, { systemPrompt: 'One.', modelTier: 'standard' });
    await addVersion(skillId, 'Two.', 'standard');
    const created = await createAutomation({});
    expect(created.body).toMatchObject({ skillId: null, skillVersion: null });
    const id = created.body.id;

    expect((await api('PUT', `/automations/${id}`, { skillId, skillVersion: 2 })).body).toMatchObject({ skillId, skillVersion: 2 });
    expect((await api('PUT', `/automations/${id}`, { name: 'Renamed' })).body).toMatchObject({ skillId, skillVersion: 2 });
    expect((await api('PUT', `/automations/${id}`, { skillVersion: 1 })).body).toMatchObject({ skillId, skillVersion: 1 });
    // null re-pins to the current version.
    expect((await api('PUT', `/automations/${id}`, { skillVersion: null })).body).toMatchObject({ skillId, skillVersion: 2 });
    expect((await api('PUT', `/automations/${id}`, { skillVersion: 1 })).body).toMatchObject({ skillId, skillVersion: 1 });
    expect((await api('GET', `/automations/${id}`)).body).toMatchObject({ skillId, skillVersion: 1 });
    // Another skill drops the pin of the previous one for that skill's current version.
    const otherSkill = await createSkill(org.member.key, { systemPrompt: 'Other.' });
    expect((await api('PUT', `/automations/${id}`, { skillId: otherSkill })).body).toMatchObject({ skillId: otherSkill, skillVersion: 1 });
    expect((await api('PUT', `/automations/${id}`, { skillId: null })).body).toMatchObject({ skillId: null, skillVersion: null });

    const { run, request } = await runOnce(id);
    expect(run.skill).toBeNull();
    expect(systemPromptOf(request)).toBe('Cover this week.');
  });

  it('fails a run whose skill was deleted, naming the reason', async () => {
    const skillId = await createSkill(org.member.key, { systemPrompt: 'Soon gone.' });
    const created = await createAutomation({ skillId });
    expect((await api('DELETE', `/skills/${skillId}`)).status).toBe(204);
    const started = await api('POST', `/automations/${created.body.id}/run`);
    const run = await waitFor(async () => {
      const list = await api('GET', `/automations/${created.body.id}/runs`);
      return list.body.runs.find((r: any) => r.id === started.body.runId && r.status !== 'running');
    }, { timeoutMs: 30_000, what: 'the run to fail' });
    expect(run).toMatchObject({ status: 'failure', error: expect.stringMatching(/skill/i) });
  });
});

describe('skill references that cannot be used', () => {
  it('answers 400 naming skillId or skillVersion on create', async () => {
    const teamSkill = await createSkill(org.admin.key, { systemPrompt: 'Team.', visibility: 'team' });
    const privateOfAdmin = await createSkill(org.admin.key, { systemPrompt: 'Mine.', visibility: 'private' });
    const otherOrgTeam = await createSkill(other.admin.key, { systemPrompt: 'Theirs.', visibility: 'team' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ skillId: '00000000-0000-4000-8000-000000000000' }, 'skillId'],
      [{ skillId: 'not-a-uuid' }, 'skillId'],
      [{ skillId: privateOfAdmin }, 'skillId'],
      [{ skillId: otherOrgTeam }, 'skillId'],
      [{ skillId: teamSkill, skillVersion: 9 }, 'skillVersion'],
      [{ skillId: teamSkill, skillVersion: 0 }, 'skillVersion'],
      [{ skillId: teamSkill, skillVersion: '1' }, 'skillVersion'],
      [{ skillVersion: 1 }, 'skillVersion'],
    ];
    for (const [body, param] of cases) {
      const res = await createAutomation(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toMatchObject({ code: 'bad_request', param });
    }
    // The admin may use their own private skill.
    expect((await createAutomation({ skillId: privateOfAdmin }, org.admin.key)).status).toBe(201);
  });

  it("answers 400 on update for an unknown version; 403 when anyone but the owner changes the skill", async () => {
    const teamSkill = await createSkill(org.member.key, { systemPrompt: 'Team.', visibility: 'team' });
    const created = await createAutomation({ skillId: teamSkill });
    const badVersion = await api('PUT', `/automations/${created.body.id}`, { skillVersion: 5 });
    expect(badVersion.status).toBe(400);
    expect(badVersion.body.error).toMatchObject({ code: 'bad_request', param: 'skillVersion' });

    // An admin points the member's automation at another skill: refused, what it runs is its
    // owner's to change (the runs act with the member's account).
    const privateOfAdmin = await createSkill(org.admin.key, { systemPrompt: 'Mine.', visibility: 'private' });
    const foreign = await api('PUT', `/automations/${created.body.id}`, { skillId: privateOfAdmin }, org.admin.key);
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.param).toBe('skillId');
    expect((await api('GET', `/automations/${created.body.id}`)).body).toMatchObject({ skillId: teamSkill, skillVersion: 1 });
  });
});
