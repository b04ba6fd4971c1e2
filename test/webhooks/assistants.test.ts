// Assistants on the real stack: CRUD scoped to the organization, who may see the webhook URL,
// and regeneration (the old URL answers 404 at once, the new one is accepted).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization, type TestUser } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let otherOrg: TestOrganization;
let secondMember: TestUser;

beforeAll(async () => {
  stack = await startStack({ worker: false, env: { PUBLIC_BASE_URL: 'https://api.example.test/v1' } });
  [org, otherOrg] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
  secondMember = await createTestUser(stack.runtime.orm, org.id, 'member');
});
afterAll(async () => stack?.stop());

const webhookAssistant = {
  name: 'Order triage',
  systemPrompt: 'Summarize the order event in one line.',
  model: 'standard',
  tools: ['github'],
  channels: [{ type: 'email', target: 'ops@example.test' }],
  trigger: { type: 'webhook' },
};

/** The path of a webhook URL relative to the stack's /v1 base. */
function webhookPath(url: string): string {
  return url.replace('https://api.example.test/v1', '');
}

async function postWebhook(url: string) {
  return call(stack.baseUrl, 'POST', webhookPath(url), { body: { event: 'order.created' } });
}

describe('assistants', () => {
  it('creates an assistant with a webhook trigger and returns its webhook URL to the creator', async () => {
    const res = await call(stack.baseUrl, 'POST', '/assistants', { key: org.member.key, body: webhookAssistant });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      name: 'Order triage',
      description: '',
      systemPrompt: webhookAssistant.systemPrompt,
      model: 'standard',
      skillId: null,
      tools: ['github'],
      channels: [{ type: 'email', target: 'ops@example.test' }],
      trigger: { type: 'webhook' },
      createdBy: org.member.id,
    });
    expect(res.body.webhookUrl).toMatch(/^https:\/\/api\.example\.test\/v1\/webhooks\/wh_[A-Za-z0-9_-]{32}$/);
  });

  it('defaults the model to standard and has no webhook without a trigger', async () => {
    const res = await call(stack.baseUrl, 'POST', '/assistants', { key: org.member.key, body: { name: 'Plain', systemPrompt: 'Be brief.' } });
    expect(res.status).toBe(201);
    expect(res.body.model).toBe('standard');
    expect(res.body.trigger).toBeNull();
    expect(res.body).not.toHaveProperty('webhookUrl');
  });

  it("shows the webhook URL to the assistant's owner only (it is run content)", async () => {
    const created = await call(stack.baseUrl, 'POST', '/assistants', { key: org.member.key, body: webhookAssistant });
    const own = await call(stack.baseUrl, 'GET', `/assistants/${created.body.id}`, { key: org.member.key });
    expect(own.status).toBe(200);
    expect(own.body.webhookUrl).toBe(created.body.webhookUrl);
    for (const user of [org.admin, org.owner]) {
      const res = await call(stack.baseUrl, 'GET', `/assistants/${created.body.id}`, { key: user.key });
      expect(res.status).toBe(200);
      expect(res.body, user.role).not.toHaveProperty('webhookUrl');
    }
    const other = await call(stack.baseUrl, 'GET', `/assistants/${created.body.id}`, { key: secondMember.key });
    expect(other.status).toBe(200);
    expect(other.body).not.toHaveProperty('webhookUrl');
    const list = await call(stack.baseUrl, 'GET', '/assistants', { key: secondMember.key });
    expect(list.body.total).toBe(list.body.assistants.length);
    expect(list.body.assistants.some((a: { webhookUrl?: string }) => a.webhookUrl)).toBe(false);
  });

  it('returns 404 for another organization\'s assistant on every endpoint', async () => {
    const created = await call(stack.baseUrl, 'POST', '/assistants', { key: org.owner.key, body: webhookAssistant });
    const id = created.body.id as string;
    const attempts = [
      call(stack.baseUrl, 'GET', `/assistants/${id}`, { key: otherOrg.owner.key }),
      call(stack.baseUrl, 'PUT', `/assistants/${id}`, { key: otherOrg.owner.key, body: { name: 'x' } }),
      call(stack.baseUrl, 'DELETE', `/assistants/${id}`, { key: otherOrg.owner.key }),
      call(stack.baseUrl, 'POST', `/assistants/${id}/webhook/regenerate`, { key: otherOrg.owner.key }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    const list = await call(stack.baseUrl, 'GET', '/assistants', { key: otherOrg.owner.key });
    expect(list.body.assistants.map((a: { id: string }) => a.id)).not.toContain(id);
  });

  it('returns 403 when a member edits, deletes or regenerates another member\'s assistant', async () => {
    const created = await call(stack.baseUrl, 'POST', '/assistants', { key: org.member.key, body: webhookAssistant });
    const id = created.body.id as string;
    const attempts = await Promise.all([
      call(stack.baseUrl, 'PUT', `/assistants/${id}`, { key: secondMember.key, body: { name: 'x' } }),
      call(stack.baseUrl, 'DELETE', `/assistants/${id}`, { key: secondMember.key }),
      call(stack.baseUrl, 'POST', `/assistants/${id}/webhook/regenerate`, { key: secondMember.key }),
    ]);
    for (const res of attempts) expect(res.status).toBe(403);
    const admin = await call(stack.baseUrl, 'PUT', `/assistants/${id}`, { key: org.admin.key, body: { name: 'Renamed by admin' } });
    expect(admin.status).toBe(200);
    expect(admin.body.name).toBe('Renamed by admin');
  });

  it('returns 400 naming the bad field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ systemPrompt: 'x' }, 'name'],
      [{ name: 'x' }, 'systemPrompt'],
      [{ ...webhookAssistant, trigger: { type: 'cron' } }, 'trigger.type'],
      [{ ...webhookAssistant, channels: [{ type: 'email', target: 'not-an-email' }] }, 'channels.0.target'],
      [{ ...webhookAssistant, colour: 'red' }, 'colour'],
    ];
    for (const [body, param] of cases) {
      const res = await call(stack.baseUrl, 'POST', '/assistants', { key: org.member.key, body });
      expect(res.status, param).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
      expect(res.body.error.param).toBe(param);
    }
  });

  it('regenerates the webhook: the old URL answers 404 at once and the new one is accepted', async () => {
    const created = await call(stack.baseUrl, 'POST', '/assistants', { key: org.member.key, body: webhookAssistant });
    const oldUrl = created.body.webhookUrl as string;
    const regenerated = await call(stack.baseUrl, 'POST', `/assistants/${created.body.id}/webhook/regenerate`, { key: org.member.key });
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.webhookUrl).toMatch(/\/webhooks\/wh_/);
    expect(regenerated.body.webhookUrl).not.toBe(oldUrl);

    expect((await postWebhook(oldUrl)).status).toBe(404);
    // No worker on this stack: the execution is acknowledged (started in Temporal) and waits.
    const accepted = await postWebhook(regenerated.body.webhookUrl);
    expect(accepted.status).toBe(202);
    const fetched = await call(stack.baseUrl, 'GET', `/assistants/${created.body.id}`, { key: org.member.key });
    expect(fetched.body.webhookUrl).toBe(regenerated.body.webhookUrl);
  });

  it('revokes the webhook when the trigger is removed, and issues a new one when it is set again', async () => {
    const created = await call(stack.baseUrl, 'POST', '/assistants', { key: org.member.key, body: webhookAssistant });
    const untriggered = await call(stack.baseUrl, 'PUT', `/assistants/${created.body.id}`, { key: org.member.key, body: { trigger: null } });
    expect(untriggered.status).toBe(200);
    expect(untriggered.body.trigger).toBeNull();
    expect(untriggered.body).not.toHaveProperty('webhookUrl');
    expect((await postWebhook(created.body.webhookUrl)).status).toBe(404);

    const retriggered = await call(stack.baseUrl, 'PUT', `/assistants/${created.body.id}`, { key: org.member.key, body: { trigger: { type: 'webhook' } } });
    expect(retriggered.body.webhookUrl).toMatch(/\/webhooks\/wh_/);
    expect(retriggered.body.webhookUrl).not.toBe(created.body.webhookUrl);
  });

  it('deletes an assistant with 204; its webhook answers 404 afterwards', async () => {
    const created = await call(stack.baseUrl, 'POST', '/assistants', { key: org.member.key, body: webhookAssistant });
    const deleted = await call(stack.baseUrl, 'DELETE', `/assistants/${created.body.id}`, { key: org.member.key });
    expect(deleted.status).toBe(204);
    expect((await call(stack.baseUrl, 'GET', `/assistants/${created.body.id}`, { key: org.member.key })).status).toBe(404);
    expect((await postWebhook(created.body.webhookUrl)).status).toBe(404);
  });

  it('stores the webhook URL id only hashed and encrypted', async () => {
    const created = await call(stack.baseUrl, 'POST', '/assistants', { key: org.member.key, body: webhookAssistant });
    const urlId = (created.body.webhookUrl as string).split('/').pop()!;
    const rows = await stack.runtime.orm.em.fork().getConnection().execute<Record<string, unknown>[]>(
      'select * from "webhooks" where "assistant_id" = ?', [created.body.id]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(urlId);
  });
});
