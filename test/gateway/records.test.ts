// Audit and usage records: every request audited, answered ones metered with the upstream's
// token counts (or the tokenizer's, marked estimated) and the configured prices; the budget hook
// reserves before each upstream call and settles or releases after.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BudgetGuard, BudgetReservation } from '../../src/billing/budget.js';
import { UsageRecord } from '../../src/billing/entities.js';
import { parseGatewayConfig } from '../../src/gateway/config.js';
import { GatewayRequestRecord } from '../../src/gateway/entities.js';
import { createGateway } from '../../src/gateway/index.js';
import { BpeCounter } from '../../src/gateway/bpe-count.js';
import { countPromptTokens, countTextTokens, promptTokenBound } from '../../src/gateway/tokens.js';
import type { ChatMessage, ToolDefinition } from '../../src/gateway/types.js';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../../src/gateway/router.js';
import { FAKE_DEFAULT_CONTENT, fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let primary: FakeUpstream;
let backup: FakeUpstream;

beforeAll(async () => {
  [primary, backup] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary })) } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterEach(() => {
  primary.reset();
  backup.reset();
});
const bpe = new BpeCounter();
afterAll(() => bpe.close());

afterAll(async () => {
  await stack?.stop();
  await Promise.all([primary?.close(), backup?.close()]);
});

const messages: ChatMessage[] = [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Tell me about the weather in Lisbon' }];
const priced = (input: number, output: number) => (input * 2 + output * 8) / 1e6;

async function ask(stream: boolean) {
  return call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'standard', messages, stream } });
}

async function recordsOf(requestId: string | null) {
  const em = () => stack.runtime.orm.em.fork();
  const audit = await waitFor(async () => em().findOne(GatewayRequestRecord, { organizationId: org.id, requestId: requestId! }), { what: 'audit record' });
  const usage = await em().find(UsageRecord, { organizationId: org.id, requestId: requestId! });
  return { audit, usage };
}

describe('usage and audit records', () => {
  it.each([false, true])('uses the upstream token counts and the model prices (stream %s)', async (stream) => {
    primary.enqueue({ usage: { input: 120, output: 30 } });
    const res = await ask(stream);
    expect(res.status).toBe(200);
    const { audit, usage } = await recordsOf(res.headers.get('x-request-id'));
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({
      userId: org.member.id,
      source: 'gateway',
      model: 'fake-model',
      provider: 'primary',
      upstreamModel: 'gpt-fake-mini',
      inputTokens: 120,
      outputTokens: 30,
      estimated: false,
    });
    expect(usage[0]!.apiKeyId).toEqual(expect.any(String));
    expect(usage[0]!.cost).toBeCloseTo(priced(120, 30), 12);
    expect(audit).toMatchObject({
      userId: org.member.id,
      apiKeyId: usage[0]!.apiKeyId,
      modelRequested: 'standard',
      model: 'fake-model',
      stream,
      attempts: 1,
      outcome: 'success',
      status: 200,
      inputTokens: 120,
      outputTokens: 30,
      dlpFindings: {},
      promptText: null,
    });
    expect(audit.latencyMs).toBeGreaterThanOrEqual(0);
    expect(audit.cost).toBeCloseTo(priced(120, 30), 12);
    expect(JSON.stringify(audit)).not.toContain('Lisbon');
  });

  it.each([false, true])('counts with the tokenizer and marks the record estimated when the upstream reports no usage (stream %s)', async (stream) => {
    primary.enqueue({ usage: null });
    const res = await ask(stream);
    expect(res.status).toBe(200);
    const { usage } = await recordsOf(res.headers.get('x-request-id'));
    const input = await countPromptTokens(bpe, { messages });
    const output = await countTextTokens(bpe, FAKE_DEFAULT_CONTENT);
    expect(usage[0]).toMatchObject({ inputTokens: input, outputTokens: output, estimated: true });
    expect(usage[0]!.cost).toBeCloseTo(priced(input, output), 12);
    if (!stream) expect(res.body.usage).toEqual({ prompt_tokens: input, completion_tokens: output, total_tokens: input + output });
  });

  it('audits a failed request without a usage record', async () => {
    primary.enqueue({ status: 401 });
    const res = await ask(false);
    expect(res.status).toBe(502);
    const { audit, usage } = await recordsOf(res.headers.get('x-request-id'));
    expect(audit).toMatchObject({ outcome: 'failure', status: 502, errorCode: 'provider_error', inputTokens: 0, cost: 0 });
    expect(usage).toHaveLength(0);
  });
});

describe('gateway core', () => {
  /** A gateway on this stack's database with the given budget guard and provider setup. */
  function gatewayWith(budget: BudgetGuard, config: unknown) {
    return createGateway({ config: stack.config, logger: stack.runtime.logger, orm: stack.runtime.orm, shared: stack.runtime.shared, clock: stack.runtime.clock, budget, gatewayConfig: parseGatewayConfig(config) });
  }

  function recordingBudget() {
    const calls: string[] = [];
    const budget: BudgetGuard = {
      async reserve(organizationId, amount) {
        calls.push(`reserve ${amount.toFixed(8)}`);
        return { id: `r${calls.length}`, organizationId, amount } satisfies BudgetReservation;
      },
      keepAlive: () => () => {},
      async settle(reservation, cost) {
        calls.push(`settle ${reservation.id} ${cost.toFixed(8)}`);
      },
      async release(reservation) {
        calls.push(`release ${reservation.id}`);
      },
    };
    return { budget, calls };
  }

  it('reserves the worst case before each upstream call, releases on failure, settles the real cost', async () => {
    const { budget, calls } = recordingBudget();
    const gateway = await gatewayWith(budget, fakeGatewayConfig({ primary, backup }));
    primary.enqueue({ status: 500 });
    backup.enqueue({ usage: { input: 50, output: 10 } });
    const result = await gateway.complete({ model: 'fake-model', messages, max_tokens: 100 }, { organizationId: org.id, userId: org.owner.id, source: 'automation', runId: 'budget-run' });
    await gateway.close();
    const worstCase = priced(promptTokenBound({ messages }), 100).toFixed(8);
    expect(calls).toEqual([`reserve ${worstCase}`, 'release r1', `reserve ${worstCase}`, `settle r3 ${priced(50, 10).toFixed(8)}`]);
    expect(result).toMatchObject({ provider: 'backup', attempts: 2, usage: { inputTokens: 50, outputTokens: 10, estimated: false } });
  });

  it('sends upstream the output bound it reserved for when neither the request nor the model sets one (OpenAI and Anthropic)', async () => {
    const { budget, calls } = recordingBudget();
    const config = fakeGatewayConfig({ primary, anthropic: backup });
    for (const model of config.models as { maxOutputTokens?: number }[]) delete model.maxOutputTokens;
    const gateway = await gatewayWith(budget, config);
    const context = { organizationId: org.id, userId: org.owner.id, source: 'gateway' as const };
    await gateway.complete({ model: 'fake-model', messages }, context);
    await gateway.complete({ model: 'fake-claude', messages }, context);
    await gateway.close();

    expect(primary.requests[0]?.body.max_tokens).toBe(DEFAULT_MAX_OUTPUT_TOKENS);
    expect(backup.requests[0]?.body.max_tokens).toBe(DEFAULT_MAX_OUTPUT_TOKENS);
    const worstCase = priced(promptTokenBound({ messages }), DEFAULT_MAX_OUTPUT_TOKENS).toFixed(8);
    expect(calls.filter((entry) => entry.startsWith('reserve'))).toEqual([`reserve ${worstCase}`, `reserve ${worstCase}`]);
  });

  it('reserves for the tool definitions and tool choice it sends upstream, not only the messages', async () => {
    const { budget, calls } = recordingBudget();
    const gateway = await gatewayWith(budget, fakeGatewayConfig({ primary }));
    const tools: ToolDefinition[] = [{
      type: 'function',
      function: { name: 'get_weather', description: 'The weather of a city. '.repeat(50), parameters: { type: 'object', properties: { city: { type: 'string' } } } },
    }];
    await gateway.complete({ model: 'fake-model', messages, tools, tool_choice: 'required', max_tokens: 100 }, { organizationId: org.id, userId: org.owner.id, source: 'gateway' });
    await gateway.close();

    expect(primary.requests[0]?.body).toMatchObject({ tools, tool_choice: 'required' });
    const withTools = promptTokenBound({ messages, tools, tool_choice: 'required' });
    expect(withTools).toBeGreaterThan(promptTokenBound({ messages }) + JSON.stringify(tools).length);
    expect(calls[0]).toBe(`reserve ${priced(withTools, 100).toFixed(8)}`);
  });

  it('flushes queued records on close()', async () => {
    const gateway = await gatewayWith(recordingBudget().budget, fakeGatewayConfig({ primary }));
    await gateway.complete({ model: 'fake-model', messages }, { organizationId: org.id, userId: org.owner.id, source: 'webhook', runId: 'flush-run' });
    await gateway.close();
    const em = stack.runtime.orm.em.fork();
    expect(await em.count(UsageRecord, { organizationId: org.id, runId: 'flush-run' })).toBe(1);
    expect(await em.count(GatewayRequestRecord, { organizationId: org.id, runId: 'flush-run' })).toBe(1);
  });
});
