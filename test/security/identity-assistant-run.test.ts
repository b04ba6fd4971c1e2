// Run identity (SECURITY.md) for assistants, end to end: a webhook execution acts as the assistant's owner
// (the usage record names them) with its pinned skill version (what the fake upstream received),
// and after an admin takes ownership the same URL acts as the admin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageRecord } from '../../src/billing/entities.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream, type RecordedRequest } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let upstream: FakeUpstream;
let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  stack = await startStack({ env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream, anthropic: upstream })) } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

const api = (method: string, path: string, body: unknown, key: string) => call(stack.baseUrl, method, path, { key, body });

/** Posts to the webhook and waits for the execution; its usage record's user and the upstream request. */
async function execute(webhookPath: string): Promise<{ usageUserId: string; request: RecordedRequest }> {
  const before = upstream.requests.length;
  const ack = await call(stack.baseUrl, 'POST', webhookPath, { body: { event: 'ping' } });
  expect(ack.status, ack.text).toBe(202);
  const executionId: string = ack.body.executionId;
  const done = await waitFor(async () => {
    const res = await api('GET', `/webhooks/executions/${executionId}`, undefined, org.owner.key);
    return res.body.status === 'success' || res.body.status === 'failure' ? res.body : undefined;
  }, { timeoutMs: 30_000, what: 'the execution to finish' });
  expect(done.status, JSON.stringify(done)).toBe('success');
  const usage = await waitFor(() => stack.runtime.orm.em.fork().findOne(UsageRecord, { runId: executionId }), { what: 'the usage record' });
  return { usageUserId: usage.userId, request: upstream.requests.slice(before)[0]! };
}

const systemText = (request: RecordedRequest) =>
  (request.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'system').map((m) => m.content).join('\n');

describe('assistant executions', () => {
  it('act as the owner with the pinned skill version; after take-ownership, as the new owner', async () => {
    const skill = await api('POST', '/skills', { name: 'Triage', description: 'd', category: 'productivity', systemPrompt: 'Skill v1.', modelTier: 'standard', visibility: 'team' }, org.member.key);
    expect(skill.status, skill.text).toBe(201);
    const created = await api('POST', '/assistants', { name: 'Bot', systemPrompt: 'Own prompt.', trigger: { type: 'webhook' }, skillId: skill.body.id }, org.member.key);
    expect(created.status, created.text).toBe(201);
    const webhookPath = new URL(created.body.webhookUrl).pathname.replace(/^\/v1/, '');
    expect((await api('POST', `/skills/${skill.body.id}/versions`, { systemPrompt: 'Skill v2.', modelTier: 'standard' }, org.admin.key)).status).toBe(201);

    const first = await execute(webhookPath);
    expect(first.usageUserId).toBe(org.member.id);
    expect(systemText(first.request)).toContain('Skill v1.');
    expect(systemText(first.request)).not.toContain('Skill v2.');

    expect((await api('POST', `/assistants/${created.body.id}/take-ownership`, undefined, org.admin.key)).status).toBe(200);
    const second = await execute(webhookPath);
    expect(second.usageUserId).toBe(org.admin.id);
    expect(systemText(second.request)).toContain('Skill v1.');
  });
});
