// Human approval of tool calls in automation runs, on the real stack: a call under an
// `always` policy makes the run wait (status running, `pendingApprovals` in its view) until a
// person approves or denies it through the API, an operator signals the run, the request expires
// or the run is cancelled. Each case checks what the model saw (the fake upstream records every
// request), the approval's record and the audit log.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startMcpHttpFixture, type HttpFixture } from '../fixtures/mcp-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { RECORDING, writeHistoryFixture } from '../helpers/histories.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization, type TestUser } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { writeFixtureCatalog } from '../tools/fixture-catalog.js';

const TOKEN = `tok-${randomUUID()}`;
/** Short enough for the expiry case, long enough for a person (the test) to decide the others. */
const APPROVAL_TIMEOUT_SECONDS = 20;
let stack: Stack;
let org: TestOrganization;
let otherMember: TestUser;
let upstream: FakeUpstream;
let mcp: HttpFixture;
let receiver: WebhookReceiver;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  mcp = await startMcpHttpFixture({ token: TOKEN });
  receiver = await startWebhookReceiver();
  receiver.secret = 'whsec_run_approvals_receiver_1234';
  stack = await startStack({
    env: {
      GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })),
      TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: mcp.url, hangUrl: mcp.url }),
      APPROVAL_TIMEOUT_SECONDS: String(APPROVAL_TIMEOUT_SECONDS),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  org = await createTestOrganization(stack.runtime.orm);
  otherMember = await createTestUser(stack.runtime.orm, org.id, 'member');
  const connection = await as(org.member.key)('POST', '/tools/connections', { toolId: 'fixture-http', name: 'Fixture', env: { FIXTURE_TOKEN: TOKEN } });
  expect(connection.status, connection.text).toBe(201);
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
  await mcp?.stop();
  await receiver?.stop();
});

const as = (key: string) => (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key, body });
const owner = () => as(org.member.key);

/** An automation of the member's whose `add` calls wait for approval; `echo` runs at once. */
async function createAutomation(): Promise<string> {
  const created = await owner()('POST', '/automations', {
    name: `Adder ${randomUUID().slice(0, 8)}`,
    systemPrompt: 'Add 2 and 40 with the tool, then say the answer.',
    schedule: '0 9 * * *',
    status: 'paused',
    model: 'fake-model',
    tools: ['fixture-http'],
    toolApprovals: { 'fixture-http__add': 'always' },
    channels: [{ type: 'webhook', target: receiver.url, secret: receiver.secret }],
  });
  expect(created.status, created.text).toBe(201);
  return created.body.id;
}

/** The model asks for `add` (and `echo` in the same turn when `withEcho`), then answers with what the tools said. */
function enqueueToolTurn(options: { withEcho?: boolean } = {}): void {
  // A run cancelled before its second model call leaves its reply queued: start afresh.
  upstream.reset();
  upstream.enqueue(
    {
      toolCalls: [
        { id: 'call_add', name: 'fixture-http__add', arguments: '{"a": 2, "b": 40}' },
        ...(options.withEcho ? [{ id: 'call_echo', name: 'fixture-http__echo', arguments: '{"text": "at once"}' }] : []),
      ],
      usage: { input: 20, output: 5 },
    },
    { content: 'Done.', usage: { input: 30, output: 8 } },
  );
}

async function startRun(automationId: string): Promise<string> {
  const started = await owner()('POST', `/automations/${automationId}/run`);
  expect(started.status, started.text).toBe(202);
  return started.body.runId;
}

async function runOf(automationId: string, runId: string): Promise<any> {
  const list = await owner()('GET', `/automations/${automationId}/runs`);
  return list.body.runs.find((run: any) => run.id === runId);
}

async function waitForPending(automationId: string, runId: string): Promise<any> {
  return waitFor(async () => {
    const run = await runOf(automationId, runId);
    return run?.pendingApprovals.length > 0 && run;
  }, { timeoutMs: 60_000, what: 'the run to wait for an approval' });
}

async function waitForEnd(automationId: string, runId: string): Promise<any> {
  return waitFor(async () => {
    const run = await runOf(automationId, runId);
    return run?.status !== 'running' && run;
  }, { timeoutMs: 60_000, what: 'the run to end' });
}

/** The tool messages of the model call that followed the tool turn of `runId`. */
function toolMessagesSeen(): { tool_call_id: string; content: string }[] {
  const last = upstream.requests.at(-1)!;
  return (last.body.messages as { role: string; tool_call_id: string; content: string }[]).filter((message) => message.role === 'tool');
}

/** callRunTool activities of the run's workflow that completed, from its Temporal history. */
async function completedToolCalls(runId: string): Promise<number> {
  const history = await stack.runtime.temporal.client.workflow.getHandle(`run/${runId}`).fetchHistory();
  const events = history.events ?? [];
  const toolCalls = new Set(
    events.filter((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'callRunTool').map((event) => String(event.eventId)),
  );
  return events.filter((event) => toolCalls.has(String(event.activityTaskCompletedEventAttributes?.scheduledEventId))).length;
}

/** The signed `approval.requested` event the automation's webhook channel received for the request. */
async function requestSentToChannel(approvalId: string): Promise<any> {
  const delivery = await waitFor(async () => receiver.deliveries.find((d) => d.event === 'approval.requested' && (d.body as any).data.approvalId === approvalId), {
    what: 'the approval request on the webhook channel',
  });
  expect(delivery.verified && delivery.verifiedWithTimestamp).toBe(true);
  expect((delivery.body as any).data).toMatchObject({ tool: 'fixture-http__add', arguments: '{"a": 2, "b": 40}', approveUrl: expect.stringContaining(`/approval-links/${approvalId}/approve?`) });
  return delivery;
}

async function auditOf(approvalId: string): Promise<any[]> {
  const audit = await as(org.owner.key)('GET', '/audit-logs?limit=100');
  return audit.body.auditLogs.filter((event: any) => event.targetId === approvalId);
}

describe('a run with a tool under an always policy', () => {
  it('waits with the call in pendingApprovals, runs the call once approved through the API, and audits who approved', async () => {
    const automationId = await createAutomation();
    enqueueToolTurn();
    const runId = await startRun(automationId);

    const waiting = await waitForPending(automationId, runId);
    expect(waiting.status).toBe('running');
    expect(waiting.pendingApprovals).toEqual([{ id: expect.any(String), tool: 'fixture-http__add', arguments: '{"a": 2, "b": 40}', expiresAt: expect.any(String) }]);
    const approvalId = waiting.pendingApprovals[0].id;
    await requestSentToChannel(approvalId);
    const listed = await owner()('GET', `/approvals?status=pending&automationId=${automationId}`);
    expect(listed.body.approvals.map((a: any) => a.id)).toEqual([approvalId]);
    expect(listed.body.approvals[0]).toMatchObject({ runId, automationId, status: 'pending', decidedVia: null });

    const approved = await owner()('POST', `/approvals/${approvalId}/approve`, {});
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', decidedVia: 'api', decidedBy: org.member.id });

    const ended = await waitForEnd(automationId, runId);
    expect(ended).toMatchObject({ status: 'success', output: 'Done.', pendingApprovals: [], tokensInput: 50, tokensOutput: 13 });
    expect(toolMessagesSeen()).toEqual([expect.objectContaining({ tool_call_id: 'call_add', content: '42' })]);
    expect(await auditOf(approvalId)).toEqual([
      expect.objectContaining({ action: 'approval.approved', actorUserId: org.member.id, metadata: expect.objectContaining({ via: 'api', tool: 'fixture-http__add', runId }) }),
    ]);

    const again = await as(org.admin.key)('POST', `/approvals/${approvalId}/deny`, { reason: 'too late' });
    expect(again.status).toBe(409);
    if (RECORDING) {
      const { events } = await stack.runtime.temporal.client.workflow.getHandle(`run/${runId}`).fetchHistory();
      writeHistoryFixture('run-approved.code-2.history.bin', { events });
    }
  }, 120_000);

  it('runs the turn\'s calls under never at once and gives the model every result together', async () => {
    const automationId = await createAutomation();
    enqueueToolTurn({ withEcho: true });
    const modelRequestsBefore = upstream.requests.length;
    const runId = await startRun(automationId);
    const waiting = await waitForPending(automationId, runId);
    // The echo call ran (its activity completed) while the add call waits; the model has not heard back yet.
    await waitFor(async () => (await completedToolCalls(runId)) === 1, { what: 'the echo call to complete' });
    expect(upstream.requests.length).toBe(modelRequestsBefore + 1);

    expect((await owner()('POST', `/approvals/${waiting.pendingApprovals[0].id}/approve`)).status).toBe(200);
    await waitForEnd(automationId, runId);
    expect(toolMessagesSeen()).toEqual([
      expect.objectContaining({ tool_call_id: 'call_add', content: '42' }),
      expect.objectContaining({ tool_call_id: 'call_echo', content: 'at once' }),
    ]);
  }, 120_000);

  it('tells the model a denied call was denied, with the reason, and the run goes on', async () => {
    const automationId = await createAutomation();
    enqueueToolTurn();
    const runId = await startRun(automationId);
    const approvalId = (await waitForPending(automationId, runId)).pendingApprovals[0].id;
    await requestSentToChannel(approvalId);

    const stranger = await as(otherMember.key)('POST', `/approvals/${approvalId}/deny`, {});
    expect(stranger.status).toBe(403);
    const denied = await as(org.admin.key)('POST', `/approvals/${approvalId}/deny`, { reason: 'not today' });
    expect(denied.status, denied.text).toBe(200);
    expect(denied.body).toMatchObject({ status: 'denied', reason: 'not today', decidedBy: org.admin.id });

    expect(await waitForEnd(automationId, runId)).toMatchObject({ status: 'success', output: 'Done.' });
    expect(toolMessagesSeen()).toEqual([
      expect.objectContaining({ tool_call_id: 'call_add', content: 'Tool call not run: a person denied it (reason: not today).' }),
    ]);
    expect(await auditOf(approvalId)).toEqual([
      expect.objectContaining({ action: 'approval.denied', actorUserId: org.admin.id, metadata: expect.objectContaining({ via: 'api', reason: 'not today' }) }),
    ]);
  }, 120_000);

  it("takes an operator's approve signal to run/<runId> with the approval id", async () => {
    const automationId = await createAutomation();
    enqueueToolTurn();
    const runId = await startRun(automationId);
    const approvalId = (await waitForPending(automationId, runId)).pendingApprovals[0].id;
    await requestSentToChannel(approvalId);

    await stack.runtime.temporal.client.workflow.getHandle(`run/${runId}`).signal('approve', { approvalId });

    expect(await waitForEnd(automationId, runId)).toMatchObject({ status: 'success' });
    expect(toolMessagesSeen()).toEqual([expect.objectContaining({ tool_call_id: 'call_add', content: '42' })]);
    const approval = await owner()('GET', `/approvals/${approvalId}`);
    expect(approval.body).toMatchObject({ status: 'approved', decidedVia: 'signal', decidedBy: null });
    expect(await auditOf(approvalId)).toEqual([
      expect.objectContaining({ action: 'approval.approved', actorUserId: null, metadata: expect.objectContaining({ via: 'signal' }) }),
    ]);
  }, 120_000);

  it('expires a request nobody decided and tells the model so', async () => {
    const automationId = await createAutomation();
    enqueueToolTurn();
    const runId = await startRun(automationId);
    const approvalId = (await waitForPending(automationId, runId)).pendingApprovals[0].id;

    const ended = await waitFor(async () => {
      const run = await runOf(automationId, runId);
      return run?.status !== 'running' && run;
    }, { timeoutMs: (APPROVAL_TIMEOUT_SECONDS + 60) * 1000, what: 'the run to end after the expiry' });
    expect(ended).toMatchObject({ status: 'success', output: 'Done.' });
    expect(toolMessagesSeen()).toEqual([
      expect.objectContaining({ tool_call_id: 'call_add', content: 'Tool call not run: nobody approved it before its approval request expired.' }),
    ]);
    expect((await owner()('GET', `/approvals/${approvalId}`)).body).toMatchObject({ status: 'expired', decidedVia: 'timer' });
    expect((await owner()('POST', `/approvals/${approvalId}/approve`)).status).toBe(409);
    await requestSentToChannel(approvalId);
    // Nobody decided: no decision is audited.
    expect(await auditOf(approvalId)).toEqual([]);
  }, (APPROVAL_TIMEOUT_SECONDS + 90) * 1000);

  it('cancels the pending requests of a run cancelled while it waits', async () => {
    const automationId = await createAutomation();
    enqueueToolTurn();
    const runId = await startRun(automationId);
    const approvalId = (await waitForPending(automationId, runId)).pendingApprovals[0].id;

    const cancelled = await owner()('POST', `/automations/${automationId}/runs/${runId}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'failure', error: 'cancelled' });
    await waitFor(async () => (await owner()('GET', `/approvals/${approvalId}`)).body.status === 'cancelled', { what: 'the request to be cancelled' });
    expect((await owner()('POST', `/approvals/${approvalId}/approve`)).status).toBe(409);
    await requestSentToChannel(approvalId);
    expect(await auditOf(approvalId)).toEqual([]);
    expect(upstream.requests).toHaveLength(1);
  }, 120_000);

  it("remembers the tool as never for the automation when its owner asks, and refuses remember to others", async () => {
    const automationId = await createAutomation();
    enqueueToolTurn();
    const runId = await startRun(automationId);
    const approvalId = (await waitForPending(automationId, runId)).pendingApprovals[0].id;
    await requestSentToChannel(approvalId);

    const byAdmin = await as(org.admin.key)('POST', `/approvals/${approvalId}/approve`, { remember: true });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error.param).toBe('remember');
    const remembered = await owner()('POST', `/approvals/${approvalId}/approve`, { remember: true });
    expect(remembered.status, remembered.text).toBe(200);
    await waitForEnd(automationId, runId);
    expect((await owner()('GET', `/automations/${automationId}`)).body.toolApprovals).toEqual({ 'fixture-http__add': 'never' });
    expect(await auditOf(approvalId)).toEqual([expect.objectContaining({ action: 'approval.approved', metadata: expect.objectContaining({ remember: true }) })]);

    // The next run calls the tool without waiting.
    enqueueToolTurn();
    const next = await startRun(automationId);
    expect(await waitForEnd(automationId, next)).toMatchObject({ status: 'success', pendingApprovals: [] });
    expect(toolMessagesSeen()).toEqual([expect.objectContaining({ tool_call_id: 'call_add', content: '42' })]);
  }, 120_000);

  it('shows approvers the arguments after the DLP policy masked them', async () => {
    const policy = await as(org.owner.key)('PUT', '/dlp/policy', { detectors: { email: 'mask' } });
    expect(policy.status, policy.text).toBe(200);
    const automationId = await createAutomation();
    upstream.reset();
    upstream.enqueue({ toolCalls: [{ id: 'call_add', name: 'fixture-http__add', arguments: '{"a": 2, "b": 40, "note": "mail ana@example.com"}' }] }, { content: 'Done.' });
    const runId = await startRun(automationId);
    const [pending] = (await waitForPending(automationId, runId)).pendingApprovals;
    expect(pending.arguments).not.toContain('ana@example.com');
    expect(pending.arguments).toContain('"a": 2');
    expect((await owner()('GET', `/approvals/${pending.id}`)).body.arguments).toBe(pending.arguments);
    expect((await owner()('POST', `/automations/${automationId}/runs/${runId}/cancel`)).status).toBe(200);
  }, 120_000);

  it('lists only the organization\'s requests and answers 404 for another organization\'s', async () => {
    const other = await createTestOrganization(stack.runtime.orm);
    const mine = await owner()('GET', '/approvals');
    expect(mine.body.total).toBeGreaterThan(0);
    const theirs = await as(other.owner.key)('GET', '/approvals');
    expect(theirs.body).toEqual({ approvals: [], total: 0 });
    expect((await as(other.owner.key)('GET', `/approvals/${mine.body.approvals[0].id}`)).status).toBe(404);
    const bad = await owner()('GET', '/approvals?status=waiting');
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('status');
  });
});
