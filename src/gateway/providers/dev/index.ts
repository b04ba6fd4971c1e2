// The built-in `dev` provider: a deterministic local responder for development and the embedded
// default. It answers "[dev-echo] <last user message>" (cut to whole words within max_tokens
// tokens, as an upstream honours max_tokens) without any network, reports usage counted with the
// tokenizer, and streams the answer word by word. Offered tools, it calls the ones the system or
// user prompt names (`filesystem__write_file {"path": "a.txt", "content": "hi"}`: the JSON object
// after the name is the arguments, else `{}`), once: after tool results it echoes them. So an
// automation with a `network: none` connector runs a real tool call with no upstream (README tour).
import type { BpeCounter } from '../../bpe-count.js';
import { countCompletionTokens, countPromptTokens, countTextTokens } from '../../tokens.js';
import { contentText, type ChatCompletionRequest, type ToolCall } from '../../types.js';
import { devEmbedding } from '../embeddings.js';
import type { LocalProviderAdapter, NormalizedChunk, NormalizedCompletion } from '../types.js';

export const DEV_REPLY_PREFIX = '[dev-echo]';

export async function devReplyText(request: ChatCompletionRequest, maxTokens: number, bpe: BpeCounter): Promise<{ text: string; truncated: boolean }> {
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
  const words = `${DEV_REPLY_PREFIX} ${contentText(lastUser?.content ?? null)}`.trim().split(/\s+/);
  // The longest run of leading words within maxTokens tokens (a word is at least one token).
  let fits = 0;
  let tooMany = Math.min(words.length, maxTokens) + 1;
  while (tooMany - fits > 1) {
    const middle = Math.floor((fits + tooMany) / 2);
    if ((await countTextTokens(bpe, words.slice(0, middle).join(' '))) <= maxTokens) fits = middle;
    else tooMany = middle;
  }
  return { text: words.slice(0, fits).join(' '), truncated: fits < words.length };
}

/** The calls of offered tools the prompt names, unless the model already called tools this conversation. */
export function devToolCalls(request: ChatCompletionRequest): ToolCall[] {
  if (!request.tools?.length || request.messages.some((message) => message.role === 'tool')) return [];
  const prompt = request.messages
    .filter((message) => message.role === 'system' || message.role === 'user')
    .map((message) => contentText(message.content ?? null))
    .join('\n');
  const calls: ToolCall[] = [];
  for (const tool of request.tools) {
    const name = tool.function.name;
    const at = prompt.indexOf(name);
    if (at < 0) continue;
    calls.push({ id: `call_dev_${calls.length + 1}`, type: 'function', function: { name, arguments: argumentsAfter(prompt.slice(at + name.length)) } });
  }
  return calls;
}

/** The JSON object right after a tool's name in the prompt, else `{}`. */
function argumentsAfter(rest: string): string {
  const start = rest.match(/^\s*\{/);
  if (!start) return '{}';
  let depth = 0;
  let inString = false;
  for (let index = start[0].length - 1; index < rest.length; index += 1) {
    const char = rest[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}' && (depth -= 1) === 0) {
      const candidate = rest.slice(start[0].length - 1, index + 1);
      try {
        JSON.parse(candidate);
        return candidate;
      } catch {
        return '{}';
      }
    }
  }
  return '{}';
}

export async function devComplete(request: ChatCompletionRequest, maxTokens: number, bpe: BpeCounter): Promise<NormalizedCompletion> {
  const toolCalls = devToolCalls(request);
  if (toolCalls.length > 0) {
    return { content: null, toolCalls, finishReason: 'tool_calls', usage: { inputTokens: await countPromptTokens(bpe, request), outputTokens: 0 } };
  }
  const afterTools = request.messages.some((message) => message.role === 'tool');
  const { text, truncated } = afterTools ? await devReplyText(toolResultsAsUser(request), maxTokens, bpe) : await devReplyText(request, maxTokens, bpe);
  return {
    content: text,
    toolCalls: [],
    finishReason: truncated ? 'length' : 'stop',
    usage: { inputTokens: await countPromptTokens(bpe, request), outputTokens: await countCompletionTokens(bpe, text) },
  };
}

/** After tool calls the dev model echoes what the tools answered. */
function toolResultsAsUser(request: ChatCompletionRequest): ChatCompletionRequest {
  const results = request.messages.filter((message) => message.role === 'tool').map((message) => contentText(message.content ?? null));
  return { ...request, messages: [{ role: 'user', content: results.join('\n') }] };
}

export async function devStreamChunks(request: ChatCompletionRequest, maxTokens: number, bpe: BpeCounter): Promise<NormalizedChunk[]> {
  // A stream answers in text only (runs, which call tools, read whole answers).
  const completion = await devComplete({ ...request, tools: undefined }, maxTokens, bpe);
  const words = (completion.content ?? '').split(' ');
  const chunks: NormalizedChunk[] = words.map((word, index) => ({
    delta: index === 0 ? { role: 'assistant', content: word } : { content: ` ${word}` },
    finishReason: null,
  }));
  chunks.push({ delta: {}, finishReason: completion.finishReason });
  if (completion.usage) chunks.push({ delta: {}, finishReason: null, usage: completion.usage });
  return chunks;
}

/** The `dev` provider as the transport takes it: a local adapter beside the HTTP ones. */
export const devProvider: LocalProviderAdapter = {
  kind: 'local',
  complete: devComplete,
  streamChunks: devStreamChunks,
  embed: (input, dimensions) => ({ vectors: input.map((text) => devEmbedding(text, dimensions)), inputTokens: null }),
};
