// Attacker's tests for SECURITY.md's third round (bounded work and billing), finding 1, as a tenant meets them: one request of unbroken text
// just under the body limit held the API process for every tenant for seconds (count_tokens on
// 120 KB of letters: 7.4 s). Now the count answers while the API keeps answering everyone else:
// /healthz, polled throughout, never waits anywhere near that long. The bound asserted is loose
// (a shared, noisy machine); the stall itself is measured by `npm run bench:hostile`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let upstream: FakeUpstream;
let org: TestOrganization;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })) } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

/** Just under the 1 MiB body limit, with room for the JSON around it. */
const SIZE = 1024 * 1024 - 4096;
/** Far below the seconds the quadratic tokenizer stalled for, far above a busy machine's jitter. */
const MAX_WAIT_MS = 1_500;

function unbroken(length: number, seed: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += String.fromCharCode(97 + ((i * 7919 + seed * 104_729 + (i >> 5)) % 26));
  return text;
}

/** Runs `work` while polling /healthz; returns the work's result and the slowest poll. */
async function whilePolling<T>(work: () => Promise<T>): Promise<{ result: T; slowestMs: number }> {
  const root = stack.baseUrl.replace(/\/v1$/, '');
  let slowestMs = 0;
  let done = false;
  const poller = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${root}/healthz`);
      await res.arrayBuffer();
      slowestMs = Math.max(slowestMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    return { result: await work(), slowestMs };
  } finally {
    done = true;
    await poller;
  }
}

const countTokens = (content: unknown) =>
  fetch(`${stack.baseUrl}/messages/count_tokens`, {
    method: 'POST',
    headers: { 'x-api-key': org.member.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content }] }),
  });

describe('hostile input through the API', () => {
  it.each([
    ['unbroken letters', (seed: number) => unbroken(SIZE, seed)],
    ['special tokens', () => '<|endoftext|>'.repeat(Math.floor(SIZE / 13))],
    ['CJK without spaces', (seed: number) => Array.from({ length: Math.floor(SIZE / 3) }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919 + seed) % 20000))).join('')],
  ])('count_tokens on 1 MiB of %s answers while the API keeps answering others', async (_label, text) => {
    // Fresh text each time: a tokenizer that caches what it saw would look fast on a repeat.
    const { result, slowestMs } = await whilePolling(async () => {
      const res = await countTokens(text(Date.now() % 1000));
      return { status: res.status, body: (await res.json()) as { input_tokens?: number } };
    });
    expect(result.status).toBe(200);
    expect(result.body.input_tokens).toBeGreaterThan(SIZE / 16);
    expect(slowestMs).toBeLessThan(MAX_WAIT_MS);
  });
});
