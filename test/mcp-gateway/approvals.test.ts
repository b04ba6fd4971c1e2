// /v1/mcp calls under an `always` approval (the connection's default, `toolApprovals`) wait for a
// person through the existing approvals: listed by GET /approvals with the key and the
// tool, decided by the key's user or an admin (another member 403, `remember` 403), the MCP request
// open with progress notifications meanwhile; approve runs the call, deny is a tool error with the
// reason, no decision within MCP_APPROVAL_WAIT_SECONDS is a tool error naming the pending approval,
// and the same call retried once it is approved runs at once (and only once per approval).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalLink } from '../../src/approvals/links.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestUser, type TestUser } from '../helpers/orgs.js';
import { connect, mcpClient, startMcpStack, textOf, type McpStack } from './mcp-stack.js';

const WAIT_SECONDS = 6;
let s: McpStack;
let key: string;
let keyId: string;
let other: TestUser;

beforeAll(async () => {
  s = await startMcpStack({ env: { MCP_APPROVAL_WAIT_SECONDS: String(WAIT_SECONDS), AUDIT_TOOL_ARGUMENTS: 'true' } });
  // A second connection of the member's, newer: it is the one runs (and /v1/mcp) use; echo waits for approval on it.
  await connect(s.stack, s.org.member.key, { toolApprovals: { 'fixture-http__echo': 'always' } });
  const created = await call<any>(s.stack.baseUrl, 'POST', '/api-keys', { key: s.org.member.key, body: { name: 'agent' } });
  key = created.body.key;
  keyId = created.body.id;
  other = await createTestUser(s.stack.runtime.orm, s.org.id, 'member');
});
afterAll(async () => s?.stop());

const pendingFor = (text: string) =>
  waitFor(async () => {
    const list = await call<any>(s.stack.baseUrl, 'GET', '/approvals?status=pending', { key: s.org.admin.key });
    return (list.body.approvals as any[]).find((approval) => approval.apiKeyId === keyId && approval.arguments.includes(text));
  }, { timeoutMs: 15_000, what: `a pending approval for ${text}` });

/** The newest audit event that `matches`, once written (tool.called events follow the call's answer by group commit). */
const auditEvent = (matches: (event: any) => boolean) =>
  waitFor(async () => ((await call<any>(s.stack.baseUrl, 'GET', '/audit-logs?limit=100', { key: s.org.owner.key })).body.auditLogs as any[]).find(matches), {
    timeoutMs: 10_000,
    what: 'an audit event',
  });

describe('/v1/mcp approvals', () => {
  it('keeps the call open with progress until the key\'s user approves it, then runs it', async () => {
    const client = await mcpClient(s.stack.baseUrl, key);
    const progress: unknown[] = [];
    const answer = client.callTool({ name: 'fixture-http__echo', arguments: { text: 'approve me' } }, undefined, { onprogress: (p) => progress.push(p) });
    const approval = await pendingFor('approve me');
    expect(approval).toMatchObject({ tool: 'fixture-http__echo', apiKeyId: keyId, runId: null, automationId: null, status: 'pending' });
    expect(s.calls).not.toContain('echo');
    // Another member may not decide; remember is refused for a call without an automation or assistant.
    expect((await call<any>(s.stack.baseUrl, 'POST', `/approvals/${approval.id}/approve`, { key: other.key, body: {} })).status).toBe(403);
    const remember = await call<any>(s.stack.baseUrl, 'POST', `/approvals/${approval.id}/approve`, { key: s.org.member.key, body: { remember: true } });
    expect(remember.status).toBe(403);
    expect(remember.body.error.param).toBe('remember');
    const approved = await call<any>(s.stack.baseUrl, 'POST', `/approvals/${approval.id}/approve`, { key: s.org.member.key, body: {} });
    expect(approved.status, approved.text).toBe(200);
    const result = await answer;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('approve me');
    expect(progress.length).toBeGreaterThan(0);
    const called = await auditEvent((event) => event.action === 'tool.called' && event.metadata.approvalId === approval.id && event.metadata.outcome === 'ok');
    // AUDIT_TOOL_ARGUMENTS is on in this stack: the arguments as they left.
    expect(called.metadata.arguments).toBe('{"text":"approve me"}');
    expect(await auditEvent((event) => event.action === 'approval.approved' && event.targetId === approval.id)).toBeTruthy();
    await client.close();
  });

  it('answers a denial as a tool error with the reason, the tool never called', async () => {
    const client = await mcpClient(s.stack.baseUrl, key);
    const answer = client.callTool({ name: 'fixture-http__echo', arguments: { text: 'deny me' } });
    const approval = await pendingFor('deny me');
    const denied = await call<any>(s.stack.baseUrl, 'POST', `/approvals/${approval.id}/deny`, { key: s.org.admin.key, body: { reason: 'not on a Friday' } });
    expect(denied.status, denied.text).toBe(200);
    const result = await answer;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/denied.*not on a Friday/);
    await client.close();
  });

  it('answers a pending approval after MCP_APPROVAL_WAIT_SECONDS; the same call retried once approved runs at once, once', async () => {
    const client = await mcpClient(s.stack.baseUrl, key);
    const callsBefore = s.calls.filter((name) => name === 'echo').length;
    const first = await client.callTool({ name: 'fixture-http__echo', arguments: { text: 'later' } });
    expect(first.isError).toBe(true);
    const approval = await pendingFor('later');
    expect(textOf(first)).toContain(approval.id);
    expect(textOf(first)).toMatch(/pending/);
    expect((await call(s.stack.baseUrl, 'POST', `/approvals/${approval.id}/approve`, { key: s.org.admin.key, body: {} })).status).toBe(200);
    const began = Date.now();
    const retried = await client.callTool({ name: 'fixture-http__echo', arguments: { text: 'later' } });
    expect(textOf(retried)).toBe('later');
    expect(Date.now() - began).toBeLessThan(WAIT_SECONDS * 1000);
    expect(s.calls.filter((name) => name === 'echo').length).toBe(callsBefore + 1);
    // The approval ran its call: the next identical call asks again.
    const again = client.callTool({ name: 'fixture-http__echo', arguments: { text: 'later' } });
    const next = await waitFor(async () => {
      const list = await call<any>(s.stack.baseUrl, 'GET', '/approvals?status=pending', { key: s.org.admin.key });
      return (list.body.approvals as any[]).find((row) => row.apiKeyId === keyId && row.arguments.includes('later') && row.id !== approval.id);
    }, { timeoutMs: 15_000 });
    await call(s.stack.baseUrl, 'POST', `/approvals/${next.id}/deny`, { key: s.org.admin.key, body: {} });
    expect((await again).isError).toBe(true);
    await client.close();
  });

  it("is decided by the signed link e-mailed to the key's user", async () => {
    const client = await mcpClient(s.stack.baseUrl, key);
    const answer = client.callTool({ name: 'fixture-http__echo', arguments: { text: 'by link' } });
    const approval = await pendingFor('by link');
    const link = new URL(approvalLink(s.stack.runtime, { id: approval.id, expiresAt: new Date(approval.expiresAt) }, 'approve', `email:${s.org.member.email}`));
    const posted = await fetch(`${s.stack.api.url}${link.pathname}${link.search}`, { method: 'POST' });
    expect(posted.status, await posted.text()).toBeLessThan(400);
    expect(textOf(await answer)).toBe('by link');
    const decided = await call<any>(s.stack.baseUrl, 'GET', `/approvals/${approval.id}`, { key: s.org.member.key });
    expect(decided.body).toMatchObject({ status: 'approved', decidedVia: 'link', decidedChannel: `email:${s.org.member.email}` });
    await client.close();
  });

  it('blocks arguments before asking anyone, and keeps blocked arguments out of the audit log even with AUDIT_TOOL_ARGUMENTS', async () => {
    expect((await call(s.stack.baseUrl, 'PUT', '/dlp/policy', { key: s.org.owner.key, body: { detectors: { email: 'block' } } })).status).toBe(200);
    const client = await mcpClient(s.stack.baseUrl, key);
    const result = await client.callTool({ name: 'fixture-http__echo', arguments: { text: 'to eve@example.com' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/email/);
    const blocked = await auditEvent((event) => event.action === 'tool.called' && event.metadata.outcome === 'blocked');
    expect(blocked.metadata.arguments).toBeUndefined();
    const audit = await call<any>(s.stack.baseUrl, 'GET', '/audit-logs?limit=100', { key: s.org.owner.key });
    expect(JSON.stringify(audit.body)).not.toContain('eve@example.com');
    expect((await call(s.stack.baseUrl, 'PUT', '/dlp/policy', { key: s.org.owner.key, body: { detectors: { email: 'log' } } })).status).toBe(200);
    await client.close();
  });

  it("shows a key's requests to its user and admins only: another member neither lists nor reads them", async () => {
    const client = await mcpClient(s.stack.baseUrl, key);
    const answer = client.callTool({ name: 'fixture-http__echo', arguments: { text: 'mine alone' } });
    const approval = await pendingFor('mine alone');
    const listedTo = async (who: string) => ((await call<any>(s.stack.baseUrl, 'GET', '/approvals?status=pending', { key: who })).body.approvals as any[]).map((row) => row.id);
    expect(await listedTo(s.org.member.key)).toContain(approval.id);
    expect(await listedTo(s.org.owner.key)).toContain(approval.id);
    expect(await listedTo(other.key)).not.toContain(approval.id);
    expect((await call(s.stack.baseUrl, 'GET', `/approvals/${approval.id}`, { key: other.key })).status).toBe(404);
    expect((await call(s.stack.baseUrl, 'GET', `/approvals/${approval.id}`, { key: s.org.member.key })).status).toBe(200);
    await call(s.stack.baseUrl, 'POST', `/approvals/${approval.id}/deny`, { key: s.org.member.key, body: {} });
    await answer;
    await client.close();
  });

  /**
   * A call of `key` waiting for approval, ended by `end` (which revokes the key somehow): the
   * request is cancelled as the key's ("its API key was revoked"), the waiting client learns it
   * before its wait is over, the tool is never called, and nobody can decide it any more.
   */
  async function expectCancelledWithKey(key: string, text: string, end: () => Promise<number>, endStatus: number): Promise<void> {
    const client = await mcpClient(s.stack.baseUrl, key);
    const echoes = () => s.calls.filter((name) => name === 'echo').length;
    const echoesBefore = echoes();
    const answer = client.callTool({ name: 'fixture-http__echo', arguments: { text } });
    const approval = await waitFor(async () => {
      const list = await call<any>(s.stack.baseUrl, 'GET', '/approvals?status=pending', { key: s.org.admin.key });
      return (list.body.approvals as any[]).find((row) => row.arguments.includes(text));
    }, { timeoutMs: 15_000, what: `the pending approval of "${text}"` });
    const began = Date.now();
    expect(await end()).toBe(endStatus);
    const pending = await call<any>(s.stack.baseUrl, 'GET', '/approvals?status=pending', { key: s.org.admin.key });
    expect((pending.body.approvals as any[]).map((row) => row.id)).not.toContain(approval.id);
    const row = await call<any>(s.stack.baseUrl, 'GET', `/approvals/${approval.id}`, { key: s.org.admin.key });
    expect(row.body).toMatchObject({ status: 'cancelled', decidedVia: 'cancel', reason: 'its API key was revoked' });
    const result = await answer;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/cancelled: its API key was revoked/);
    expect(Date.now() - began).toBeLessThan(WAIT_SECONDS * 1000);
    expect(echoes()).toBe(echoesBefore);
    expect((await call(s.stack.baseUrl, 'POST', `/approvals/${approval.id}/approve`, { key: s.org.admin.key, body: {} })).status).toBe(409);
    await client.close();
  }

  it('cancels the pending requests of a revoked key ("its API key was revoked") and tells the waiting client', async () => {
    const created = await call<any>(s.stack.baseUrl, 'POST', '/api-keys', { key: s.org.member.key, body: { name: 'soon revoked' } });
    await expectCancelledWithKey(created.body.key, 'revoked meanwhile', async () => (await call(s.stack.baseUrl, 'DELETE', `/api-keys/${created.body.id}`, { key: s.org.member.key })).status, 204);
  });

  it("cancels the pending requests of a disabled user's keys, and of a removed user's, as a revocation does", async () => {
    const disabled = await createTestUser(s.stack.runtime.orm, s.org.id, 'member');
    await connect(s.stack, disabled.key, { toolApprovals: { 'fixture-http__echo': 'always' } });
    const disable = { status: 'disabled' };
    await expectCancelledWithKey(disabled.key, 'disabled meanwhile', async () => (await call(s.stack.baseUrl, 'PUT', `/users/${disabled.id}/status`, { key: s.org.admin.key, body: disable })).status, 200);
    const removed = await createTestUser(s.stack.runtime.orm, s.org.id, 'member');
    await connect(s.stack, removed.key, { toolApprovals: { 'fixture-http__echo': 'always' } });
    await expectCancelledWithKey(removed.key, 'removed meanwhile', async () => (await call(s.stack.baseUrl, 'DELETE', `/users/${removed.id}`, { key: s.org.admin.key })).status, 204);
  });

  it('runs tools without an always policy at once', async () => {
    const client = await mcpClient(s.stack.baseUrl, key);
    expect(textOf(await client.callTool({ name: 'fixture-http__add', arguments: { a: 2, b: 3 } }))).toBe('5');
    await client.close();
  });
});
