// A wait longer than the run's time of work, end to end on the real stack, scaled down:
// Temporal's time-skipping test server cannot be obtained here (see long-wait.test.ts), so the run's
// time of work is set to a few seconds (RUN_WORK_SECONDS, an hour by default) and a person takes
// longer than that to approve. The run waits, is approved and succeeds: the wait did not count. A
// run that keeps working past its time of work without ever waiting is ended `timed_out` before
// its next model call (its Temporal timeout, which allows for 30 days of waits, would not end it).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startMcpHttpFixture, type HttpFixture } from '../fixtures/mcp-server.js';
import { RECORDING, writeHistoryFixture } from '../helpers/histories.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { writeFixtureCatalog } from '../tools/fixture-catalog.js';

const TOKEN = `tok-${randomUUID()}`;
const WORK_SECONDS = 4;
let stack: Stack;
let org: TestOrganization;
let upstream: FakeUpstream;
let mcp: HttpFixture;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  mcp = await startMcpHttpFixture({ token: TOKEN });
  stack = await startStack({
    env: {
      // Model turns of 2.5 s (the slow run) within the upstream's timeout.
      GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream, timeoutMs: 10_000 })),
      TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: mcp.url, hangUrl: mcp.url }),
      RUN_WORK_SECONDS: String(WORK_SECONDS),
    },
  });
  org = await createTestOrganization(stack.runtime.orm);
  const connection = await owner()('POST', '/tools/connections', { toolId: 'fixture-http', name: 'Fixture', env: { FIXTURE_TOKEN: TOKEN } });
  expect(connection.status, connection.text).toBe(201);
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
  await mcp?.stop();
});

const owner = () => (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key: org.member.key, body });

async function startRunOf(toolApprovals: Record<string, string>): Promise<{ automationId: string; runId: string }> {
  const created = await owner()('POST', '/automations', {
    name: `Worker ${randomUUID().slice(0, 8)}`, systemPrompt: 'Add 2 and 40 with the tool.', schedule: '0 9 * * *', status: 'paused',
    model: 'fake-model', tools: ['fixture-http'], toolApprovals,
  });
  expect(created.status, created.text).toBe(201);
  const started = await owner()('POST', `/automations/${created.body.id}/run`);
  expect(started.status, started.text).toBe(202);
  return { automationId: created.body.id, runId: started.body.runId };
}

async function runOf(automationId: string, runId: string): Promise<any> {
  const list = await owner()('GET', `/automations/${automationId}/runs`);
  return list.body.runs.find((run: any) => run.id === runId);
}

const historyOf = (runId: string) => stack.runtime.temporal.client.workflow.getHandle(`run/${runId}`).fetchHistory();

const addCall = (id: string) => ({ toolCalls: [{ id, name: 'fixture-http__add', arguments: '{"a": 2, "b": 40}' }], usage: { input: 20, output: 5 } });

describe("a run's time of work", () => {
  it('leaves out a wait for an approval longer than the whole time of work: approved, the run goes on and succeeds', async () => {
    upstream.reset();
    upstream.enqueue(addCall('call_add'), { content: 'It is 42.', usage: { input: 30, output: 8 } });
    const { automationId, runId } = await startRunOf({ 'fixture-http__add': 'always' });
    const waiting = await waitFor(async () => {
      const run = await runOf(automationId, runId);
      return run?.pendingApprovals.length > 0 && run;
    }, { timeoutMs: 60_000, what: 'the run to wait for an approval' });
    // The person takes twice the run's time of work to decide.
    await new Promise((resolve) => setTimeout(resolve, 2 * WORK_SECONDS * 1000));
    expect((await runOf(automationId, runId)).status).toBe('running');
    const approved = await owner()('POST', `/approvals/${waiting.pendingApprovals[0].id}/approve`, {});
    expect(approved.status, approved.text).toBe(200);

    const ended = await waitFor(async () => {
      const run = await runOf(automationId, runId);
      return run?.status !== 'running' && run;
    }, { timeoutMs: 60_000, what: 'the run to end' });
    expect(ended).toMatchObject({ status: 'success', output: 'It is 42.', error: null });
    const lastCall = upstream.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(lastCall.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual(['42']);
    if (RECORDING) writeHistoryFixture('run-approved-late.code-3.history.bin', await historyOf(runId));
  }, 120_000);

  it('ends a run that works past its time of work without waiting, before its next model call', async () => {
    upstream.reset();
    // Each model turn takes 2.5 s and asks for the tool again: the third call would start past 4 s of work.
    const slowTurn = (id: string) => ({ ...addCall(id), latencyMs: 2500 });
    upstream.enqueue(slowTurn('call_1'), slowTurn('call_2'), slowTurn('call_3'), { content: 'Never sent.' });
    const requestsBefore = upstream.requests.length;
    const { automationId, runId } = await startRunOf({});
    const ended = await waitFor(async () => {
      const run = await runOf(automationId, runId);
      return run?.status !== 'running' && run;
    }, { timeoutMs: 60_000, what: 'the run to end' });
    expect(ended).toMatchObject({ status: 'failure', error: expect.stringMatching(/^timed_out: The run used up its time of work/) });
    // Two model calls went upstream; the third was never made.
    expect(upstream.requests.length - requestsBefore).toBe(2);
    if (RECORDING) writeHistoryFixture('run-timed-out.code-3.history.bin', await historyOf(runId));
  }, 120_000);
});
