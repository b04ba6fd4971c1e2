// The Anthropic Messages API as a wire format of the gateway: pure translations between its
// request, response, stream events and errors and the gateway's internal (chat-shaped) request
// and result. The gateway core behind them is the one chat completions use; an Anthropic
// upstream gets the request back as Messages through its provider adapter.
import type { AppError } from '../../errors.js';
import type { ChatCompletionStream } from '../chat.js';
import type { NormalizedChunk, ReasoningDelta, TokenCounts } from '../providers/types.js';
import type { CacheControl, ChatCompletionRequest, ChatCompletionResult, ChatMessage, ContentPart, ReasoningBlock, ToolCall } from '../types.js';
import type { CountTokensRequest, MessagesContentBlock, MessagesRequest } from './messages.schemas.js';

type Block = MessagesContentBlock;
type ToolResultBlock = Extract<Block, { type: 'tool_result' }>;

/**
 * A Messages request as the gateway's internal request: what it omitted stays omitted
 * (`upstreamDefaults`); temperatures move from Anthropic's 0..1 to the internal 0..2.
 */
export function fromMessagesRequest(body: MessagesRequest): ChatCompletionRequest {
  const request: ChatCompletionRequest = { ...fromMessagesPrompt(body), model: body.model, max_tokens: body.max_tokens, upstreamDefaults: true };
  if (body.stream !== undefined) request.stream = body.stream;
  if (body.temperature !== undefined) request.temperature = body.temperature * 2;
  if (body.top_p !== undefined) request.top_p = body.top_p;
  if (body.top_k !== undefined) request.top_k = body.top_k;
  if (body.stop_sequences !== undefined && body.stop_sequences.length > 0) request.stop = body.stop_sequences;
  if (body.thinking?.type === 'enabled') request.reasoning = { budgetTokens: body.thinking.budget_tokens };
  if (body.metadata !== undefined) request.metadata = body.metadata;
  if (body.service_tier !== undefined) request.service_tier = body.service_tier;
  return request;
}

/**
 * What the prompt of a Messages request is internally: messages, tools and tool choice (count_tokens
 * reads only this). Blocks stay blocks (content parts), each with its breakpoint: a system prompt
 * of blocks is one system message of text parts.
 */
export function fromMessagesPrompt(body: CountTokensRequest): ChatCompletionRequest {
  const messages: ChatMessage[] = [];
  if (typeof body.system === 'string' && body.system) messages.push({ role: 'system', content: body.system });
  else if (Array.isArray(body.system) && body.system.length > 0) messages.push({ role: 'system', content: asContent(body.system.map((block) => textPart(block.text, block.cache_control))) });
  for (const message of body.messages) messages.push(...fromMessage(message.role, message.content));
  const request: ChatCompletionRequest = { model: body.model, messages };
  if (body.tools !== undefined) {
    request.tools = body.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), parameters: tool.input_schema },
      ...breakpoint(tool.cache_control),
    }));
  }
  const choice = body.tool_choice;
  if (choice !== undefined) {
    request.tool_choice = choice.type === 'auto' ? 'auto' : choice.type === 'any' ? 'required' : choice.type === 'none' ? 'none' : { type: 'function', function: { name: choice.name } };
    if ('disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use === true) request.parallel_tool_calls = false;
  }
  return request;
}

/** `{cache_control}` when there is a breakpoint, else nothing (an omitted field stays omitted). */
function breakpoint(cacheControl: CacheControl | undefined): { cache_control?: CacheControl } {
  return cacheControl === undefined ? {} : { cache_control: cacheControl };
}

function textPart(text: string, cacheControl: CacheControl | undefined): ContentPart {
  return { type: 'text', text, ...breakpoint(cacheControl) };
}

/** Parts as a message's content: one text block without a breakpoint is its text (Anthropic reads the two alike). */
function asContent(parts: ContentPart[]): string | ContentPart[] {
  const only = parts.length === 1 ? parts[0]! : undefined;
  return only?.type === 'text' && only.cache_control === undefined ? only.text : parts;
}

/**
 * One Anthropic turn as chat messages: a user turn's tool results become tool messages (first, as
 * chat wants them right after the call); its other blocks one user message of content parts.
 */
function fromMessage(role: 'user' | 'assistant', content: string | Block[]): ChatMessage[] {
  if (typeof content === 'string') return [{ role, content }];
  if (role === 'assistant') {
    const texts = content.flatMap((block) => (block.type === 'text' ? [textPart(block.text, block.cache_control)] : []));
    const text = texts.length > 0 ? asContent(texts) : '';
    const toolCalls: ToolCall[] = content.flatMap((block) =>
      block.type === 'tool_use' ? [{ id: block.id, type: 'function' as const, function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) }, ...breakpoint(block.cache_control) }] : [],
    );
    const reasoning = content.flatMap((block): ReasoningBlock[] =>
      block.type === 'thinking' ? [{ type: 'thinking', thinking: block.thinking, signature: block.signature ?? '' }]
        : block.type === 'redacted_thinking' ? [{ type: 'redacted_thinking', data: block.data }]
        : [],
    );
    const message: ChatMessage = toolCalls.length > 0 ? { role, content: text || null, tool_calls: toolCalls } : { role, content: text };
    if (reasoning.length > 0) message.reasoning = reasoning;
    return [message];
  }
  const out: ChatMessage[] = content.flatMap((block) => (block.type === 'tool_result' ? [toolMessage(block)] : []));
  const parts = content.flatMap((block): ContentPart[] => (block.type === 'text' || block.type === 'image' || block.type === 'document' ? [toPart(block)] : []));
  if (parts.length > 0) out.push({ role: 'user', content: asContent(parts) });
  return out;
}

/**
 * A tool result as a tool message: its text, or its blocks (text, images and documents: a
 * screenshot tool's, a PDF a file tool read) as content parts, marked when it reports an error;
 * the result's breakpoint is the message's.
 */
function toolMessage(block: ToolResultBlock): ChatMessage {
  const parts = typeof block.content === 'string' ? block.content : (block.content ?? []).map(toPart);
  const content = typeof parts === 'string' ? parts : parts.length === 0 ? '' : asContent(parts);
  const message: ChatMessage = { role: 'tool', tool_call_id: block.tool_use_id, content, ...breakpoint(block.cache_control) };
  if (block.is_error === true) message.isError = true;
  return message;
}

/** A block as a content part, with its breakpoint: an image as an image URL (a data: URL for its bytes), a document as it came. */
function toPart(block: Extract<Block, { type: 'text' | 'image' | 'document' }>): ContentPart {
  if (block.type === 'text') return textPart(block.text, block.cache_control);
  if (block.type === 'document') {
    const { source, title, context, citations, cache_control: cacheControl } = block;
    return {
      type: 'document',
      source,
      ...(title ? { title } : {}),
      ...(context ? { context } : {}),
      ...(citations === undefined ? {} : { citations }),
      ...breakpoint(cacheControl),
    };
  }
  const url = block.source.type === 'base64' ? `data:${block.source.media_type};base64,${block.source.data}` : block.source.url;
  return { type: 'image_url', image_url: { url }, ...breakpoint(block.cache_control) };
}

const STOP_REASONS: Record<string, string> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use', content_filter: 'refusal' };

/** The gateway's finish reason as Anthropic's stop_reason (a named stop sequence is `stop_sequence`). */
export function toStopReason(finishReason: string, stopSequence?: string): string {
  if (stopSequence !== undefined) return 'stop_sequence';
  return STOP_REASONS[finishReason] ?? 'end_turn';
}

/** Our ids carry the chat prefix; Messages clients expect `msg_`. */
export function messageIdOf(completionId: string): string {
  return `msg_${completionId.startsWith('chatcmpl-') ? completionId.slice('chatcmpl-'.length) : completionId}`;
}

export function toMessageBody(result: ChatCompletionResult) {
  const content: unknown[] = [...(result.reasoning ?? [])];
  // A cited answer's text blocks each with the passages it cites, as the upstream gave them.
  if (result.citedText) for (const block of result.citedText) content.push({ type: 'text', text: block.text, citations: block.citations ?? null });
  else if (result.content) content.push({ type: 'text', text: result.content });
  for (const call of result.toolCalls) content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseInput(call.function.arguments) });
  return {
    id: messageIdOf(result.id),
    type: 'message',
    role: 'assistant',
    model: result.model,
    content,
    stop_reason: toStopReason(result.finishReason, result.stopSequence),
    stop_sequence: result.stopSequence ?? null,
    usage: messagesUsage(result.usage),
  };
}

/**
 * Anthropic's usage: `input_tokens` are the prompt tokens outside the prompt cache, the cache's
 * writes and reads beside them, the writes split by TTL in `cache_creation` (when the upstream
 * reported them: an OpenAI-style upstream's cached_tokens are reads; it reports no writes).
 */
export function messagesUsage(usage: Pick<TokenCounts, 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'cacheWrite1hTokens'>) {
  const read = usage.cacheReadTokens;
  const write = usage.cacheWriteTokens;
  const oneHour = usage.cacheWrite1hTokens ?? 0;
  return {
    input_tokens: usage.inputTokens - (read ?? 0) - (write ?? 0),
    output_tokens: usage.outputTokens,
    ...(write === undefined ? {} : { cache_creation_input_tokens: write, cache_creation: { ephemeral_5m_input_tokens: write - oneHour, ephemeral_1h_input_tokens: oneHour } }),
    ...(read === undefined ? {} : { cache_read_input_tokens: read }),
  };
}

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

const sse = (type: string, payload: string): string => `event: ${type}\ndata: ${payload}\n\n`;

/**
 * Turns a stream's chunks into Messages events, one chunk at a time: message_start and ping
 * first, a content block per thinking block, per text run and per tool call, message_delta (stop
 * reason, usage) and message_stop on the final usage chunk. Returns '' for a chunk that makes no event.
 */
export class MessagesStreamWriter {
  private block = -1;
  private open: 'thinking' | 'text' | 'tool' | undefined;
  /** Internal tool-call index -> content block index. */
  private readonly toolBlocks = new Map<number, number>();
  /** Internal thinking-block index -> content block index. */
  private readonly thinkingBlocks = new Map<number, number>();
  private stopReason = 'end_turn';
  private stopSequence: string | null = null;

  constructor(private readonly stream: Pick<ChatCompletionStream, 'id' | 'model' | 'promptUsage'>) {}

  /** message_start reports the prompt's counts when the upstream gave them before the answer (Anthropic's message_start), else none yet (0). */
  start(): string {
    const prompt = this.stream.promptUsage;
    const usage = prompt ? messagesUsage({ ...prompt, outputTokens: 0 }) : { input_tokens: 0, output_tokens: 0 };
    const message = { id: messageIdOf(this.stream.id), type: 'message', role: 'assistant', model: this.stream.model, content: [], stop_reason: null, stop_sequence: null, usage };
    return sse('message_start', JSON.stringify({ type: 'message_start', message })) + sse('ping', '{"type":"ping"}');
  }

  write(chunk: NormalizedChunk): string {
    if (chunk.usage) return this.finish(chunk);
    let out = '';
    const { content, tool_calls: toolCalls, reasoning, citations } = chunk.delta;
    if (reasoning) out += this.thinking(reasoning);
    // A cited answer's next text block: its text and citations go in a block of their own.
    if (citations?.newBlock && this.open === 'text') out += this.closeBlock();
    if (content) {
      if (this.open !== 'text') out += this.openBlock('text', { type: 'text', text: '' });
      out += sse('content_block_delta', `{"type":"content_block_delta","index":${this.block},"delta":{"type":"text_delta","text":${JSON.stringify(content)}}}`);
    }
    if (citations?.citation !== undefined) {
      if (this.open !== 'text') out += this.openBlock('text', { type: 'text', text: '' });
      out += sse('content_block_delta', JSON.stringify({ type: 'content_block_delta', index: this.block, delta: { type: 'citations_delta', citation: citations.citation } }));
    }
    for (const call of toolCalls ?? []) {
      if (!this.toolBlocks.has(call.index)) {
        out += this.openBlock('tool', { type: 'tool_use', id: call.id ?? '', name: call.function?.name ?? '', input: {} });
        this.toolBlocks.set(call.index, this.block);
      }
      const fragment = call.function?.arguments;
      if (fragment) {
        const index = this.toolBlocks.get(call.index)!;
        out += sse('content_block_delta', `{"type":"content_block_delta","index":${index},"delta":{"type":"input_json_delta","partial_json":${JSON.stringify(fragment)}}}`);
      }
    }
    if (chunk.finishReason !== null) {
      out += this.closeBlock();
      this.stopReason = toStopReason(chunk.finishReason, chunk.stopSequence);
      this.stopSequence = chunk.stopSequence ?? null;
    }
    return out;
  }

  /** A piece of thinking: its block's start when it is new (a redacted block whole), then its text or signature. */
  private thinking(piece: ReasoningDelta): string {
    let out = '';
    if (!this.thinkingBlocks.has(piece.index)) {
      out += this.openBlock('thinking', piece.redacted !== undefined ? { type: 'redacted_thinking', data: piece.redacted } : { type: 'thinking', thinking: '', signature: '' });
      this.thinkingBlocks.set(piece.index, this.block);
    }
    const index = this.thinkingBlocks.get(piece.index)!;
    if (piece.thinking) out += sse('content_block_delta', JSON.stringify({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece.thinking } }));
    if (piece.signature) out += sse('content_block_delta', JSON.stringify({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: piece.signature } }));
    return out;
  }

  /** The `error` event for a failure after the first byte. */
  error(error: AppError): string {
    return sse('error', JSON.stringify(toAnthropicError(error).body));
  }

  private finish(chunk: NormalizedChunk): string {
    const usage = chunk.usage!;
    const delta = { stop_reason: this.stopReason, stop_sequence: this.stopSequence };
    const usageOut = { ...messagesUsage(usage), ...(chunk.cost === undefined ? {} : { cost: chunk.cost }) };
    return this.closeBlock() + sse('message_delta', JSON.stringify({ type: 'message_delta', delta, usage: usageOut })) + sse('message_stop', '{"type":"message_stop"}');
  }

  private openBlock(kind: 'thinking' | 'text' | 'tool', contentBlock: Record<string, unknown>): string {
    const closing = this.closeBlock();
    this.block += 1;
    this.open = kind;
    return closing + sse('content_block_start', JSON.stringify({ type: 'content_block_start', index: this.block, content_block: contentBlock }));
  }

  private closeBlock(): string {
    if (this.open === undefined) return '';
    this.open = undefined;
    return sse('content_block_stop', `{"type":"content_block_stop","index":${this.block}}`);
  }
}

/** Anthropic's error types by status; 503 is its `overloaded_error` (529). */
const ANTHROPIC_ERRORS: Record<number, { status: number; type: string }> = {
  400: { status: 400, type: 'invalid_request_error' },
  401: { status: 401, type: 'authentication_error' },
  402: { status: 402, type: 'billing_error' },
  403: { status: 403, type: 'permission_error' },
  404: { status: 404, type: 'not_found_error' },
  405: { status: 405, type: 'invalid_request_error' },
  409: { status: 409, type: 'invalid_request_error' },
  413: { status: 413, type: 'request_too_large' },
  415: { status: 415, type: 'invalid_request_error' },
  429: { status: 429, type: 'rate_limit_error' },
  502: { status: 502, type: 'api_error' },
  503: { status: 529, type: 'overloaded_error' },
};

/** An error in Anthropic's shape and status: `{"type":"error","error":{"type","message"}}`. */
export function toAnthropicError(error: AppError): { status: number; body: { type: 'error'; error: { type: string; message: string } } } {
  const mapped = ANTHROPIC_ERRORS[error.status] ?? { status: 500, type: 'api_error' };
  return { status: mapped.status, body: { type: 'error', error: { type: mapped.type, message: error.message } } };
}
