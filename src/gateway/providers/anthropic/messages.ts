// The request's conversation as Anthropic's Messages API takes it: system messages become the
// `system` field (a string, or text blocks when they came as blocks or carry breakpoints), tool
// calls and tool results content blocks, content parts blocks, each with its prompt-cache
// breakpoint (`cache_control`) where the request put one; consecutive turns of one role merge.
import { contentText, type CacheControl, type ChatMessage, type CitationsRequest, type ContentPart, type ReasoningBlock } from '../../types.js';
import { isSigned } from '../../reasoning.js';

/** A block's prompt-cache breakpoint, where the request put one. */
export type Cached = { cache_control?: CacheControl };
export type TextBlock = { type: 'text'; text: string; citations?: unknown[] | null } & Cached;
type ImageBlock = { type: 'image'; source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string } } & Cached;
type DocumentBlock = { type: 'document'; source: { type: 'base64' | 'text'; media_type: string; data: string }; title?: string; context?: string; citations?: CitationsRequest } & Cached;
/** What a user turn or a tool result carries: text, images and documents. */
type PartBlock = TextBlock | ImageBlock | DocumentBlock;
/** A tool's result: its text, or text, image and document blocks (a screenshot, a PDF it read); `is_error` when the tool failed. */
type ToolResultBlock = { type: 'tool_result'; tool_use_id: string; content: string | PartBlock[]; is_error?: true } & Cached;
type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown } & Cached;
export type ContentBlock = PartBlock | ToolUseBlock | ToolResultBlock | ReasoningBlock;

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

/**
 * The messages as Anthropic takes them. `thinking`: the request asks for extended thinking, so an
 * assistant turn's thinking blocks go back with it, first, as Anthropic requires in a tool loop;
 * without thinking they are left out.
 */
export function toAnthropicMessages(messages: ChatMessage[], thinking = false): { system: string | TextBlock[] | undefined; messages: AnthropicMessage[] } {
  const out: AnthropicMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const converted = toAnthropicMessage(message, thinking);
    const previous = out[out.length - 1];
    // Anthropic wants alternating roles: consecutive same-role turns (e.g. several tool results) merge.
    if (previous && previous.role === converted.role) {
      previous.content = [...asBlocks(previous.content), ...asBlocks(converted.content)];
    } else {
      out.push(converted);
    }
  }
  return { system: systemOf(messages), messages: out };
}

/**
 * The system prompt: the system messages' texts joined, or, when one of them came as blocks (a
 * Messages client's, which may carry breakpoints) or carries a breakpoint, their text blocks in
 * order, each as it came.
 */
function systemOf(messages: ChatMessage[]): string | TextBlock[] | undefined {
  const system = messages.filter((m) => m.role === 'system');
  if (system.length === 0) return undefined;
  if (system.every((m) => typeof m.content === 'string' && m.cache_control === undefined)) return system.map((m) => m.content as string).join('\n\n');
  return system.flatMap((message) => {
    const blocks: TextBlock[] = Array.isArray(message.content)
      ? message.content.flatMap((part) => (part.type === 'text' ? [cached({ type: 'text' as const, text: part.text }, part.cache_control)] : []))
      : [{ type: 'text', text: contentText(message.content) }];
    return withBreakpointOnLast(blocks, message.cache_control);
  });
}

/** `block` with the breakpoint, when there is one. */
export function cached<T extends object>(block: T, cacheControl: CacheControl | undefined): T & Cached {
  return cacheControl === undefined ? block : { ...block, cache_control: cacheControl };
}

/** A message-level breakpoint goes on the message's last block. */
function withBreakpointOnLast<T extends object>(blocks: T[], cacheControl: CacheControl | undefined): T[] {
  if (cacheControl === undefined || blocks.length === 0) return blocks;
  return [...blocks.slice(0, -1), cached(blocks[blocks.length - 1]!, cacheControl)];
}

function toAnthropicMessage(message: ChatMessage, thinking: boolean): AnthropicMessage {
  const converted = toAnthropicTurn(message, thinking);
  if (message.cache_control === undefined || message.role === 'tool') return converted;
  return { ...converted, content: withBreakpointOnLast(asBlocks(converted.content), message.cache_control) };
}

function toAnthropicTurn(message: ChatMessage, thinking: boolean): AnthropicMessage {
  if (message.role === 'tool') {
    const content = Array.isArray(message.content) ? toBlocks(message.content) : contentText(message.content);
    const result: ToolResultBlock = cached({ type: 'tool_result' as const, tool_use_id: message.tool_call_id ?? '', content }, message.cache_control);
    if (message.isError) result.is_error = true;
    return { role: 'user', content: [result] };
  }
  const reasoning = thinking && message.role === 'assistant' ? (message.reasoning ?? []).filter(isSigned) : [];
  if (message.role === 'assistant' && message.tool_calls && message.tool_calls.length > 0) {
    const blocks: ContentBlock[] = [...reasoning, ...(message.content ? asBlocks(toBlocks(message.content)) : [])];
    for (const call of message.tool_calls) {
      blocks.push(cached({ type: 'tool_use' as const, id: call.id, name: call.function.name, input: parseArguments(call.function.arguments) }, call.cache_control));
    }
    return { role: 'assistant', content: blocks };
  }
  if (reasoning.length > 0) return { role: 'assistant', content: [...reasoning, ...(message.content ? asBlocks(toBlocks(message.content)) : [])] };
  return { role: message.role === 'assistant' ? 'assistant' : 'user', content: message.content === null ? '' : toBlocks(message.content) };
}

/**
 * Content parts as Anthropic blocks, each with its breakpoint: text as text, an image URL as a url
 * or base64 (data: URL) image source, a file (a PDF's data: URL) as a base64 document titled with
 * its name, a Messages document as it came.
 */
function toBlocks(content: ContentPart[]): PartBlock[];
function toBlocks(content: string | ContentPart[]): string | PartBlock[];
function toBlocks(content: string | ContentPart[]): string | PartBlock[] {
  if (typeof content === 'string') return content;
  return content.map((part): PartBlock => cached(toBlock(part), part.cache_control));
}

function toBlock(part: ContentPart): PartBlock {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'document') {
    const { cache_control: _breakpoint, ...document } = part;
    return document;
  }
  if (part.type === 'file') {
    const file = DATA_URL.exec(part.file.file_data);
    const document: DocumentBlock = { type: 'document', source: { type: 'base64', media_type: file?.[1] ?? 'application/pdf', data: file?.[2] ?? part.file.file_data } };
    if (part.file.filename) document.title = part.file.filename;
    return document;
  }
  const data = DATA_URL.exec(part.image_url.url);
  return data
    ? { type: 'image', source: { type: 'base64', media_type: data[1]!, data: data[2]! } }
    : { type: 'image', source: { type: 'url', url: part.image_url.url } };
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function asBlocks(content: string | ContentBlock[]): ContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
