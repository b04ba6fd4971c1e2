// DLP on what an automation run sends out by itself: the output before each channel delivery
// (fake Slack, signed webhook receiver), tool results before they go back to the model (fixture
// MCP server; read back from the fake upstream) and tool-call arguments before they go to the MCP
// server. Block fails the run with `dlp_blocked` naming the types; mask delivers the redaction;
// the audit log keeps types and counts only.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuditEvent } from '../../src/audit/entities.js';
import { startFakeSlack, type FakeSlack } from '../fixtures/fake-slack.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startMcpHttpFixture, type HttpFixture } from '../fixtures/mcp-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { writeFixtureCatalog } from '../tools/fixture-catalog.js';

/** The organizations' own Slack app's token, given with each Slack channel. */
const SLACK_TOKEN = 'xoxb-test-token-for-run-dlp';
const TOKEN = `tok-${randomUUID()}`;
const SSN = '536-22-1234';
const CARD = '4111111111111111';

let stack: Stack;
let upstream: FakeUpstream;
let slack: FakeSlack;
let receiver: WebhookReceiver;
let mcp: HttpFixture;
let masking: TestOrganization;
let blocking: TestOrganization;

beforeAll(async () => {
  [upstream, slack, receiver, mcp] = await Promise.all([startFakeUpstream(), startFakeSlack({ token: SLACK_TOKEN }), startWebhookReceiver(), startMcpHttpFixture({ token: TOKEN })]);
  stack = await startStack({
    env: {
      GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })),
      TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: mcp.url, hangUrl: mcp.url }),
      SLACK_API_URL: slack.apiUrl,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  [masking, blocking] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
  const put = await call(stack.baseUrl, 'PUT', '/dlp/policy', { key: masking.owner.key, body: { detectors: { us_ssn: 'mask', credit_card: 'mask' } } });
  expect(put.status).toBe(200);
  for (const org of [masking, blocking]) {
    const connection = await call(stack.baseUrl, 'POST', '/tools/connections', { key: org.member.key, body: { toolId: 'fixture-http', name: 'Fixture', env: { FIXTURE_TOKEN: TOKEN } } });
    expect(connection.status, connection.text).toBe(201);
  }
});
// A blocked run leaves its later replies queued: each test starts from an empty queue.
afterEach(() => upstream.reset());
afterAll(async () => {
  await stack?.stop();
  await Promise.all([upstream?.close(), slack?.stop(), receiver?.stop(), mcp?.stop()]);
});

async function runAutomation(org: TestOrganization, settings: Record<string, unknown>) {
  const api = (method: string, path: string, body?: unknown) => call<any>(stack.baseUrl, method, path, { key: org.member.key, body });
  const name = `DLP ${randomUUID()}`;
  const created = await api('POST', '/automations', { name, systemPrompt: 'Report.', schedule: '0 9 * * *', status: 'paused', model: 'fake-model', ...settings });
  expect(created.status, created.text).toBe(201);
  const webhookChannel = created.body.channels?.find((channel: { type: string }) => channel.type === 'webhook');
  if (webhookChannel) receiver.secret = webhookChannel.secret;
  const started = await api('POST', `/automations/${created.body.id}/run`);
  expect(started.status, started.text).toBe(202);
  const run = await waitFor(async () => {
    const list = await api('GET', `/automations/${created.body.id}/runs`);
    return list.body.runs.find((r: any) => r.id === started.body.runId && r.status !== 'running');
  }, { timeoutMs: 60_000, what: 'the run to finish' });
  return { run, name };
}

async function auditEvents(org: TestOrganization, runId: string) {
  return stack.runtime.orm.em.fork().find(AuditEvent, { organizationId: org.id, targetId: runId });
}

describe('run output before channel delivery', () => {
  const channels = () => [{ type: 'slack', target: '#dlp', token: SLACK_TOKEN }, { type: 'webhook', target: receiver.url }];

  it('masks an SSN in what Slack and the webhook receive when the policy masks', async () => {
    upstream.enqueue({ content: `Customer ${SSN} is verified.` });
    const { run, name } = await runAutomation(masking, { channels: channels() });
    expect(run.status, run.error).toBe('success');
    const post = slack.posts.find((p) => p.text.includes(name));
    expect(post?.text).toContain('Customer [REDACTED:us_ssn] is verified.');
    expect(post?.text).not.toContain(SSN);
    const delivery = receiver.deliveries.find((d) => d.deliveryId === `${run.id}:1`);
    expect(delivery?.verified).toBe(true);
    expect((delivery!.body.data as { output: string }).output).toBe('Customer [REDACTED:us_ssn] is verified.');
    const events = await auditEvents(masking, run.id);
    expect(events.map((e) => e.metadata)).toContainEqual({ destination: 'channel:slack', findings: { us_ssn: 1 }, blocked: [], masked: true });
    expect(JSON.stringify(events)).not.toContain(SSN);
  }, 90_000);

  it('fails the run with dlp_blocked naming the type, delivering nothing, when the policy blocks', async () => {
    upstream.enqueue({ content: `Customer ${SSN} is verified.` });
    const { run, name } = await runAutomation(blocking, { channels: channels() });
    expect(run.status).toBe('failure');
    expect(run.error).toMatch(/^dlp_blocked: .*us_ssn/);
    expect(run.error).not.toContain(SSN);
    expect(slack.posts.filter((p) => p.text.includes(name))).toHaveLength(0);
    expect(receiver.deliveries.filter((d) => d.deliveryId?.startsWith(run.id))).toHaveLength(0);
    expect((await auditEvents(blocking, run.id)).map((e) => e.action)).toContain('dlp.blocked');
  }, 90_000);
});

describe('tool results and tool-call arguments in runs', () => {
  // add(4111111111111110, 1): arguments without a card number, a result that is one.
  const cardResult = { toolCalls: [{ id: 'call_add', name: 'fixture-http__add', arguments: '{"a": 4111111111111110, "b": 1}' }] };

  it('masks a tool result carrying a card number before it goes back upstream', async () => {
    upstream.enqueue(cardResult, { content: 'done' });
    const before = upstream.requests.length;
    const { run } = await runAutomation(masking, { tools: ['fixture-http'] });
    expect(run.status, run.error).toBe('success');
    const second = upstream.requests[before + 1]!;
    expect(second.body.messages).toContainEqual(expect.objectContaining({ role: 'tool', tool_call_id: 'call_add', content: '[REDACTED:credit_card]' }));
    expect(JSON.stringify(second.body)).not.toContain(CARD);
  }, 90_000);

  it('blocks a tool result carrying a card number: the run fails, the upstream never sees it', async () => {
    upstream.enqueue(cardResult, { content: 'done' });
    const before = upstream.requests.length;
    const { run } = await runAutomation(blocking, { tools: ['fixture-http'] });
    expect(run.status).toBe('failure');
    expect(run.error).toMatch(/^dlp_blocked: .*credit_card/);
    expect(upstream.requests.slice(before).map((r) => JSON.stringify(r.body)).join()).not.toContain(CARD);
  }, 90_000);

  it('masks tool-call arguments before they reach the MCP server', async () => {
    upstream.enqueue({ toolCalls: [{ id: 'call_echo', name: 'fixture-http__echo', arguments: `{"text": "card ${CARD}"}` }] }, { content: 'done' });
    const before = upstream.requests.length;
    const { run } = await runAutomation(masking, { tools: ['fixture-http'] });
    expect(run.status, run.error).toBe('success');
    // The echo tool answers with what it received: the masked arguments.
    expect(upstream.requests[before + 1]!.body.messages).toContainEqual(expect.objectContaining({ role: 'tool', tool_call_id: 'call_echo', content: 'card [REDACTED:credit_card]' }));
    const events = await auditEvents(masking, run.id);
    expect(events.map((e) => e.metadata)).toContainEqual({ destination: 'tool:echo', findings: { credit_card: 1 }, blocked: [], masked: true });
  }, 90_000);
});
