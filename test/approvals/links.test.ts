// Approval requests reach the run's channels (Slack, email, a signed webhook event
// `approval.requested`), each with two signed links; a link decides with a POST after a worker
// restart in between, never with a GET, and cannot be replayed, turned into the other decision,
// used for another request, or used after the request expired.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolApproval } from '../../src/approval-policy/entities.js';
import { approvalLink } from '../../src/approvals/links.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startFakeSlack, type FakeSlack } from '../fixtures/fake-slack.js';
import { startMcpHttpFixture, type HttpFixture } from '../fixtures/mcp-server.js';
import { startSmtpListener, type SmtpListener } from '../fixtures/smtp.js';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, startStackWorker, type Stack } from '../helpers/stack.js';
import { writeFixtureCatalog } from '../tools/fixture-catalog.js';

const TOKEN = `tok-${randomUUID()}`;
/** The organization's own Slack app's token, given with each Slack channel. */
const SLACK_TOKEN = 'xoxb-approvals';
let stack: Stack;
let org: TestOrganization;
let upstream: FakeUpstream;
let mcp: HttpFixture;
let slack: FakeSlack;
let smtp: SmtpListener;
let receiver: WebhookReceiver;

beforeAll(async () => {
  [upstream, mcp, slack, smtp, receiver] = await Promise.all([
    startFakeUpstream(), startMcpHttpFixture({ token: TOKEN }), startFakeSlack({ token: SLACK_TOKEN }), startSmtpListener(), startWebhookReceiver(),
  ]);
  stack = await startStack({
    env: {
      GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })),
      TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: mcp.url, hangUrl: mcp.url }),
      SLACK_API_URL: slack.apiUrl,
      SMTP_URL: smtp.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  org = await createTestOrganization(stack.runtime.orm);
  const connection = await api('POST', '/tools/connections', { toolId: 'fixture-http', name: 'Fixture', env: { FIXTURE_TOKEN: TOKEN } });
  expect(connection.status, connection.text).toBe(201);
}, 180_000);
afterAll(async () => {
  await stack?.stop(); // its worker: the one started after the restart
  await Promise.all([upstream?.close(), mcp?.stop(), slack?.stop(), smtp?.stop(), receiver?.stop()]);
});

const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key: org.member.key, body });

/** A link as sent (its origin is PUBLIC_BASE_URL's) called on this stack's API. */
function follow(method: 'GET' | 'POST', link: string, headers: Record<string, string> = {}) {
  const url = new URL(link);
  return call(stack.api.url, method, `${url.pathname}${url.search}`, { headers });
}

async function waitingRun(channels: unknown[]): Promise<{ automationId: string; runId: string; approvalId: string; secret?: string }> {
  const created = await api('POST', '/automations', {
    name: 'Adder', systemPrompt: 'Add 2 and 40.', schedule: '0 9 * * *', status: 'paused', model: 'fake-model',
    tools: ['fixture-http'], toolApprovals: { 'fixture-http__add': 'always' }, channels,
  });
  expect(created.status, created.text).toBe(201);
  upstream.reset();
  upstream.enqueue({ toolCalls: [{ id: 'call_add', name: 'fixture-http__add', arguments: '{"a": 2, "b": 40}' }] }, { content: 'Done.' });
  const started = await api('POST', `/automations/${created.body.id}/run`);
  const runId: string = started.body.runId;
  const run = await waitFor(async () => {
    const list = await api('GET', `/automations/${created.body.id}/runs`);
    const found = list.body.runs.find((r: any) => r.id === runId);
    return found?.pendingApprovals.length > 0 && found;
  }, { timeoutMs: 60_000, what: 'the run to wait' });
  const secret = created.body.channels.find((channel: any) => channel.type === 'webhook')?.secret;
  return { automationId: created.body.id, runId, approvalId: run.pendingApprovals[0].id, secret };
}

async function runEnd(automationId: string, runId: string) {
  return waitFor(async () => {
    const list = await api('GET', `/automations/${automationId}/runs`);
    const found = list.body.runs.find((r: any) => r.id === runId);
    return found?.status !== 'running' && found;
  }, { timeoutMs: 60_000, what: 'the run to end' });
}

const toolMessages = () =>
  (upstream.requests.at(-1)!.body.messages as { role: string; content: string }[]).filter((message) => message.role === 'tool').map((message) => message.content);

describe('approval links', () => {
  it('sends the request to Slack, email and a signed webhook, and a link POST approves it after a worker restart', async () => {
    receiver.secret = 'whsec_approvals_receiver_secret_1234';
    const { automationId, runId, approvalId } = await waitingRun([
      { type: 'slack', target: '#ops', token: SLACK_TOKEN },
      { type: 'email', target: 'ops@example.test' },
      { type: 'webhook', target: receiver.url, secret: receiver.secret },
    ]);

    const event = await waitFor(async () => receiver.deliveries.find((delivery) => delivery.event === 'approval.requested'), { what: 'the webhook event' });
    expect(event.verified && event.verifiedWithTimestamp).toBe(true);
    expect(event.body).toMatchObject({ event: 'approval.requested', data: { approvalId, runId, automationId, tool: 'fixture-http__add', arguments: '{"a": 2, "b": 40}' } });
    const { approveUrl, denyUrl } = (event.body as any).data as { approveUrl: string; denyUrl: string };
    expect(approveUrl).toContain(`/approval-links/${approvalId}/approve?`);
    expect(denyUrl).toContain(`/approval-links/${approvalId}/deny?`);
    const post = await waitFor(async () => slack.posts.find((p) => p.text.includes(approvalId)), { what: 'the Slack message' });
    expect(post.channel).toBe('#ops');
    expect(post.text).toContain('fixture-http__add');
    expect(post.text).toContain('{"a": 2, "b": 40}');
    expect(post.text).toMatch(new RegExp(`Approve: \\S+/approval-links/${approvalId}/approve\\?`));
    expect(post.text).toMatch(new RegExp(`Deny: \\S+/approval-links/${approvalId}/deny\\?`));
    const mail = await waitFor(async () => smtp.messages.find((m) => m.to.includes('ops@example.test')), { what: 'the email' });
    const mailText = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(mailText).toContain(`/approval-links/${approvalId}/approve?`);
    expect(mailText).toContain('fixture-http__add');

    // The worker goes away and another takes over while the run waits.
    await stack.worker!.stop();
    stack.worker = await startStackWorker(stack);

    const page = await follow('GET', approveUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('fixture-http__add');
    expect(page.text).toContain('<form method="post">');
    expect((await api('GET', `/approvals/${approvalId}`)).body.status).toBe('pending');

    const decided = await follow('POST', approveUrl, { accept: 'application/json' });
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body).toMatchObject({ status: 'approved', decidedVia: 'link', decidedChannel: `webhook:${receiver.url}`, decidedBy: null });
    expect(await runEnd(automationId, runId)).toMatchObject({ status: 'success', output: 'Done.' });
    expect(toolMessages()).toEqual(['42']);

    const audit = await call(stack.baseUrl, 'GET', '/audit-logs?limit=100', { key: org.owner.key });
    expect(audit.body.auditLogs.filter((e: any) => e.targetId === approvalId)).toEqual([
      expect.objectContaining({ action: 'approval.approved', actorUserId: null, metadata: expect.objectContaining({ via: 'link', channel: `webhook:${receiver.url}` }) }),
    ]);

    // Single use: neither link decides again.
    expect((await follow('POST', approveUrl)).status).toBe(409);
    expect((await follow('POST', denyUrl)).status).toBe(409);
  }, 180_000);

  it('denies with a deny link, and the model hears which channel denied it', async () => {
    const { automationId, runId, approvalId } = await waitingRun([{ type: 'slack', target: '#ops', token: SLACK_TOKEN }]);
    const post = await waitFor(async () => slack.posts.find((p) => p.text.includes(`/approval-links/${approvalId}/deny?`)), { what: 'the Slack message' });
    const denyUrl = post.text.match(/Deny: (\S+)/)![1]!;
    const decided = await follow('POST', denyUrl, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(decided.status).toBe(200);
    expect(decided.headers.get('content-type')).toContain('text/html');
    expect(decided.text).toContain('The tool call is denied.');
    expect(await runEnd(automationId, runId)).toMatchObject({ status: 'success' });
    expect(toolMessages()).toEqual(['Tool call not run: a person denied it (reason: denied from a link sent to slack:#ops).']);
  }, 120_000);

  it('refuses a link used for another request, turned into the other decision, or with an edited expiry or channel', async () => {
    const first = await pendingRow();
    const second = await pendingRow();
    const link = new URL(approvalLink(stack.runtime, first, 'approve', 'email:ops@example.test'));

    const forAnother = `${link.pathname.replace(first.id, second.id)}${link.search}`;
    const otherDecision = `${link.pathname.replace('/approve', '/deny')}${link.search}`;
    const laterExpiry = `${link.pathname}${link.search.replace(/expires=\d+/, `expires=${first.expiresAt.getTime() + 86_400_000}`)}`;
    const otherChannel = `${link.pathname}${link.search.replace(/channel=[^&]+/, 'channel=email%3Aattacker%40example.test')}`;
    for (const path of [forAnother, otherDecision, laterExpiry, otherChannel]) {
      for (const method of ['GET', 'POST']) {
        const refused = await call(stack.api.url, method, path);
        expect(refused.status, `${method} ${path}`).toBe(403);
        expect(refused.body.error.param).toBe('sig');
      }
    }
    expect((await api('GET', `/approvals/${first.id}`)).body.status).toBe('pending');
    expect((await api('GET', `/approvals/${second.id}`)).body.status).toBe('pending');
  });

  it('refuses a link past its request\'s expiry, by GET and by POST', async () => {
    const expired = await pendingRow(-1000);
    const link = new URL(approvalLink(stack.runtime, expired, 'approve', 'slack:#ops'));
    for (const method of ['GET', 'POST']) {
      const refused = await call(stack.api.url, method, `${link.pathname}${link.search}`);
      expect(refused.status).toBe(410);
      expect(refused.body.error.param).toBe('expires');
    }
    expect((await api('GET', `/approvals/${expired.id}`)).body.status).toBe('pending');
  });
});

/** A pending request of an ended run, written straight to the database (expiring in `inMs`). */
async function pendingRow(inMs = 3_600_000): Promise<ToolApproval> {
  const created = await api('POST', '/automations', { name: 'Rows', systemPrompt: 'x', schedule: '0 9 * * *', status: 'paused' });
  const em = stack.runtime.orm.em.fork();
  const approval = em.create(ToolApproval, {
    id: randomUUID(), organizationId: org.id, workflowId: `run/${randomUUID()}`, automationId: created.body.id, ownerId: org.member.id,
    tool: 'fixture-http__add', arguments: '{}', requestedAt: new Date(), expiresAt: new Date(Date.now() + inMs), status: 'pending',
  });
  await em.flush();
  return approval;
}
