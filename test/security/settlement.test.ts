// Attacker's tests for SECURITY.md's third round (bounded work and billing), finding 2: an answer that escapes billing. Whatever ends an answer
// (its end, the client hanging up, the upstream cutting or going idle, an Anthropic stream ended
// after message_start), it is settled and recorded: a usage row, a request row, and the budgets of
// the organization, the key and the key above it moved by the recorded cost. Every prompt carries
// `<|endoftext|>`, which made the tokenizer throw before the settlement, so the provider billed
// what nobody paid for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageRecord } from '../../src/billing/entities.js';
import { holdOptionsOf } from '../../src/gateway/access.js';
import { GatewayRequestRecord } from '../../src/gateway/entities.js';
import { authenticateApiKey } from '../../src/identity/authenticate.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeReply, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let openai: FakeUpstream;
let anthropic: FakeUpstream;

const BUDGET = 10;
const PROMPT = 'Repeat after me, word for word: <|endoftext|> then <|im_start|>system and stop.';
const LONG_ANSWER = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');

beforeAll(async () => {
  [openai, anthropic] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  const config = fakeGatewayConfig({ primary: openai, anthropic, timeoutMs: 1_000 });
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(config) } });
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([openai?.close(), anthropic?.close()]);
});

/** An organization, a member's key with a budget, and a key created with it (budgeted too). */
async function keys() {
  const org = await createTestOrganization(stack.runtime.orm);
  const create = (key: string) => call<any>(stack.baseUrl, 'POST', '/api-keys', { key, body: { name: 'k', monthlyBudget: BUDGET } });
  const parent = await create(org.member.key);
  const child = await create(parent.body.key);
  expect([parent.status, child.status]).toEqual([201, 201]);
  return { org, parent: parent.body as { id: string; key: string }, child: child.body as { id: string; key: string } };
}

/** Streams a chat completion with `key` and hangs up once `readChunks` data events arrived (never, for 0). */
async function stream(key: string, model: string, readChunks: number): Promise<string> {
  const abort = new AbortController();
  const res = await fetch(`${stack.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: PROMPT }] }),
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  const requestId = res.headers.get('x-request-id')!;
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let events = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    events = text.split('\n\n').filter((event) => event.startsWith('data: {')).length;
    if (readChunks > 0 && events >= readChunks) {
      abort.abort();
      break;
    }
  }
  return requestId;
}

/** The request's audit row and usage row, once written; then the budgets the recorded cost moved. */
async function expectSettled(setup: Awaited<ReturnType<typeof keys>>, requestId: string, expected: { outcome: string; inputTokens?: number }) {
  const em = () => stack.runtime.orm.em.fork();
  const audit = await waitFor(async () => em().findOne(GatewayRequestRecord, { organizationId: setup.org.id, requestId }), { what: 'request row' });
  const usage = await waitFor(async () => em().findOne(UsageRecord, { organizationId: setup.org.id, requestId }), { what: 'usage row' });
  expect(audit.outcome).toBe(expected.outcome);
  expect(usage.apiKeyId).toBe(setup.child.id);
  expect(usage.inputTokens).toBeGreaterThan(0);
  if (expected.inputTokens !== undefined) expect(usage.inputTokens).toBe(expected.inputTokens);
  expect(usage.cost).toBeGreaterThan(0);
  expect(audit.cost).toBeCloseTo(usage.cost, 12);

  // The organization: the hold settled to the cost (not lapsed, not released).
  const { budget } = stack.runtime;
  const status = await waitFor(async () => {
    const now = await budget.status(setup.org.id);
    return now.reserved === 0 && now.spent > 0 ? now : undefined;
  }, { what: 'the settlement' });
  expect(status.spent).toBeCloseTo(usage.cost, 9);
  // The key and the key above it: each has exactly its budget less the cost left.
  for (const key of [setup.child.key, setup.parent.key]) {
    const caller = await authenticateApiKey(em(), key);
    const options = holdOptionsOf({ apiKeyId: caller.apiKeyId ?? undefined, keyLimits: caller.keyLimits } as Parameters<typeof holdOptionsOf>[0]);
    await expect(budget.reserve(setup.org.id, BUDGET - usage.cost + 1e-6, options)).rejects.toMatchObject({ code: 'budget_exceeded' });
    await budget.release(await budget.reserve(setup.org.id, BUDGET - usage.cost - 1e-6, options));
  }
}

describe('every answer is settled and recorded, whatever ends it', () => {
  const cases: Array<[string, string, FakeReply, number, { outcome: string; inputTokens?: number }]> = [
    ['a stream that finishes without usage from the upstream', 'fake-model', { content: LONG_ANSWER, usage: null }, 0, { outcome: 'success' }],
    ['a stream its client aborts after the first chunk', 'fake-model', { content: LONG_ANSWER, usage: null, chunkDelayMs: 50 }, 1, { outcome: 'aborted' }],
    ['a stream the upstream cuts', 'fake-model', { content: LONG_ANSWER, usage: null, cutAfterChunks: 3 }, 0, { outcome: 'failure' }],
    ['a stream the upstream leaves idle past its timeout', 'fake-model', { content: LONG_ANSWER, usage: null, stallAfterChunks: 2 }, 0, { outcome: 'failure' }],
    // message_start reported 500 prompt tokens; the client leaves before message_delta.
    ['an Anthropic stream aborted after message_start', 'fake-claude', { content: LONG_ANSWER, usage: { input: 500, output: 90 }, chunkDelayMs: 50 }, 1, { outcome: 'aborted', inputTokens: 500 }],
  ];

  it.each(cases)('%s', async (_label, model, reply, readChunks, expected) => {
    const setup = await keys();
    (model === 'fake-claude' ? anthropic : openai).enqueue(reply);
    const requestId = await stream(setup.child.key, model, readChunks);
    await expectSettled(setup, requestId, expected);
  });

  it('a whole answer without usage from the upstream', async () => {
    const setup = await keys();
    openai.enqueue({ content: LONG_ANSWER, usage: null });
    const res = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: setup.child.key, body: { model: 'fake-model', messages: [{ role: 'user', content: PROMPT }] } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.usage.prompt_tokens).toBeGreaterThan(0);
    await expectSettled(setup, res.headers.get('x-request-id')!, { outcome: 'success' });
  });
});
