// Cost in USD from the configured per-1M-token prices of the target that answered: uncached
// prompt tokens at the input price, prompt-cache reads and writes (5-minute and 1-hour) at their
// own prices, output at the output price. A model without cache prices gets those its answering
// provider bills by default (docs/configuration.md, "Gateway config file"): Anthropic reads at 0.1x the input price and
// writes at 1.25x (2x for the 1-hour TTL); OpenAI(-compatible) reads at 0.5x and writes at the
// input price (it bills no write premium).
import type { ModelConfig, ProviderType } from './config.js';
import type { TokenCounts } from './providers/types.js';

/** What a price is worked out from: the model's prices and the kind of provider that answered. */
export interface PricedTarget {
  model: ModelConfig;
  provider: { type: ProviderType };
}

/** Whether a request writes the prompt cache, and at which TTL (its longest breakpoint's). */
export type CacheWrite = 'none' | '5m' | '1h';

export interface CachePrices {
  readPer1M: number;
  writePer1M: number;
  write1hPer1M: number;
}

const DEFAULT_CACHE_FACTORS: Record<ProviderType, { read: number; write: number }> = {
  anthropic: { read: 0.1, write: 1.25 },
  openai: { read: 0.5, write: 1 },
  dev: { read: 0.5, write: 1 },
};
const DEFAULT_WRITE_1H_FACTOR = 2;

export function cachePricesOf(target: PricedTarget): CachePrices {
  const { model } = target;
  const factors = DEFAULT_CACHE_FACTORS[target.provider.type];
  return {
    readPer1M: model.cacheReadPricePer1M ?? model.inputPricePer1M * factors.read,
    writePer1M: model.cacheWritePricePer1M ?? model.inputPricePer1M * factors.write,
    write1hPer1M: model.cacheWrite1hPricePer1M ?? model.inputPricePer1M * DEFAULT_WRITE_1H_FACTOR,
  };
}

/** The prompt's tokens by how they are billed; parts the upstream overstated are clamped to the whole. */
function promptParts(tokens: TokenCounts): { uncached: number; read: number; write5m: number; write1h: number } {
  const read = Math.min(tokens.cacheReadTokens ?? 0, tokens.inputTokens);
  const write = Math.min(tokens.cacheWriteTokens ?? 0, tokens.inputTokens - read);
  const write1h = Math.min(tokens.cacheWrite1hTokens ?? 0, write);
  return { uncached: tokens.inputTokens - read - write, read, write5m: write - write1h, write1h };
}

export function costOf(target: PricedTarget, tokens: TokenCounts): number {
  const { model } = target;
  const prices = cachePricesOf(target);
  const prompt = promptParts(tokens);
  const cost =
    (prompt.uncached * model.inputPricePer1M +
      prompt.read * prices.readPer1M +
      prompt.write5m * prices.writePer1M +
      prompt.write1h * prices.write1hPer1M +
      tokens.outputTokens * model.outputPricePer1M) /
    1_000_000;
  return roundUsd(cost);
}

/** What the cache reads saved: their cost at the input price less their cost at the read price. */
export function cacheSavingOf(target: PricedTarget, tokens: TokenCounts): number {
  const { read } = promptParts(tokens);
  return roundUsd((read * (target.model.inputPricePer1M - cachePricesOf(target).readPer1M)) / 1_000_000);
}

/**
 * What a call can cost at most: the whole prompt plus the largest answer it may get (the
 * max_tokens sent upstream). A request with cache breakpoints may write its whole prompt, so the
 * prompt is held at the write price of its longest TTL (never below the input price).
 */
export function worstCaseCost(target: PricedTarget, promptTokens: number, maxTokens: number, cacheWrite: CacheWrite = 'none'): number {
  const { model } = target;
  const prices = cachePricesOf(target);
  const promptPrice =
    cacheWrite === 'none' ? model.inputPricePer1M
      : cacheWrite === '5m' ? Math.max(model.inputPricePer1M, prices.writePer1M)
      : Math.max(model.inputPricePer1M, prices.writePer1M, prices.write1hPer1M);
  return roundUsd((promptTokens * promptPrice + maxTokens * model.outputPricePer1M) / 1_000_000);
}

/** Rounded to 1e-10 USD so sums stay stable in reports. */
function roundUsd(cost: number): number {
  return Math.round(cost * 1e10) / 1e10;
}
