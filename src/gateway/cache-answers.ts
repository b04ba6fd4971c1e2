// Turning answers into cache entries and back: a plain answer is stored as it is; a streamed one
// is captured chunk by chunk (text joined, tool call deltas merged by index) and stored when it
// ends well; a stored answer is replayed as a plain result or as stream chunks, so a streaming
// request gets server-sent events whichever way the answer was first produced.
import type { Clock } from '../clock.js';
import { cacheKey, effectiveMaxAge, type CacheDirective, type CachedAnswer, type CacheOutcome, type ResponseCache } from './cache.js';
import type { NormalizedChunk, ReasoningDelta, ToolCallDelta } from './providers/types.js';
import { mergeReasoning } from './reasoning.js';
import type { RouteTarget } from './router.js';
import type { ChatCompletionRequest, ChatCompletionResult, ReasoningBlock, ToolCall } from './types.js';

/** How the route asks for the response cache; runs pass nothing and never use it. */
export interface ChatOptions {
  /** The request's Cache-Control, parsed; undefined = the model's cacheTtlSeconds. */
  cacheControl?: CacheDirective | undefined;
  /** Consult the cache at all (the gateway route: yes; runs: no). */
  cacheable?: boolean;
}

/** A request that uses the cache: where its entry lives and how old an answer it accepts. */
export interface Caching {
  key: string;
  maxAgeSeconds: number;
}

/** The chat use case's view of the cache: whether a request uses it, lookups by age, writes. */
export class AnswerCache {
  constructor(private readonly cache: ResponseCache, private readonly clock: Clock) {}

  /** The route's requests only, with a max-age above 0 (their own or the first model's default). */
  caching(organizationId: string, targets: RouteTarget[], request: ChatCompletionRequest, options: ChatOptions): Caching | undefined {
    if (!options.cacheable) return undefined;
    const maxAgeSeconds = effectiveMaxAge(options.cacheControl, targets[0]?.model.cacheTtlSeconds ?? 0);
    if (maxAgeSeconds <= 0) return undefined;
    return { key: cacheKey(organizationId, request), maxAgeSeconds };
  }

  /** A stored answer young enough for this request, with its age. */
  async lookup(caching: Caching): Promise<{ answer: CachedAnswer; outcome: CacheOutcome } | undefined> {
    const answer = await this.cache.get(caching.key);
    if (!answer) return undefined;
    const ageSeconds = Math.max(0, Math.floor((this.clock.now().getTime() - answer.storedAt) / 1000));
    if (ageSeconds > caching.maxAgeSeconds) return undefined;
    return { answer, outcome: { status: 'HIT', ageSeconds } };
  }

  /** Off the answer's path: a failed write only costs a later miss (the cache logs it). */
  store(caching: Caching, answer: CachedAnswer): void {
    void this.cache.set(caching.key, answer, caching.maxAgeSeconds);
  }
}

/** A stored answer as a plain result: nothing was spent on it. */
export function resultOf(answer: CachedAnswer, id: string): ChatCompletionResult {
  return {
    id,
    model: answer.model,
    provider: answer.provider,
    upstreamModel: answer.upstreamModel,
    content: answer.content,
    toolCalls: answer.toolCalls,
    finishReason: answer.finishReason,
    ...(answer.reasoning ? { reasoning: answer.reasoning } : {}),
    usage: { inputTokens: answer.inputTokens, outputTokens: answer.outputTokens, estimated: false },
    cost: 0,
    attempts: 0,
    upstreamMs: 0,
  };
}

/** Collects a streamed answer into a cache entry. */
export class StreamCapture {
  private text = '';
  private sawText = false;
  private readonly calls: ToolCall[] = [];
  private readonly reasoning: ReasoningBlock[] = [];
  private finishReason = 'stop';

  take(chunk: NormalizedChunk): void {
    if (chunk.delta.content !== undefined) {
      this.text += chunk.delta.content;
      this.sawText = true;
    }
    for (const delta of chunk.delta.tool_calls ?? []) this.merge(delta);
    if (chunk.delta.reasoning) mergeReasoning(this.reasoning, chunk.delta.reasoning);
    if (chunk.finishReason) this.finishReason = chunk.finishReason;
  }

  answer(base: Omit<CachedAnswer, 'content' | 'toolCalls' | 'finishReason'>): CachedAnswer {
    return {
      ...base,
      content: this.sawText || this.calls.length === 0 ? this.text : null,
      toolCalls: this.calls.filter(Boolean),
      finishReason: this.finishReason,
      ...(this.reasoning.length > 0 ? { reasoning: this.reasoning } : {}),
    };
  }

  private merge(delta: ToolCallDelta): void {
    const call = (this.calls[delta.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
    if (delta.id) call.id = delta.id;
    if (delta.function?.name) call.function.name += delta.function.name;
    if (delta.function?.arguments) call.function.arguments += delta.function.arguments;
  }
}

/** A block of thinking as the one delta that carries it whole. */
function reasoningDelta(block: ReasoningBlock, index: number): ReasoningDelta {
  return block.type === 'thinking' ? { index, thinking: block.thinking, signature: block.signature } : { index, redacted: block.data };
}

/** A stored answer as the chunks a live stream would have produced: thinking, text, tool calls, finish, usage. */
export async function* replayChunks(answer: CachedAnswer): AsyncGenerator<NormalizedChunk> {
  await Promise.resolve();
  for (const [index, block] of (answer.reasoning ?? []).entries()) yield { delta: { reasoning: reasoningDelta(block, index) }, finishReason: null };
  if (answer.content) yield { delta: { content: answer.content }, finishReason: null };
  if (answer.toolCalls.length > 0) {
    yield {
      delta: {
        tool_calls: answer.toolCalls.map((call, index) => ({ index, id: call.id, type: 'function' as const, function: { name: call.function.name, arguments: call.function.arguments } })),
      },
      finishReason: null,
    };
  }
  yield { delta: {}, finishReason: answer.finishReason };
  yield { delta: {}, finishReason: null, usage: { inputTokens: answer.inputTokens, outputTokens: answer.outputTokens } };
}
