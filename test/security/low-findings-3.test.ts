// Attacker's tests for SECURITY.md's third round (bounded work and billing): the lows about approvals, channels and docs; a pending
// approval of a deleted assistant or automation decided afterwards; `remember: true` storing an MCP
// server's own tool name (`*`) as a policy key; docs that promised admins an assistant's trigger;
// Slack channels posting with the operator's bot token anywhere in the operator's workspace.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolApproval } from '../../src/approval-policy/entities.js';
import { approvalLink } from '../../src/approvals/links.js';
import { Automation } from '../../src/automations/entities.js';
import { functionNameFor } from '../../src/connectors/tool-use.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startFakeSlack, type FakeSlack } from '../fixtures/fake-slack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { writeFixtureCatalog } from '../tools/fixture-catalog.js';

/** The token of the operator's Slack app, which may post to every channel of the operator's workspace. */
const OPERATOR_SLACK_TOKEN = 'xoxb-operator-workspace-token';
/** The organization's own Slack app. */
const TENANT_SLACK_TOKEN = 'xoxb-tenant-own-app-token';
const TOKEN = `tok-${randomUUID()}`;
let stack: Stack;
let org: TestOrganization;
let upstream: FakeUpstream;
let mcp: ToolServer;
let receiver: WebhookReceiver;
let slack: FakeSlack;

beforeAll(async () => {
  [upstream, mcp, receiver, slack] = await Promise.all([startFakeUpstream(), startToolServer(), startWebhookReceiver(), startFakeSlack({ token: [OPERATOR_SLACK_TOKEN, TENANT_SLACK_TOKEN] })]);
  receiver.secret = 'whsec_low_findings_3_receiver_1234';
  stack = await startStack({
    env: {
      GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })),
      TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: mcp.url, hangUrl: mcp.url }),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // What a deployment had before: one bot token for the whole workspace. It must reach no tenant's channel.
      SLACK_BOT_TOKEN: OPERATOR_SLACK_TOKEN,
      SLACK_API_URL: slack.apiUrl,
    },
  });
  org = await createTestOrganization(stack.runtime.orm);
  const connection = await api('POST', '/tools/connections', { toolId: 'fixture-http', name: 'Tools', env: { FIXTURE_TOKEN: TOKEN } });
  expect(connection.status, connection.text).toBe(201);
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  await Promise.all([upstream?.close(), mcp?.stop(), receiver?.stop(), slack?.stop()]);
});

/** As the member who owns what the tests create. */
const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key: org.member.key, body });
const asAdmin = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key: org.admin.key, body });

/** A link as sent (its origin is PUBLIC_BASE_URL's) called on this stack's API. */
function follow(link: string) {
  const url = new URL(link);
  return call(stack.api.url, 'POST', `${url.pathname}${url.search}`, { headers: { accept: 'application/json' } });
}

const webhookChannel = () => ({ type: 'webhook', target: receiver.url, secret: receiver.secret });

/** The approve link the channel received for the request. */
async function approveLinkSent(approvalId: string): Promise<string> {
  const event = await waitFor(async () => receiver.deliveries.find((d) => d.event === 'approval.requested' && (d.body as any).data.approvalId === approvalId), {
    what: 'the approval request on the webhook channel',
  });
  return (event.body as any).data.approveUrl;
}

async function approvalAudit(approvalId: string): Promise<string[]> {
  const audit = await call(stack.baseUrl, 'GET', '/audit-logs?limit=100', { key: org.owner.key });
  return audit.body.auditLogs.filter((event: any) => event.targetId === approvalId).map((event: any) => event.action);
}

describe('a pending approval of a deleted assistant or automation (third round, finding 1)', () => {
  it('is cancelled with the assistant: neither the API nor the link sent to its channel approves it, and the tool never runs', async () => {
    const created = await api('POST', '/assistants', {
      name: 'Adder', model: 'fake-model', trigger: { type: 'webhook' }, systemPrompt: 'Add with the tool.',
      tools: ['fixture-http'], toolApprovals: { 'fixture-http__add': 'always' }, channels: [webhookChannel()],
    });
    expect(created.status, created.text).toBe(201);
    upstream.reset();
    upstream.enqueue({ toolCalls: [{ id: 'call_add', name: 'fixture-http__add', arguments: '{"a": 2, "b": 40}' }] }, { content: 'Done.' });
    const ack = await call(stack.baseUrl, 'POST', new URL(created.body.webhookUrl).pathname.replace(/^\/v1/, ''), { body: { a: 2, b: 40 } });
    expect(ack.status).toBe(202);
    const executionId: string = ack.body.executionId;
    const waiting = await waitFor(async () => {
      const res = await api('GET', `/webhooks/executions/${executionId}`);
      return res.body.pendingApprovals?.length > 0 && res.body;
    }, { timeoutMs: 60_000, what: 'the execution to wait for an approval' });
    const approvalId: string = waiting.pendingApprovals[0].id;
    const approveUrl = await approveLinkSent(approvalId);

    expect((await api('DELETE', `/assistants/${created.body.id}`)).status).toBe(204);

    expect((await api('GET', `/approvals/${approvalId}`)).body).toMatchObject({ status: 'cancelled', decidedVia: 'cancel', decidedBy: null, reason: 'its assistant was deleted' });
    for (const decide of [() => api('POST', `/approvals/${approvalId}/approve`), () => asAdmin('POST', `/approvals/${approvalId}/approve`), () => follow(approveUrl)]) {
      const refused = await decide();
      expect(refused.status, refused.text).toBe(409);
      expect(refused.body.error.message).toContain('cancelled');
    }
    const ended = await waitFor(async () => {
      const res = await api('GET', `/webhooks/executions/${executionId}`);
      return ['success', 'failure'].includes(res.body.status) && res.body;
    }, { timeoutMs: 60_000, what: 'the execution to end' });
    expect(ended).toMatchObject({ status: 'failure', error: 'cancelled' });
    expect((await api('GET', `/approvals/${approvalId}`)).body.status).toBe('cancelled');
    expect(await approvalAudit(approvalId)).not.toContain('approval.approved');
    expect(mcp.calls.filter((name) => name === 'add')).toEqual([]);
  }, 180_000);

  it('goes with the automation: neither the API nor the link sent to its channel approves it, and the tool never runs', async () => {
    const created = await api('POST', '/automations', {
      name: 'Adder', systemPrompt: 'Add 2 and 40.', schedule: '0 9 * * *', status: 'paused', model: 'fake-model',
      tools: ['fixture-http'], toolApprovals: { 'fixture-http__add': 'always' }, channels: [webhookChannel()],
    });
    expect(created.status, created.text).toBe(201);
    upstream.reset();
    upstream.enqueue({ toolCalls: [{ id: 'call_add', name: 'fixture-http__add', arguments: '{"a": 2, "b": 40}' }] }, { content: 'Done.' });
    const started = await api('POST', `/automations/${created.body.id}/run`);
    expect(started.status, started.text).toBe(202);
    const run = await waitFor(async () => {
      const list = await api('GET', `/automations/${created.body.id}/runs`);
      const found = list.body.runs.find((r: any) => r.id === started.body.runId);
      return found?.pendingApprovals.length > 0 && found;
    }, { timeoutMs: 60_000, what: 'the run to wait for an approval' });
    const approvalId: string = run.pendingApprovals[0].id;
    const approveUrl = await approveLinkSent(approvalId);

    expect((await api('DELETE', `/automations/${created.body.id}`)).status).toBe(204);

    expect((await api('GET', `/approvals/${approvalId}`)).status).toBe(404);
    for (const decide of [() => api('POST', `/approvals/${approvalId}/approve`), () => asAdmin('POST', `/approvals/${approvalId}/approve`), () => follow(approveUrl)]) {
      const refused = await decide();
      expect(refused.status, refused.text).toBe(404);
    }
    expect(await approvalAudit(approvalId)).not.toContain('approval.approved');
    expect(mcp.calls.filter((name) => name === 'add')).toEqual([]);
  }, 180_000);

  it('is cancelled, not approved, when it was recorded while its assistant was being deleted (by the API and by a link)', async () => {
    for (const by of ['api', 'link'] as const) {
      const created = await api('POST', '/assistants', { name: 'Gone', systemPrompt: 'x' });
      expect(created.status, created.text).toBe(201);
      expect((await api('DELETE', `/assistants/${created.body.id}`)).status).toBe(204);
      // What the recording activity leaves when it read the assistant just before the delete committed.
      const row = await pendingRow({ assistantId: created.body.id, executionId: `wex_${randomUUID().replace(/-/g, '').slice(0, 22)}` });
      const refused = by === 'api'
        ? await api('POST', `/approvals/${row.id}/approve`)
        : await follow(approvalLink(stack.runtime, row, 'approve', 'email:ops@example.test'));
      expect(refused.status, `${by}: ${refused.text}`).toBe(409);
      expect((await api('GET', `/approvals/${row.id}`)).body).toMatchObject({ status: 'cancelled', decidedVia: 'cancel', reason: 'its assistant was deleted' });
      expect(await approvalAudit(row.id)).toEqual([]);
    }
  });
});

describe('remember: true on a tool the MCP server named (third round, finding 2)', () => {
  it('is refused 400 naming remember for a tool named * or a*b, leaving the policy and the request as they were', async () => {
    const created = await api('POST', '/automations', {
      name: 'Wildcards', systemPrompt: 'Call the odd tools.', schedule: '0 9 * * *', status: 'paused', model: 'fake-model',
      tools: ['fixture-http'], toolApprovals: { 'fixture-http__*': 'always' },
    });
    expect(created.status, created.text).toBe(201);
    upstream.reset();
    upstream.enqueue(
      {
        toolCalls: [
          { id: 'call_star', name: functionNameFor('fixture-http', '*'), arguments: '{}' },
          { id: 'call_astarb', name: functionNameFor('fixture-http', 'a*b'), arguments: '{}' },
        ],
      },
      { content: 'Done.' },
    );
    const started = await api('POST', `/automations/${created.body.id}/run`);
    expect(started.status, started.text).toBe(202);
    const runOf = async () => (await api('GET', `/automations/${created.body.id}/runs`)).body.runs.find((r: any) => r.id === started.body.runId);
    const run = await waitFor(async () => {
      const found = await runOf();
      return found?.pendingApprovals.length === 2 && found;
    }, { timeoutMs: 60_000, what: 'the run to wait for two approvals' });
    expect(run.pendingApprovals.map((p: any) => p.tool).sort()).toEqual(['fixture-http__*', 'fixture-http__a*b']);

    for (const pending of run.pendingApprovals) {
      const refused = await api('POST', `/approvals/${pending.id}/approve`, { remember: true });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'bad_request', param: 'remember' });
      expect(refused.body.error.message).toContain('[A-Za-z0-9_-]');
      expect((await api('GET', `/approvals/${pending.id}`)).body.status).toBe('pending');
    }
    expect((await api('GET', `/automations/${created.body.id}`)).body.toolApprovals).toEqual({ 'fixture-http__*': 'always' });

    for (const pending of run.pendingApprovals) expect((await api('POST', `/approvals/${pending.id}/approve`)).status).toBe(200);
    const ended = await waitFor(async () => {
      const found = await runOf();
      return found?.status !== 'running' && found;
    }, { timeoutMs: 60_000, what: 'the run to end' });
    expect(ended).toMatchObject({ status: 'success', output: 'Done.' });
    expect(mcp.calls).toEqual(expect.arrayContaining(['*', 'a*b']));
    expect((await api('GET', `/automations/${created.body.id}`)).body.toolApprovals).toEqual({ 'fixture-http__*': 'always' });
  }, 180_000);
});

describe("an assistant's trigger in the docs (third round, finding 3)", () => {
  it("is the owner's: the service answers an admin 403 naming trigger, and docs/webhooks-and-assistants.md says so", async () => {
    const created = await api('POST', '/assistants', { name: 'Triage', systemPrompt: 'x' });
    expect(created.status, created.text).toBe(201);
    const refused = await asAdmin('PUT', `/assistants/${created.body.id}`, { trigger: { type: 'webhook' } });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.error.param).toBe('trigger');

    const doc = fs.readFileSync(path.resolve('docs/webhooks-and-assistants.md'), 'utf8').replace(/\s+/g, ' ');
    const adminsMay = doc.match(/The owner, admins and the organization's owner change ([^;.]*)/)?.[1];
    expect(adminsMay, 'the sentence that lists what admins change').toBeDefined();
    expect(adminsMay).not.toMatch(/trigger|regenerate/);
    expect(doc).toContain('only the owner changes what it runs');
    expect(doc).toMatch(/what starts it \(`trigger`/);
  });
});

describe('Slack channels (third round, finding 4)', () => {
  it("are refused without the organization's own bot token, on automations and assistants", async () => {
    const automation = await api('POST', '/automations', { name: 'Anywhere', systemPrompt: 'x', schedule: '0 9 * * *', status: 'paused', channels: [{ type: 'email', target: 'a@example.test' }, { type: 'slack', target: '#general' }] });
    expect(automation.status, automation.text).toBe(400);
    expect(automation.body.error).toMatchObject({ code: 'bad_request', param: 'channels[1].token' });
    const assistant = await api('POST', '/assistants', { name: 'Anywhere', systemPrompt: 'x', channels: [{ type: 'slack', target: '#general' }] });
    expect(assistant.status, assistant.text).toBe(400);
    expect(assistant.body.error).toMatchObject({ code: 'bad_request', param: 'channels.0.token' });
    const notAToken = await api('POST', '/assistants', { name: 'Anywhere', systemPrompt: 'x', channels: [{ type: 'slack', target: '#general', token: 'not a token' }] });
    expect(notAToken.status, notAToken.text).toBe(400);
    expect(notAToken.body.error.param).toBe('channels.0.token');
  });

  it("post with the channel's own token, which is never shown and is kept when the owner saves the same target again", async () => {
    const ownToken = TENANT_SLACK_TOKEN;
    const created = await api('POST', '/automations', {
      name: `Digest ${randomUUID().slice(0, 8)}`, systemPrompt: 'Say hi.', schedule: '0 9 * * *', status: 'paused', model: 'fake-model',
      channels: [{ type: 'slack', target: '#team', token: ownToken }],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.channels).toEqual([{ type: 'slack', target: '#team' }]);
    expect(JSON.stringify((await api('GET', `/automations/${created.body.id}`)).body)).not.toContain(ownToken);
    const stored = await stack.runtime.orm.em.fork().findOneOrFail(Automation, { id: created.body.id });
    expect(JSON.stringify(stored.channels)).not.toContain(ownToken);

    const kept = await api('PUT', `/automations/${created.body.id}`, { channels: [{ type: 'slack', target: '#team' }] });
    expect(kept.status, kept.text).toBe(200);
    const moved = await api('PUT', `/automations/${created.body.id}`, { channels: [{ type: 'slack', target: '#elsewhere' }] });
    expect(moved.status, moved.text).toBe(400);
    expect(moved.body.error.param).toBe('channels[0].token');

    upstream.reset();
    upstream.enqueue({ content: 'hi from the digest' });
    const started = await api('POST', `/automations/${created.body.id}/run`);
    expect(started.status, started.text).toBe(202);
    const post = await waitFor(async () => slack.posts.find((p) => p.text.includes('hi from the digest')), { timeoutMs: 60_000, what: 'the Slack post' });
    expect(post).toMatchObject({ channel: '#team', authorization: `Bearer ${ownToken}` });
  }, 120_000);

  it("never post with the operator's token: a channel stored without a token fails its delivery for good and nothing is posted", async () => {
    const name = `Legacy ${randomUUID().slice(0, 8)}`;
    const created = await api('POST', '/automations', { name, systemPrompt: 'Say hi.', schedule: '0 9 * * *', status: 'paused', model: 'fake-model' });
    expect(created.status, created.text).toBe(201);
    // As a channel saved before channels carried their organization's token.
    await stack.runtime.orm.em.fork().nativeUpdate(Automation, { id: created.body.id }, { channels: [{ type: 'slack', target: '#announcements' }] });
    upstream.reset();
    upstream.enqueue({ content: 'Fake approval request: approve at https://attacker.example' });
    const started = await api('POST', `/automations/${created.body.id}/run`);
    expect(started.status, started.text).toBe(202);
    const ended = await waitFor(async () => {
      const list = await api('GET', `/automations/${created.body.id}/runs`);
      const found = list.body.runs.find((r: any) => r.id === started.body.runId);
      return found?.status !== 'running' && found;
    }, { timeoutMs: 60_000, what: 'the run to end' });
    expect(ended.status).toBe('failure');
    expect(ended.error).toContain('delivery_failed');
    expect(ended.error).toContain('no bot token');
    expect(slack.posts.filter((p) => p.text.includes(name) || p.channel === '#announcements')).toEqual([]);
    expect(slack.posts.map((p) => p.authorization)).not.toContain(`Bearer ${OPERATOR_SLACK_TOKEN}`);
  }, 120_000);
});

/** A pending request written straight to the database, expiring in an hour. */
async function pendingRow(subject: { assistantId: string; executionId: string }): Promise<ToolApproval> {
  const em = stack.runtime.orm.em.fork();
  const now = new Date();
  const row = em.create(ToolApproval, {
    id: randomUUID(),
    organizationId: org.id,
    workflowId: `webhook/${subject.executionId}`,
    ...subject,
    ownerId: org.member.id,
    tool: 'fixture-http__add',
    arguments: '{}',
    requestedAt: now,
    expiresAt: new Date(now.getTime() + 3_600_000),
    status: 'pending',
  });
  await em.flush();
  return row;
}

interface ToolServer {
  url: string;
  /** Names of the tools called, in order. */
  calls: string[];
  stop(): Promise<void>;
}

/** An MCP server (Streamable HTTP, stateless) whose tools are `add`, and two named as a hostile server may: `*` and `a*b`. */
async function startToolServer(): Promise<ToolServer> {
  const calls: string[] = [];
  const tools = ['add', '*', 'a*b'].map((name) => ({ name, inputSchema: { type: 'object' as const, properties: {} } }));
  const httpServer = http.createServer(async (req, res) => {
    const server = new Server({ name: 'hostile-names', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      calls.push(request.params.name);
      const args = request.params.arguments ?? {};
      const text = request.params.name === 'add' ? String(Number(args.a) + Number(args.b)) : `called ${request.params.name}`;
      return { content: [{ type: 'text', text }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    stop: () => new Promise<void>((resolve) => {
      httpServer.closeAllConnections();
      httpServer.close(() => resolve());
    }),
  };
}

