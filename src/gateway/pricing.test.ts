import { describe, expect, it } from 'vitest';
import { parseGatewayConfig, type ProviderType } from './config.js';
import { cachePricesOf, cacheSavingOf, costOf, worstCaseCost, type PricedTarget } from './pricing.js';

function target(type: ProviderType, prices: Record<string, number>): PricedTarget {
  const config = parseGatewayConfig({
    providers: [{ id: 'p', type, baseUrl: 'http://127.0.0.1:1/v1' }],
    models: [{ id: 'm', targets: [{ provider: 'p', upstreamModel: 'u' }], ...prices }],
  });
  return { model: config.models[0]!, provider: config.providers[0]! };
}

const sonnet = target('anthropic', { inputPricePer1M: 3, outputPricePer1M: 15 });
const gpt4o = target('openai', { inputPricePer1M: 2.5, outputPricePer1M: 10 });

describe('cache prices', () => {
  it('defaults Anthropic reads to 0.1x input, 5-minute writes to 1.25x and 1-hour writes to 2x', () => {
    expect(cachePricesOf(sonnet)).toEqual({ readPer1M: expect.closeTo(0.3, 12), writePer1M: 3.75, write1hPer1M: 6 });
  });

  it('defaults OpenAI reads to 0.5x input and writes to the input price', () => {
    expect(cachePricesOf(gpt4o)).toEqual({ readPer1M: 1.25, writePer1M: 2.5, write1hPer1M: 5 });
  });

  it('takes the prices a model configures over the defaults', () => {
    const configured = target('anthropic', { inputPricePer1M: 3, cacheReadPricePer1M: 0.2, cacheWritePricePer1M: 4, cacheWrite1hPricePer1M: 7 });
    expect(cachePricesOf(configured)).toEqual({ readPer1M: 0.2, writePer1M: 4, write1hPer1M: 7 });
  });
});

describe('costOf', () => {
  it('prices uncached input, cache reads, 5-minute and 1-hour writes and output apart (Anthropic)', () => {
    // 10,000 prompt tokens: 8,000 read, 1,500 written (500 of them for an hour), 500 uncached.
    const cost = costOf(sonnet, { inputTokens: 10_000, outputTokens: 200, cacheReadTokens: 8_000, cacheWriteTokens: 1_500, cacheWrite1hTokens: 500 });
    // 500 x 3 + 8,000 x 0.3 + 1,000 x 3.75 + 500 x 6 + 200 x 15, per million.
    expect(cost).toBe(0.01365);
  });

  it('prices cached input at half the input price on an OpenAI provider', () => {
    expect(costOf(gpt4o, { inputTokens: 10_000, outputTokens: 100, cacheReadTokens: 6_000 })).toBe(0.0185);
  });

  it('prices a prompt without cache counts at the input price', () => {
    expect(costOf(sonnet, { inputTokens: 10_000, outputTokens: 200 })).toBe(0.033);
  });

  it('rounds to 1e-10 USD', () => {
    expect(costOf(sonnet, { inputTokens: 1, outputTokens: 0, cacheReadTokens: 1 })).toBe(3e-7);
    expect(costOf(target('anthropic', { inputPricePer1M: 0.000_04 }), { inputTokens: 1, outputTokens: 0 })).toBe(0);
  });

  it('never counts more cached tokens than the prompt has', () => {
    const overstated = costOf(sonnet, { inputTokens: 100, outputTokens: 0, cacheReadTokens: 80, cacheWriteTokens: 80, cacheWrite1hTokens: 500 });
    // 80 read, the other 20 written for an hour: 80 x 0.3 + 20 x 6.
    expect(overstated).toBe(0.000144);
  });
});

describe('cacheSavingOf', () => {
  it('is what the read tokens would have cost at the input price less what they cost', () => {
    expect(cacheSavingOf(sonnet, { inputTokens: 10_000, outputTokens: 0, cacheReadTokens: 8_000 })).toBe(0.0216);
    expect(cacheSavingOf(gpt4o, { inputTokens: 10_000, outputTokens: 0 })).toBe(0);
  });
});

describe('worstCaseCost', () => {
  it('holds the prompt at the input price when the request writes no cache', () => {
    expect(worstCaseCost(sonnet, 10_000, 1_000)).toBe(0.045);
    expect(worstCaseCost(sonnet, 10_000, 1_000, 'none')).toBe(0.045);
  });

  it('holds the prompt at the 5-minute write price when the request has breakpoints', () => {
    expect(worstCaseCost(sonnet, 10_000, 1_000, '5m')).toBe(0.0525);
  });

  it('holds the prompt at the 1-hour write price when a breakpoint asks for an hour', () => {
    expect(worstCaseCost(sonnet, 10_000, 1_000, '1h')).toBe(0.075);
  });

  it('never holds less than the input price, whatever the configured write price', () => {
    const cheapWrites = target('anthropic', { inputPricePer1M: 3, cacheWritePricePer1M: 1, cacheWrite1hPricePer1M: 1 });
    expect(worstCaseCost(cheapWrites, 10_000, 0, '1h')).toBe(0.03);
  });
});
