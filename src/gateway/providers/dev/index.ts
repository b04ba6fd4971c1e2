// The built-in `dev` provider: a deterministic local responder for development and the embedded
// default. It answers "[dev-echo] <last user message>" (cut to whole words within max_tokens
// tokens, as an upstream honours max_tokens) without any network, reports usage counted with the
// tokenizer, and streams the answer word by word.
import { countCompletionTokens, countPromptTokens, countTextTokens } from '../../tokens.js';
import { contentText, type ChatCompletionRequest } from '../../types.js';
import type { NormalizedChunk, NormalizedCompletion } from '../types.js';

export const DEV_REPLY_PREFIX = '[dev-echo]';

export async function devReplyText(request: ChatCompletionRequest, maxTokens: number): Promise<{ text: string; truncated: boolean }> {
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
  const words = `${DEV_REPLY_PREFIX} ${contentText(lastUser?.content ?? null)}`.trim().split(/\s+/);
  // The longest run of leading words within maxTokens tokens (a word is at least one token).
  let fits = 0;
  let tooMany = Math.min(words.length, maxTokens) + 1;
  while (tooMany - fits > 1) {
    const middle = Math.floor((fits + tooMany) / 2);
    if ((await countTextTokens(words.slice(0, middle).join(' '))) <= maxTokens) fits = middle;
    else tooMany = middle;
  }
  return { text: words.slice(0, fits).join(' '), truncated: fits < words.length };
}

export async function devComplete(request: ChatCompletionRequest, maxTokens: number): Promise<NormalizedCompletion> {
  const { text, truncated } = await devReplyText(request, maxTokens);
  return {
    content: text,
    toolCalls: [],
    finishReason: truncated ? 'length' : 'stop',
    usage: { inputTokens: await countPromptTokens(request), outputTokens: await countCompletionTokens(text) },
  };
}

export async function devStreamChunks(request: ChatCompletionRequest, maxTokens: number): Promise<NormalizedChunk[]> {
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
