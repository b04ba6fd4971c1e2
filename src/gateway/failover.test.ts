import { describe, expect, it } from 'vitest';
import type { BudgetGuard } from '../billing/budget.js';
import { ManualClock } from '../clock.js';
import { CircuitBreakers } from './breaker.js';
import { parseGatewayConfig } from './config.js';
import { Failover, type FailoverInput } from './failover.js';
import type { CacheWrite } from './pricing.js';
import { createRouter } from './router.js';
import { UpstreamFailure } from './transport.js';

const config = parseGatewayConfig({
  providers: [{ id: 'claude', type: 'anthropic', baseUrl: 'http://127.0.0.1:1/v1' }, { id: 'backup', type: 'anthropic', baseUrl: 'http://127.0.0.1:2/v1' }],
  models: [{
    id: 'sonnet',
    targets: [{ provider: 'claude', upstreamModel: 'claude-sonnet' }, { provider: 'backup', upstreamModel: 'claude-sonnet' }],
    inputPricePer1M: 3,
    outputPricePer1M: 15,
    maxOutputTokens: 1_000,
  }],
});
const targets = createRouter(config).resolve('sonnet', 'chat');

/** A budget that holds whatever it is asked and says how much. */
function recordingBudget(): BudgetGuard & { holds: number[] } {
  const holds: number[] = [];
  return {
    holds,
    async reserve(organizationId, amount) {
      holds.push(amount);
      return { id: `hold-${holds.length}`, organizationId, amount };
    },
    keepAlive: () => () => {},
    async settle() {},
    async release() {},
  };
}

function failoverWith(budget: BudgetGuard): Failover {
  return new Failover(new CircuitBreakers(config.breaker, new ManualClock()), budget, config.breaker, () => 0);
}

function input(cacheWrite?: CacheWrite): FailoverInput {
  return { organizationId: 'org', targets, requestedMaxTokens: undefined, promptTokens: 10_000, signal: undefined, log: { attempts: 0, target: undefined }, ...(cacheWrite ? { cacheWrite } : {}) };
}

describe('the hold of a request that writes the prompt cache', () => {
  it.each<[CacheWrite | undefined, number]>([
    // 10,000 prompt tokens + 1,000 output at 15: at the input price (3), the 5-minute write price (3.75), the 1-hour one (6).
    [undefined, 0.045],
    ['none', 0.045],
    ['5m', 0.0525],
    ['1h', 0.075],
  ])('holds the prompt at its write price (cacheWrite %s: %d USD)', async (cacheWrite, expected) => {
    const budget = recordingBudget();
    await failoverWith(budget).run(input(cacheWrite), async () => 'answer');
    expect(budget.holds).toEqual([expected]);
  });
});

describe('an upstream that refuses the request itself', () => {
  it('answers 400 bad_request with its message and param at once, without trying the next target', async () => {
    const budget = recordingBudget();
    const tried: string[] = [];
    const error = await failoverWith(budget)
      .run(input(), async (target) => {
        tried.push(target.provider.id);
        throw new UpstreamFailure('max_tokens: must be at most 8192', false, 400, { clientFault: true, param: 'max_tokens' });
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'bad_request', status: 400, message: 'max_tokens: must be at most 8192', param: 'max_tokens', details: { upstream_status: 400 } });
    expect(tried).toEqual(['claude']);
  });

  it('still moves to the next target when an upstream failed (5xx)', async () => {
    const tried: string[] = [];
    const answered = await failoverWith(recordingBudget()).run(input(), async (target) => {
      tried.push(target.provider.id);
      if (tried.length === 1) throw new UpstreamFailure('The upstream provider is unavailable (500)', true, 500);
      return 'answer';
    });
    expect(answered.value).toBe('answer');
    expect(tried).toEqual(['claude', 'backup']);
  });
});
