// The monthly cap on automation runs, end to end (API, run workflow on Temporal, gateway core in
// the activities, fake upstream model, fixture MCP server): a refused run fails at once with
// `budget_exceeded` as its error, after one attempt and without calling the upstream; a tool-loop
// run refused midway still records the tokens of the steps it was billed for; a run step sends
// upstream the output bound it reserved for.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../../src/gateway/router.js';
import { startMcpHttpFixture, type HttpFixture } from '../fixtures/mcp-server.js';
import { writeFixtureCatalog } from '../tools/fixture-catalog.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { seedUsage } from './seed.js';
import { activityAttempts } from '../helpers/histories.js';

const TOKEN = `tok-${randomUUID()}`;
const PRICEY = { inputPricePer1M: 2, outputPricePer1M: 80, maxOutputTokens: 1000 };
let stack: Stack;
let upstream: FakeUpstream;
let mcp: HttpFixture;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  mcp = await startMcpHttpFixture({ token: TOKEN });
  const gatewayConfig = fakeGatewayConfig({ primary: upstream });
  (gatewayConfig.models as Record<string, unknown>[]).push(
    // Output at 10x the price of fake-model: one answer of 1000 tokens costs 0.08 USD.
    { ...PRICEY, id: 'fake-pricey', targets: [{ provider: 'primary', upstreamModel: 'gpt-fake-pricey' }] },
    // No output limit of its own.
    { id: 'fake-unbounded', targets: [{ provider: 'primary', upstreamModel: 'gpt-fake-unbounded' }], inputPricePer1M: 2, outputPricePer1M: 8 },
  );
  stack = await startStack({
    env: {
      GATEWAY_CONFIG: writeGatewayConfig(gatewayConfig),
      TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: mcp.url, hangUrl: mcp.url }),
    },
  });
});
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
  await mcp?.stop();
});

async function setCap(org: TestOrganization, monthlyCap: number): Promise<void> {
  const res = await call(stack.baseUrl, 'PUT', '/billing/budget', { key: org.owner.key, body: { monthlyCap } });
  expect(res.status, res.text).toBe(200);
}

async function createAutomation(org: TestOrganization, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await call(stack.baseUrl, 'POST', '/automations', {
    key: org.member.key,
    body: { name: 'Digest', systemPrompt: 'Summarise the day.', schedule: '0 9 * * *', status: 'paused', model: 'fake-model', ...overrides },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function runToCompletion(org: TestOrganization, automationId: string) {
  const started = await call(stack.baseUrl, 'POST', `/automations/${automationId}/run`, { key: org.member.key });
  expect(started.status, started.text).toBe(202);
  const runId: string = started.body.runId;
  return waitFor(
    async () => {
      const list = await call(stack.baseUrl, 'GET', `/automations/${automationId}/runs`, { key: org.member.key });
      return list.body.runs.find((run: any) => run.id === runId && run.status !== 'running');
    },
    { timeoutMs: 30_000, what: `run ${runId} to finish` },
  );
}

const attemptsOf = async (runId: string) => activityAttempts(await stack.runtime.temporal.client.workflow.getHandle(`run/${runId}`).fetchHistory());

describe('automation runs against the monthly cap', () => {
  it('fails a run of an organization whose cap is spent with budget_exceeded, after one attempt, without calling the upstream', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    await seedUsage(stack.runtime.orm, org.id, [
      { at: new Date().toISOString(), userId: org.owner.id, model: 'fake-model', inputTokens: 100, outputTokens: 100, cost: 1 },
    ]);
    await setCap(org, 1);
    const automationId = await createAutomation(org);
    const requestsBefore = upstream.requests.length;

    const run = await runToCompletion(org, automationId);

    expect(run).toMatchObject({ status: 'failure', tokensInput: 0, tokensOutput: 0, estimatedCost: 0 });
    expect(run.error).toMatch(/^budget_exceeded: /);
    expect(upstream.requests.length).toBe(requestsBefore);
    expect((await attemptsOf(run.id)).generateRunOutput).toEqual([1]);
  });

  it('records the tokens of the tool-loop steps that ran when a later step is refused by the cap', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const connection = await call(stack.baseUrl, 'POST', '/tools/connections', {
      key: org.member.key,
      body: { toolId: 'fixture-http', name: 'Fixture', env: { FIXTURE_TOKEN: TOKEN } },
    });
    expect(connection.status, connection.text).toBe(201);
    const automationId = await createAutomation(org, { systemPrompt: 'Add 2 and 40 with the tool.', tools: ['fixture-http'], model: 'fake-pricey' });
    // The first step fits (its worst case: 0.08 for 1000 output tokens plus well under 0.02 for
    // the prompt bound) and spends ~0.079; what is left cannot cover the second step's worst case
    // (over 0.08).
    await setCap(org, 0.1);
    const firstStep = { input: 20, output: 990 };
    const firstStepCost = (firstStep.input * PRICEY.inputPricePer1M + firstStep.output * PRICEY.outputPricePer1M) / 1_000_000;
    upstream.enqueue({ content: '', toolCalls: [{ id: 'call_1', name: 'fixture-http__add', arguments: '{"a": 2, "b": 40}' }], usage: firstStep });
    const requestsBefore = upstream.requests.length;

    const run = await runToCompletion(org, automationId);

    expect(run).toMatchObject({ status: 'failure', tokensInput: firstStep.input, tokensOutput: firstStep.output });
    expect(run.estimatedCost).toBeCloseTo(firstStepCost, 9);
    expect(run.error).toMatch(/^budget_exceeded: /);
    expect(upstream.requests.length).toBe(requestsBefore + 1);
    expect((await attemptsOf(run.id)).generateRunOutput).toEqual([1, 1]);
  }, 60_000);

  it('sends upstream, in a run step on a model without an output limit, the output bound it reserved for', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    await setCap(org, 1);
    const automationId = await createAutomation(org, { model: 'fake-unbounded' });
    const requestsBefore = upstream.requests.length;

    const run = await runToCompletion(org, automationId);

    expect(run.status, run.error).toBe('success');
    expect(upstream.requests.slice(requestsBefore).map((request) => request.body.max_tokens)).toEqual([DEFAULT_MAX_OUTPUT_TOKENS]);
  });
});
