// The built-in `dev` provider: a deterministic local responder for development and the embedded
// default. It answers "[dev-echo] <last user message>" (cut to max_tokens words) without any
// network, reports usage counted with the tokenizer, and streams the answer word by word.
import { countCompletionTokens, countPromptTokens } from '../../tokens.js';
import type { ChatCompletionRequest } from '../../types.js';
import type { NormalizedChunk, NormalizedCompletion } from '../types.js';

export const DEV_REPLY_PREFIX = '[dev-echo]';

export function devReplyText(request: ChatCompletionRequest, maxTokens: number | undefined): { text: string; truncated: boolean } {
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
  const words = `${DEV_REPLY_PREFIX} ${lastUser?.content ?? ''}`.trim().split(/\s+/);
  const limit = maxTokens ?? Number.POSITIVE_INFINITY;
  return { text: words.slice(0, limit).join(' '), truncated: words.length > limit };
}

export async function devComplete(request: ChatCompletionRequest, maxTokens: number | undefined): Promise<NormalizedCompletion> {
  const { text, truncated } = devReplyText(request, maxTokens);
  return {
    content: text,
    toolCalls: [],
    finishReason: truncated ? 'length' : 'stop',
    usage: { inputTokens: await countPromptTokens(request.messages), outputTokens: await countCompletionTokens(text) },
  };
}

export async function devStreamChunks(request: ChatCompletionRequest, maxTokens: number | undefined): Promise<NormalizedChunk[]> {
  const completion = await devComplete(request, maxTokens);
  const words = (completion.content ?? '').split(' ');
  const chunks: NormalizedChunk[] = words.map((word, index) => ({
    delta: index === 0 ? { role: 'assistant', content: word } : { content: ` ${word}` },
    finishReason: null,
  }));
  chunks.push({ delta: {}, finishReason: completion.finishReason });
  if (completion.usage) chunks.push({ delta: {}, finishReason: null, usage: completion.usage });
  return chunks;
}
