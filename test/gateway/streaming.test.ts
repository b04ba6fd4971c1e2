// Streams are relayed as they arrive: each upstream chunk reaches the client while the upstream is
// still producing the next one, through the official `openai` client and through raw SSE.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let upstream: FakeUpstream;

/** The fake upstream waits this long before each event it streams. */
const GAP_MS = 250;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream, timeoutMs: 10_000 })) } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

describe('streaming relay', () => {
  it('forwards each content chunk when the upstream sends it, not when the answer is complete', async () => {
    upstream.enqueue({ content: 'one two three four', chunkDelayMs: GAP_MS });
    const client = new OpenAI({ apiKey: org.member.key, baseURL: stack.baseUrl, maxRetries: 0 });
    const started = performance.now();
    const arrivals: { text: string; atMs: number }[] = [];
    const stream = await client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'count' }], stream: true });
    for await (const chunk of stream) {
      const text = chunk.choices[0]?.delta.content;
      if (text) arrivals.push({ text, atMs: performance.now() - started });
    }
    const finishedMs = performance.now() - started;

    expect(arrivals.map((a) => a.text).join('')).toBe('one two three four');
    expect(arrivals.length).toBeGreaterThanOrEqual(4);
    // Buffered relaying would deliver every chunk together at the end; relayed ones keep the
    // upstream's pacing: the four words leave the upstream over 3 gaps (750 ms), and the stream
    // goes on for 2 more events after the last word.
    const first = arrivals[0]!.atMs;
    const last = arrivals.at(-1)!.atMs;
    expect(last - first).toBeGreaterThanOrEqual(GAP_MS * 1.5);
    expect(finishedMs - first).toBeGreaterThanOrEqual(GAP_MS * 3);
  });
});
