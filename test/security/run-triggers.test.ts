// Attacker's tests for SECURITY.md's second round (trust), finding 4: an admin steering a member's automation or assistant
// without taking ownership. A webhook's body becomes the run's user message, which then acts with
// the owner's connections and budget, so creating, listing, revoking or regenerating webhook URLs
// and setting an assistant's trigger (or seeing its URL) is run content: the owner's alone, and
// each change is audited. Admins take ownership first (audited), then the URLs are theirs.
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

const api = (key: string, method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key, body });
const auditActions = async () => (await api(org.owner.key, 'GET', '/audit-logs?limit=100')).body.auditLogs.map((entry: { action: string }) => entry.action) as string[];

describe("an automation's webhooks are its owner's", () => {
  it('refuses an admin and the organization owner creating, listing or revoking them until they take ownership; audits each change', async () => {
    const created = await api(org.member.key, 'POST', '/automations', { name: 'Nightly', systemPrompt: 'Summarise.', schedule: '0 9 * * *', status: 'paused' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    const own = await api(org.member.key, 'POST', `/automations/${id}/webhooks`);
    expect(own.status, own.text).toBe(201);
    for (const steerer of [org.admin, org.owner]) {
      for (const [method, path] of [['POST', `/automations/${id}/webhooks`], ['GET', `/automations/${id}/webhooks`], ['DELETE', `/automations/${id}/webhooks/${own.body.id}`]] as const) {
        const res = await api(steerer.key, method, path);
        expect(res.status, `${steerer.role} ${method} ${path}: ${res.text}`).toBe(403);
        expect(res.body.error.code).toBe('forbidden');
      }
    }
    // The member's webhook still works as theirs; an admin who takes ownership manages them (audited).
    expect((await api(org.member.key, 'GET', `/automations/${id}/webhooks`)).body.total).toBe(1);
    expect((await api(org.admin.key, 'POST', `/automations/${id}/take-ownership`)).status).toBe(200);
    const mine = await api(org.admin.key, 'POST', `/automations/${id}/webhooks`);
    expect(mine.status, mine.text).toBe(201);
    expect((await api(org.admin.key, 'DELETE', `/automations/${id}/webhooks/${own.body.id}`)).status).toBe(204);
    expect((await api(org.member.key, 'GET', `/automations/${id}/webhooks`)).status).toBe(403);
    const actions = await auditActions();
    expect(actions.filter((action) => action === 'automation.webhook_created')).toHaveLength(2);
    expect(actions).toContain('automation.webhook_revoked');
  });
});

describe("an assistant's trigger and webhook URL are its owner's", () => {
  it('hides the URL from admins and refuses them setting the trigger or regenerating the URL; audits the owner\'s changes', async () => {
    const created = await api(org.member.key, 'POST', '/assistants', { name: 'Bot', systemPrompt: 'Be brief.', trigger: { type: 'webhook' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.webhookUrl).toEqual(expect.any(String));
    const id = created.body.id;
    for (const steerer of [org.admin, org.owner]) {
      const seen = await api(steerer.key, 'GET', `/assistants/${id}`);
      expect(seen.status).toBe(200);
      expect(seen.body, steerer.role).not.toHaveProperty('webhookUrl');
      const listed = await api(steerer.key, 'GET', '/assistants');
      expect(listed.body.assistants.find((a: { id: string }) => a.id === id)).not.toHaveProperty('webhookUrl');
      for (const trigger of [null, { type: 'webhook' }]) {
        const res = await api(steerer.key, 'PUT', `/assistants/${id}`, { trigger });
        expect(res.status, `${steerer.role} trigger ${JSON.stringify(trigger)}: ${res.text}`).toBe(403);
        expect(res.body.error).toMatchObject({ code: 'forbidden', param: 'trigger' });
      }
      const regenerated = await api(steerer.key, 'POST', `/assistants/${id}/webhook/regenerate`);
      expect(regenerated.status, regenerated.text).toBe(403);
    }
    // The URL is unchanged, and admins still rename.
    expect((await api(org.member.key, 'GET', `/assistants/${id}`)).body.webhookUrl).toBe(created.body.webhookUrl);
    expect((await api(org.admin.key, 'PUT', `/assistants/${id}`, { name: 'Renamed' })).status).toBe(200);
    // The owner's own changes are audited.
    expect((await api(org.member.key, 'POST', `/assistants/${id}/webhook/regenerate`)).status).toBe(200);
    expect((await api(org.member.key, 'PUT', `/assistants/${id}`, { trigger: null })).status).toBe(200);
    const actions = await auditActions();
    expect(actions).toContain('assistant.webhook_regenerated');
    expect(actions).toContain('assistant.trigger_changed');
  });
});
