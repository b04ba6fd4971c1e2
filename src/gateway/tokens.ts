// Token estimates for when an upstream reports no usage: the o200k/cl100k-family BPE of
// gpt-tokenizer (pure JS), plus OpenAI's per-message framing overhead. Records counted here are
// marked estimated.
import { countTokens } from 'gpt-tokenizer';
import type { ChatMessage, ToolCall } from './types.js';

/** Framing tokens OpenAI adds per message and once per reply. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_REPLY = 3;

export function estimateTextTokens(text: string): number {
  return text.length === 0 ? 0 : countTokens(text);
}

export function estimatePromptTokens(messages: ChatMessage[]): number {
  let total = TOKENS_PER_REPLY;
  for (const message of messages) {
    total += TOKENS_PER_MESSAGE + estimateTextTokens(message.content ?? '');
    for (const call of message.tool_calls ?? []) total += estimateTextTokens(call.function.name + call.function.arguments);
  }
  return total;
}

export function estimateCompletionTokens(content: string | null, toolCalls: ToolCall[] = []): number {
  let total = estimateTextTokens(content ?? '');
  for (const call of toolCalls) total += estimateTextTokens(call.function.name + call.function.arguments);
  return total;
}
