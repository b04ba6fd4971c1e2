// Cost in USD from the configured per-1M-token prices of the model that answered.
import type { ModelConfig } from './config.js';
import type { TokenCounts } from './providers/types.js';

export function costOf(model: ModelConfig, tokens: TokenCounts): number {
  const cost = (tokens.inputTokens * model.inputPricePer1M + tokens.outputTokens * model.outputPricePer1M) / 1_000_000;
  // Rounded to 1e-10 USD so sums stay stable in reports.
  return Math.round(cost * 1e10) / 1e10;
}

/** What a call can cost at most: the whole prompt plus the largest answer it may get (the max_tokens sent upstream). */
export function worstCaseCost(model: ModelConfig, promptTokens: number, maxTokens: number): number {
  return costOf(model, { inputTokens: promptTokens, outputTokens: maxTokens });
}
