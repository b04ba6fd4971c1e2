// Our API's wire format: gateway results shaped as OpenAI's chat.completion and
// chat.completion.chunk objects, so OpenAI clients read them unchanged.
import type { ChatCompletionStream } from './chat.js';
import type { NormalizedChunk, TokenCounts } from './providers/types.js';
import type { ChatCompletionResult } from './types.js';

export function toCompletionBody(result: ChatCompletionResult, created: number) {
  return {
    id: result.id,
    object: 'chat.completion',
    created,
    model: result.model,
    choices: [{
      index: 0,
      message: {
        role: 'assistant',
        content: result.content,
        ...(result.toolCalls.length > 0 ? { tool_calls: result.toolCalls } : {}),
        ...reasoningContent(result),
      },
      finish_reason: result.finishReason,
      logprobs: null,
    }],
    usage: usageBody(result.usage),
  };
}

/**
 * The answer's thinking (an Anthropic upstream's) as `reasoning_content`, the field OpenAI-style
 * servers that show reasoning use; its signatures have no place in chat completions.
 */
function reasoningContent(result: ChatCompletionResult): { reasoning_content?: string } {
  const text = (result.reasoning ?? []).flatMap((block) => (block.type === 'thinking' ? [block.thinking] : [])).join('\n\n');
  return text ? { reasoning_content: text } : {};
}

/**
 * OpenAI's usage object; a prompt-cache read the upstream reported is
 * `prompt_tokens_details.cached_tokens`, its reasoning tokens `completion_tokens_details.reasoning_tokens`.
 */
function usageBody(usage: TokenCounts) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    ...(usage.cacheReadTokens === undefined ? {} : { prompt_tokens_details: { cached_tokens: usage.cacheReadTokens } }),
    ...(usage.reasoningTokens === undefined ? {} : { completion_tokens_details: { reasoning_tokens: usage.reasoningTokens } }),
  };
}

/**
 * Serializes a stream's chunks, one at a time, as SSE `data:` lines: the role on the first chunk
 * only, the usage chunk (empty choices) only when the client asked for it (undefined otherwise).
 * A plain function, not a generator over the chunks: a chunk costs no promise of its own.
 */
export function sseEventWriter(stream: ChatCompletionStream, includeUsage: boolean): (chunk: NormalizedChunk) => string | undefined {
  const head = `{"id":"${stream.id}","object":"chat.completion.chunk","created":${stream.created},"model":${JSON.stringify(stream.model)},`;
  let roleSent = false;
  return (chunk) => {
    if (chunk.usage) return includeUsage ? `data: ${head}"choices":[],"usage":${JSON.stringify(usageOf(chunk))}}\n\n` : undefined;
    const delta = chatDelta(roleSent ? withoutRole(chunk) : { role: 'assistant', ...chunk.delta });
    // A piece of thinking with no text (a signature, a redacted block) says nothing here.
    if (delta === undefined && chunk.finishReason === null) return undefined;
    roleSent = true;
    return `data: ${head}"choices":[{"index":0,"delta":${JSON.stringify(delta ?? {})},"finish_reason":${JSON.stringify(chunk.finishReason)}}]}\n\n`;
  };
}

export const SSE_DONE = 'data: [DONE]\n\n';

/**
 * A delta as chat completions sends it: a piece of thinking's text as `reasoning_content`, without
 * Anthropic's citations (chat completions has no field for them); undefined when nothing is left.
 */
function chatDelta(delta: NormalizedChunk['delta']): object | undefined {
  if (delta.reasoning === undefined && delta.citations === undefined) return delta;
  const { reasoning, citations: _citations, ...rest } = delta;
  const out = reasoning?.thinking ? { ...rest, reasoning_content: reasoning.thinking } : rest;
  return Object.keys(out).length > 0 ? out : undefined;
}

function withoutRole(chunk: NormalizedChunk): NormalizedChunk['delta'] {
  if (chunk.delta.role === undefined) return chunk.delta;
  const { role: _role, ...rest } = chunk.delta;
  return rest;
}

function usageOf(chunk: NormalizedChunk) {
  const counts = usageBody(chunk.usage!);
  // The answer's cost in USD (the header went out before it was known).
  return chunk.cost === undefined ? counts : { ...counts, cost: chunk.cost };
}
