// Token counts. Two kinds, for two needs:
// - `promptTokenBound`: the budget reservation's worst case, on every request. No tokenizing:
//   a BPE token covers at least one UTF-8 byte, so the byte length is a safe upper bound, and
//   it costs nothing (a 100 KB prompt takes milliseconds to tokenize, and the BPE tables take
//   ~70 MB of memory).
// - `countPromptTokens` / `countCompletionTokens`: usage when an upstream reports none, with
//   the o200k BPE of gpt-tokenizer (pure JS), plus OpenAI's per-message framing overhead.
//   Loaded on first use only. Records counted this way are marked estimated.
import type { ChatMessage, ToolCall } from './types.js';

/** Framing tokens OpenAI adds per message and once per reply. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_REPLY = 3;

type CountTokens = (text: string) => number;
let tokenizer: Promise<CountTokens> | undefined;

function loadTokenizer(): Promise<CountTokens> {
  tokenizer ??= import('gpt-tokenizer').then((module) => module.countTokens);
  return tokenizer;
}

function messageTexts(messages: ChatMessage[]): { framed: number; texts: string[] } {
  const texts: string[] = [];
  for (const message of messages) {
    if (message.content) texts.push(message.content);
    for (const call of message.tool_calls ?? []) texts.push(call.function.name + call.function.arguments);
  }
  return { framed: TOKENS_PER_REPLY + TOKENS_PER_MESSAGE * messages.length, texts };
}

/** At least as many tokens as the prompt has, in any BPE vocabulary; never tokenizes. */
export function promptTokenBound(messages: ChatMessage[]): number {
  const { framed, texts } = messageTexts(messages);
  return texts.reduce((total, text) => total + Buffer.byteLength(text, 'utf8'), framed);
}

export async function countTextTokens(text: string): Promise<number> {
  return text.length === 0 ? 0 : (await loadTokenizer())(text);
}

export async function countPromptTokens(messages: ChatMessage[]): Promise<number> {
  const { framed, texts } = messageTexts(messages);
  let total = framed;
  for (const text of texts) total += await countTextTokens(text);
  return total;
}

export async function countCompletionTokens(content: string | null, toolCalls: ToolCall[] = []): Promise<number> {
  let total = await countTextTokens(content ?? '');
  for (const call of toolCalls) total += await countTextTokens(call.function.name + call.function.arguments);
  return total;
}
