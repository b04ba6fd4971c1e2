// The spec's temperature default (1.0 on the API's 0..2 scale) reaches every provider explicitly,
// on that provider's scale: OpenAI-compatible upstreams get it as is, Anthropic gets t / 2 (its
// range is 0..1), so an omitted temperature never falls back to a provider's own default.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let primary: FakeUpstream;
let claude: FakeUpstream;

beforeAll(async () => {
  primary = await startFakeUpstream();
  claude = await startFakeUpstream();
  const file = writeGatewayConfig(fakeGatewayConfig({ primary, anthropic: claude }), 'yaml');
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: file } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterEach(() => {
  primary.reset();
  claude.reset();
});
afterAll(async () => {
  await stack?.stop();
  await primary?.close();
  await claude?.close();
});

async function sentTemperature(model: string, upstream: FakeUpstream, temperature: number | undefined, stream = false): Promise<unknown> {
  const body: Record<string, unknown> = { model, messages: [{ role: 'user', content: 'hi' }], stream };
  if (temperature !== undefined) body.temperature = temperature;
  const response = await call(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body });
  expect(response.status, response.text).toBe(200);
  expect(upstream.requests).toHaveLength(1);
  return (upstream.requests[0]!.body as { temperature?: unknown }).temperature;
}

describe('temperature', () => {
  it('sends the spec default 1.0 to an OpenAI-compatible upstream when omitted', async () => {
    expect(await sentTemperature('fake-model', primary, undefined)).toBe(1);
  });

  it('sends 0.5 (1.0 on the API scale) to Anthropic when omitted, streaming or not', async () => {
    expect(await sentTemperature('fake-claude', claude, undefined)).toBe(0.5);
    claude.reset();
    expect(await sentTemperature('fake-claude', claude, undefined, true)).toBe(0.5);
  });

  it.each([
    [0, 0, 0],
    [0.4, 0.4, 0.2],
    [1, 1, 0.5],
    [2, 2, 1],
  ])('maps temperature %s to %s (OpenAI) and %s (Anthropic)', async (given, openai, anthropic) => {
    expect(await sentTemperature('fake-model', primary, given)).toBe(openai);
    expect(await sentTemperature('fake-claude', claude, given)).toBe(anthropic);
  });
});
