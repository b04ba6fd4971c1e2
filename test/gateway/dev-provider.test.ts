// The built-in dev responder: what every process answers with when no GATEWAY_CONFIG is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageRecord } from '../../src/billing/entities.js';
import { GatewayRequestRecord } from '../../src/gateway/entities.js';
import { waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

describe('gateway without a config file', () => {
  let stack: Stack;
  let org: TestOrganization;

  beforeAll(async () => {
    stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: undefined, OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined } });
    org = await createTestOrganization(stack.runtime.orm);
  });
  afterAll(async () => stack?.stop());

  it('answers tier standard with the dev responder, usage and cost, and records it', async () => {
    const result = await stack.runtime.gateway.complete(
      { model: 'standard', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello there' }] },
      { organizationId: org.id, userId: org.owner.id, source: 'automation', runId: 'run-1' },
    );
    expect(result).toMatchObject({
      model: 'dev-echo',
      provider: 'dev',
      upstreamModel: 'dev-echo',
      content: '[dev-echo] hello there',
      finishReason: 'stop',
      attempts: 1,
      usage: { estimated: false },
    });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(result.cost).toBeCloseTo((result.usage.inputTokens * 1 + result.usage.outputTokens * 2) / 1e6, 12);

    const usage = await waitFor(async () => stack.runtime.orm.em.fork().findOne(UsageRecord, { organizationId: org.id, runId: 'run-1' }));
    expect(usage).toMatchObject({ source: 'automation', model: 'dev-echo', inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens });
    expect(usage.cost).toBeCloseTo(result.cost, 12);
    const audit = await stack.runtime.orm.em.fork().findOneOrFail(GatewayRequestRecord, { organizationId: org.id, runId: 'run-1' });
    expect(audit).toMatchObject({ modelRequested: 'standard', model: 'dev-echo', outcome: 'success', status: 200, attempts: 1, promptText: null });
  });

  it('honours max_tokens in tokens, as an upstream does: the answer never outgrows its reservation', async () => {
    const result = await stack.runtime.gateway.complete(
      { model: 'dev-echo', max_tokens: 8, messages: [{ role: 'user', content: 'the quick brown fox jumps over the lazy dog' }] },
      { organizationId: org.id, userId: org.owner.id, source: 'gateway' },
    );
    expect(result.finishReason).toBe('length');
    expect(result.usage.outputTokens).toBeLessThanOrEqual(8);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect('[dev-echo] the quick brown fox jumps over the lazy dog'.startsWith(result.content!)).toBe(true);
  });

  it('serves every tier, the dev-echo model id and the dev-embedding model', () => {
    expect(stack.runtime.gateway.models().sort()).toEqual(['dev-echo', 'dev-embedding', 'enterprise', 'premium', 'standard']);
  });

  it('embeds with the dev responder: deterministic unit vectors, tokenizer usage and cost, recorded', async () => {
    const context = { organizationId: org.id, userId: org.owner.id, source: 'gateway' as const, requestId: 'embed-1' };
    const request = { model: 'dev-embedding', input: ['hello there', 'general kenobi'], encodingFormat: 'float' as const, dimensions: 8 };
    const result = await stack.runtime.gateway.embed(request, context);
    expect(result.model).toBe('dev-embedding');
    expect(result.vectors.map((vector) => vector.length)).toEqual([8, 8]);
    expect(Math.hypot(...result.vectors[0]!)).toBeCloseTo(1, 9);
    expect((await stack.runtime.gateway.embed(request, context)).vectors).toEqual(result.vectors);
    expect(result.inputTokens).toBeGreaterThan(0);
    expect(result.cost).toBeCloseTo((result.inputTokens * 0.1) / 1e6, 12);
    const usage = await waitFor(async () => stack.runtime.orm.em.fork().findOne(UsageRecord, { organizationId: org.id, requestId: 'embed-1' }));
    expect(usage).toMatchObject({ model: 'dev-embedding', provider: 'dev', outputTokens: 0, estimated: true });
  });

  it('refuses an unknown model with 400 naming the model field', async () => {
    await expect(
      stack.runtime.gateway.complete({ model: 'nope', messages: [{ role: 'user', content: 'x' }] }, { organizationId: org.id, userId: org.owner.id, source: 'gateway' }),
    ).rejects.toMatchObject({ code: 'bad_request', param: 'model' });
  });
});
