// An answer's usage for its settlement and records, whatever ended it: what the upstream reported,
// what it reported of the prompt before the stream ended (Anthropic's message_start), the estimate
// (tokens.ts: bounded, never throws), or the hold's own worst case.
import type { BpeCounter } from './bpe-count.js';
import type { Failover } from './failover.js';
import { cacheSavingOf, costOf } from './pricing.js';
import type { NormalizedChunk, TokenCounts } from './providers/types.js';
import { countCompletionTokens, countPromptTokens, type PromptInput } from './tokens.js';
import type { ToolCall } from './types.js';

/**
 * An answer's usage and cost for its settlement and records, whatever happens on the way: the
 * upstream's or estimated usage (`usage`), else, should that fail (an error in our own code), the
 * hold's own worst case, so the budget never moves less than the call may have cost. The cache
 * counts and `cacheSaving` (what the cache reads saved, USD) travel with the usage into the
 * request's records.
 */
export async function settledUsage(
  answered: Pick<Awaited<ReturnType<Failover['run']>>, 'target' | 'reservation' | 'maxTokens'>,
  promptTokens: number,
  usage: () => Promise<TokenCounts & { estimated: boolean }>,
): Promise<TokenCounts & { estimated: boolean; cost: number; cacheSaving: number }> {
  try {
    const counted = await usage();
    return { ...counted, cost: costOf(answered.target, counted), cacheSaving: cacheSavingOf(answered.target, counted) };
  } catch {
    return { inputTokens: promptTokens, outputTokens: answered.maxTokens, estimated: true, cost: answered.reservation.amount, cacheSaving: 0 };
  }
}

/**
 * Accumulates what was streamed, for usage when the upstream reports none (or reported only its
 * prompt's count before the stream ended, as Anthropic's message_start does); drops upstream
 * usage chunks.
 */
export class OutputTally {
  private text = '';
  private readonly toolArguments: ToolCall[] = [];
  private reported: TokenCounts | undefined;
  private promptReported: TokenCounts | undefined;

  /** Returns whether the chunk should be forwarded. */
  take(chunk: NormalizedChunk): boolean {
    if (chunk.usage) {
      this.reported = chunk.usage;
      return false;
    }
    if (chunk.promptUsage) this.promptReported = chunk.promptUsage;
    if (chunk.delta.content) this.text += chunk.delta.content;
    // Thinking is output too (Anthropic counts it in output_tokens).
    if (chunk.delta.reasoning?.thinking) this.text += chunk.delta.reasoning.thinking;
    for (const call of chunk.delta.tool_calls ?? []) {
      this.toolArguments.push({ id: '', type: 'function', function: { name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' } });
    }
    return true;
  }

  async usage(bpe: BpeCounter, prompt: PromptInput): Promise<TokenCounts & { estimated: boolean }> {
    if (this.reported) return { ...this.reported, estimated: false };
    const outputTokens = await countCompletionTokens(bpe, this.text, this.toolArguments);
    if (this.promptReported) return { ...this.promptReported, outputTokens, estimated: true };
    return { inputTokens: await countPromptTokens(bpe, prompt), outputTokens, estimated: true };
  }
}
