// The OpenAI Responses API as a wire format of the gateway: pure translations between its input
// items, response object and stream events and the gateway's internal (chat-shaped) request and
// result. References to stored items are resolved before (responses.service.ts); ids come from
// the caller so the translations stay deterministic.
import type { AppError } from '../../errors.js';
import type { NormalizedChunk, ReasoningDelta, TokenCounts } from '../providers/types.js';
import { mergeReasoning, sealReasoning, unsealReasoning } from '../reasoning.js';
import type { ChatCompletionRequest, ChatCompletionResult, ChatMessage, ContentPart, ReasoningBlock, ToolCall } from '../types.js';
import type { ResponsesInputItem, ResponsesRequest } from './responses.schemas.js';

/** An input or output item with every reference resolved: what a stored response keeps. */
export type ResolvedItem = Exclude<ResponsesInputItem, { type: 'item_reference' }>;

/** The internal request of a Responses call over its resolved conversation (earlier items first). */
export function fromResponsesRequest(body: ResponsesRequest, items: ResolvedItem[]): ChatCompletionRequest {
  const messages: ChatMessage[] = [];
  if (body.instructions) messages.push({ role: 'system', content: body.instructions });
  for (const item of items) addItem(messages, item);
  // Thinking with no answer after it in its turn (an answer cut short, or its items left out) has no turn to go with.
  const request: ChatCompletionRequest = { model: body.model, messages: messages.filter((message) => !isReasoningOnly(message)) };
  if (body.stream) request.stream = true;
  if (body.max_output_tokens != null) request.max_tokens = body.max_output_tokens;
  if (body.temperature != null) request.temperature = body.temperature;
  if (body.top_p != null) request.top_p = body.top_p;
  if (body.tools !== undefined && body.tools.length > 0) {
    request.tools = body.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), ...(tool.parameters ? { parameters: tool.parameters } : {}) },
    }));
    if (body.parallel_tool_calls != null) request.parallel_tool_calls = body.parallel_tool_calls;
  }
  if (body.tool_choice !== undefined) request.tool_choice = typeof body.tool_choice === 'string' ? body.tool_choice : { type: 'function', function: { name: body.tool_choice.name } };
  if (body.reasoning?.effort) request.reasoning = { effort: body.reasoning.effort };
  if (body.prompt_cache_key !== undefined) request.prompt_cache_key = body.prompt_cache_key;
  if (body.prompt_cache_retention) request.prompt_cache_retention = body.prompt_cache_retention;
  const format = body.text?.format;
  if (format?.type === 'json_schema') {
    request.response_format = { type: 'json_schema', json_schema: { name: format.name, schema: format.schema, ...(format.strict != null ? { strict: format.strict } : {}), ...(format.description ? { description: format.description } : {}) } };
  } else if (format?.type === 'json_object') {
    request.response_format = { type: 'json_object' };
  }
  return request;
}

/**
 * One item onto the chat messages: function calls join the assistant turn they follow, outputs
 * become tool messages, and reasoning (the thinking it carries signed) goes with the assistant turn
 * it comes in, before or after that turn's message and calls.
 */
function addItem(messages: ChatMessage[], item: ResolvedItem): void {
  if (item.type === 'reasoning') {
    const blocks = item.encrypted_content ? (unsealReasoning(item.encrypted_content) ?? []) : [];
    if (blocks.length === 0) return;
    const last = messages[messages.length - 1];
    if (last?.role === 'assistant') last.reasoning = [...(last.reasoning ?? []), ...blocks];
    else messages.push({ role: 'assistant', content: null, reasoning: blocks });
    return;
  }
  if (item.type === 'function_call') {
    const call: ToolCall = { id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } };
    const last = messages[messages.length - 1];
    if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
    else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    return;
  }
  if (item.type === 'function_call_output') {
    // Text parts as one text; with images or files (a screenshot, a PDF a tool read), all as content parts.
    const { output } = item;
    const content = typeof output === 'string' ? output
      : output.every((part) => part.type === 'input_text' || part.type === 'output_text') ? output.map((part) => part.text).join('\n') : output.map(toPart);
    messages.push({ role: 'tool', tool_call_id: item.call_id, content });
    return;
  }
  const role = item.role === 'developer' ? 'system' : item.role;
  let content: ChatMessage['content'];
  if (typeof item.content === 'string') content = item.content;
  else {
    const parts = item.content.map(toPart);
    const textOnly = parts.every((part) => part.type === 'text');
    content = textOnly || role !== 'user' ? parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('') : parts;
  }
  // The answer's text after its reasoning item: one assistant turn.
  const last = messages[messages.length - 1];
  if (role === 'assistant' && last !== undefined && isReasoningOnly(last)) last.content = content;
  else messages.push({ role, content });
}

/** An assistant turn holding thinking alone so far. */
function isReasoningOnly(message: ChatMessage): boolean {
  return message.role === 'assistant' && message.content === null && message.tool_calls === undefined && message.reasoning !== undefined;
}

/** A content part of an input message (a function call's output parts are some of these). */
type InputPart = Exclude<Extract<ResolvedItem, { role: unknown }>['content'], string>[number];

function toPart(part: InputPart): ContentPart {
  if (part.type === 'input_file') return { type: 'file', file: part.filename === undefined ? { file_data: part.file_data } : { file_data: part.file_data, filename: part.filename } };
  if (part.type === 'input_image') return { type: 'image_url', image_url: { url: part.image_url, ...(part.detail ? { detail: part.detail } : {}) } };
  return { type: 'text', text: part.type === 'refusal' ? part.refusal : part.text };
}

/** A string input is one user message. */
export function inputItems(input: ResponsesRequest['input']): ResponsesInputItem[] {
  if (input === undefined) return [];
  return typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : input;
}

/** A stored input item as GET /v1/responses/{id}/input_items lists it (OpenAI's item objects). */
export function listedInputItem(item: ResolvedItem & { id: string }) {
  if (item.type === 'reasoning') return { ...item, summary: item.summary ?? [] };
  if (item.type === 'function_call') return { type: 'function_call' as const, id: item.id, call_id: item.call_id, name: item.name, arguments: item.arguments, status: 'completed' as const };
  if (item.type === 'function_call_output') return { type: 'function_call_output' as const, id: item.id, call_id: item.call_id, output: item.output, status: 'completed' as const };
  const textType = item.role === 'assistant' ? ('output_text' as const) : ('input_text' as const);
  const content = typeof item.content === 'string' ? [{ type: textType, text: item.content }] : item.content;
  return { type: 'message' as const, id: item.id, role: item.role, status: 'completed' as const, content };
}

/** The prefix of a new id for an input item the client sent without one. */
export function inputItemPrefix(item: ResolvedItem): ItemPrefix {
  return item.type === 'function_call' ? 'fc' : item.type === 'function_call_output' ? 'fco' : item.type === 'reasoning' ? 'rs' : 'msg';
}

/** Item id prefixes: `msg`, `fc`, `fco` for a function call output, `rs` for reasoning. */
export type ItemPrefix = 'msg' | 'fc' | 'fco' | 'rs';

export interface ResponseIds {
  /** A new id with this prefix. */
  item(prefix: ItemPrefix): string;
}

/**
 * The output items of a whole answer: its thinking as one reasoning item (its text as `summary`
 * parts when the request asked for a summary, else as `content`), the text as one message, then
 * each function call.
 */
export function outputItemsOf(result: Pick<ChatCompletionResult, 'content' | 'toolCalls' | 'reasoning'>, ids: ResponseIds, body: ResponsesRequest): OutputItem[] {
  const output: OutputItem[] = [];
  if (result.reasoning?.length) {
    const item = reasoningItem(ids.item('rs'));
    const shown = reasoningText(body);
    for (const block of result.reasoning) if (block.type === 'thinking' && block.thinking) shown.parts(item).push({ type: shown.type, text: block.thinking });
    item.encrypted_content = sealReasoning(result.reasoning);
    output.push(item);
  }
  if (result.content) output.push(messageItem(ids.item('msg'), result.content));
  for (const call of result.toolCalls) output.push(functionCallItem(ids.item('fc'), call.id, call.function.name, call.function.arguments));
  return output;
}

export type OutputItem = ReturnType<typeof messageItem> | ReturnType<typeof functionCallItem> | ReturnType<typeof reasoningItem>;

/**
 * An answer's thinking as a reasoning item: its text as `reasoning_text` parts, or as
 * `summary_text` parts when the request asked for a summary (Claude's thinking is a summary of its
 * reasoning already), and the signed blocks as `encrypted_content` (null when there are none),
 * which a client sends back with the item in a tool loop so an Anthropic upstream can think on.
 */
function reasoningItem(id: string, status: 'completed' | 'in_progress' = 'completed') {
  return {
    type: 'reasoning' as const,
    id,
    status,
    summary: [] as { type: 'summary_text'; text: string }[],
    content: [] as { type: 'reasoning_text'; text: string }[],
    encrypted_content: null as string | null,
  };
}

type ReasoningItem = ReturnType<typeof reasoningItem>;
interface ReasoningPart {
  type: 'reasoning_text' | 'summary_text';
  text: string;
}

/** Where a reasoning item shows the thinking's text (parts of `type` only), and the stream events of those parts. */
interface ReasoningText {
  type: ReasoningPart['type'];
  parts(item: ReasoningItem): ReasoningPart[];
  /** The field that numbers a part in the events. */
  index: 'content_index' | 'summary_index';
  events: { added: string; delta: string; done: string; partDone: string };
}

const AS_CONTENT: ReasoningText = {
  type: 'reasoning_text',
  parts: (item) => item.content,
  index: 'content_index',
  events: { added: 'response.content_part.added', delta: 'response.reasoning_text.delta', done: 'response.reasoning_text.done', partDone: 'response.content_part.done' },
};

const AS_SUMMARY: ReasoningText = {
  type: 'summary_text',
  parts: (item) => item.summary,
  index: 'summary_index',
  events: {
    added: 'response.reasoning_summary_part.added',
    delta: 'response.reasoning_summary_text.delta',
    done: 'response.reasoning_summary_text.done',
    partDone: 'response.reasoning_summary_part.done',
  },
};

function reasoningText(body: ResponsesRequest): ReasoningText {
  return body.reasoning?.summary ? AS_SUMMARY : AS_CONTENT;
}

function messageItem(id: string, text: string, status: 'completed' | 'in_progress' = 'completed') {
  return { type: 'message' as const, id, status, role: 'assistant' as const, content: [{ type: 'output_text' as const, text, annotations: [] as unknown[] }] };
}

function functionCallItem(id: string, callId: string, name: string, args: string, status: 'completed' | 'in_progress' = 'completed') {
  return { type: 'function_call' as const, id, call_id: callId, name, arguments: args, status };
}

/** What a response object says beside its output: the request's settings, echoed. */
export interface ResponseHead {
  id: string;
  createdAt: number;
  model: string;
  body: ResponsesRequest;
}

/** The response object (`object: "response"`) in a given state. */
export function responseObject(
  head: ResponseHead,
  state: { status: 'in_progress' | 'completed' | 'incomplete' | 'failed'; output: OutputItem[]; usage?: (TokenCounts & { cost?: number | undefined }) | undefined; error?: { code: string; message: string } | undefined },
) {
  const { body } = head;
  return {
    id: head.id,
    object: 'response',
    created_at: head.createdAt,
    status: state.status,
    error: state.error ?? null,
    incomplete_details: state.status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: head.model,
    output: state.output,
    output_text: state.output.flatMap((item) => (item.type === 'message' ? item.content.map((part) => part.text) : [])).join(''),
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: body.reasoning?.summary ?? null },
    store: body.store ?? true,
    temperature: body.temperature ?? null,
    top_p: body.top_p ?? null,
    text: { format: body.text?.format ?? { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: (body.tools ?? []).map((tool) => ({ type: 'function', name: tool.name, description: tool.description ?? null, parameters: tool.parameters ?? null, strict: tool.strict ?? null })),
    truncation: 'disabled',
    metadata: body.metadata ?? {},
    usage: state.usage
      ? {
          input_tokens: state.usage.inputTokens,
          input_tokens_details: { cached_tokens: state.usage.cacheReadTokens ?? 0 },
          output_tokens: state.usage.outputTokens,
          output_tokens_details: { reasoning_tokens: state.usage.reasoningTokens ?? 0 },
          total_tokens: state.usage.inputTokens + state.usage.outputTokens,
          ...(state.usage.cost === undefined ? {} : { cost: state.usage.cost }),
        }
      : null,
  };
}

export type ResponseObject = ReturnType<typeof responseObject>;

/** A whole answer as a response object: incomplete when the output bound cut it short. */
export function toResponseObject(head: ResponseHead, result: ChatCompletionResult, ids: ResponseIds): ResponseObject {
  const status = result.finishReason === 'length' ? 'incomplete' : 'completed';
  return responseObject(head, { status, output: outputItemsOf(result, ids, head.body), usage: { ...result.usage, cost: result.cost } });
}

/**
 * Turns a stream's chunks into Responses events in the order the official clients parse them:
 * created, in_progress; the thinking as a reasoning item (output_item.added, per thinking block
 * content_part.added, reasoning_text.delta..., reasoning_text.done, content_part.done, or their
 * reasoning_summary_* counterparts when a summary was asked for; then output_item.done with its
 * encrypted_content); per text run a message item (output_item.added, content_part.added,
 * output_text.delta..., output_text.done, content_part.done, output_item.done); per tool call a
 * function_call item (added, function_call_arguments.delta..., .done, output_item.done); then
 * response.completed (or .incomplete) with usage, written by `finish` once the caller stored it.
 */
export class ResponsesStreamWriter {
  private sequence = 0;
  private readonly output: OutputItem[] = [];
  private text: { item: ReturnType<typeof messageItem>; index: number } | undefined;
  private call: { item: ReturnType<typeof functionCallItem>; index: number; toolIndex: number } | undefined;
  /** The reasoning item open: the blocks so far, and which content part shows which thinking block's text. */
  private thinking: { item: ReasoningItem; index: number; blocks: ReasoningBlock[]; parts: Map<number, number>; openPart: number | undefined } | undefined;
  /** Where the thinking's text goes: `content`, or `summary` when the request asked for one. */
  private readonly shown: ReasoningText;
  private finishReason = 'stop';
  private usage: (TokenCounts & { cost?: number | undefined }) | undefined;
  /** The events that closed the items still open when `final` was called, written by `finish`. */
  private closing = '';

  constructor(
    private readonly head: ResponseHead,
    private readonly ids: ResponseIds,
  ) {
    this.shown = reasoningText(head.body);
  }

  start(): string {
    const response = responseObject(this.head, { status: 'in_progress', output: [] });
    return this.event('response.created', { response }) + this.event('response.in_progress', { response });
  }

  write(chunk: NormalizedChunk): string {
    if (chunk.usage) {
      this.usage = { ...chunk.usage, cost: chunk.cost };
      return '';
    }
    let out = '';
    const { content, tool_calls: toolCalls, reasoning } = chunk.delta;
    if (reasoning) out += this.think(reasoning);
    if (content) {
      if (!this.text) out += this.closeReasoning() + this.closeCall() + this.openText();
      const { item, index } = this.text!;
      item.content[0]!.text += content;
      out += this.event('response.output_text.delta', { item_id: item.id, output_index: index, content_index: 0, delta: content, logprobs: [] });
    }
    for (const delta of toolCalls ?? []) {
      if (!this.call || this.call.toolIndex !== delta.index) out += this.closeReasoning() + this.closeText() + this.closeCall() + this.openCall(delta.index, delta.id ?? '', delta.function?.name ?? '');
      const fragment = delta.function?.arguments;
      if (fragment) {
        const { item, index } = this.call!;
        item.arguments += fragment;
        out += this.event('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: fragment });
      }
    }
    if (chunk.finishReason !== null) {
      this.finishReason = chunk.finishReason;
      out += this.closeReasoning() + this.closeText() + this.closeCall();
    }
    return out;
  }

  /** The final response object (stored before `finish` writes it); items still open are closed first. */
  final(): ResponseObject {
    this.closing = this.closeReasoning() + this.closeText() + this.closeCall();
    const status = this.finishReason === 'length' ? 'incomplete' : 'completed';
    return responseObject(this.head, { status, output: this.output, usage: this.usage });
  }

  /** The closing events, the last carrying the final response as serialized (`JSON.stringify(final())`). */
  finish(responseJson: string): string {
    const type = this.finishReason === 'length' ? 'response.incomplete' : 'response.completed';
    // As event() writes it, with the response's JSON spliced in instead of serialized again.
    return `${this.closing}event: ${type}\ndata: {"type":"${type}","response":${responseJson},"sequence_number":${this.sequence++}}\n\n`;
  }

  /**
   * A failure after the first byte: response.failed, then the `error` event. The event carries the
   * error both flat (OpenAI's documented fields) and nested under `error` (the form the openai
   * SDK raises as an APIError and the AI SDK also reads).
   */
  error(error: AppError): string {
    const response = responseObject(this.head, { status: 'failed', output: this.output, error: { code: error.code, message: error.message } });
    const flat = { code: error.code, message: error.message, param: error.param };
    return this.event('response.failed', { response }) + this.event('error', { ...flat, error: { type: error.type, ...flat } });
  }

  /** A piece of thinking: the reasoning item opened first, a part per thinking block, its text as deltas. */
  private think(piece: ReasoningDelta): string {
    let out = '';
    if (!this.thinking) {
      out += this.closeText() + this.closeCall();
      const item = reasoningItem(this.ids.item('rs'), 'in_progress');
      this.thinking = { item, index: this.output.push(item) - 1, blocks: [], parts: new Map(), openPart: undefined };
      out += this.event('response.output_item.added', { output_index: this.thinking.index, item });
    }
    const thinking = this.thinking;
    const { item, index } = thinking;
    const block = mergeReasoning(thinking.blocks, piece);
    if (block.type !== 'thinking' || !piece.thinking) return out;
    const { type, index: numbered, events } = this.shown;
    const parts = this.shown.parts(item);
    let part = thinking.parts.get(piece.index);
    if (part === undefined) {
      out += this.closePart();
      part = parts.push({ type, text: '' }) - 1;
      thinking.parts.set(piece.index, part);
      thinking.openPart = part;
      out += this.event(events.added, { item_id: item.id, output_index: index, [numbered]: part, part: { type, text: '' } });
    }
    parts[part]!.text += piece.thinking;
    return out + this.event(events.delta, { item_id: item.id, output_index: index, [numbered]: part, delta: piece.thinking });
  }

  private closePart(): string {
    const thinking = this.thinking;
    if (thinking?.openPart === undefined) return '';
    const { item, index, openPart } = thinking;
    thinking.openPart = undefined;
    const { index: numbered, events } = this.shown;
    const part = this.shown.parts(item)[openPart]!;
    return (
      this.event(events.done, { item_id: item.id, output_index: index, [numbered]: openPart, text: part.text }) +
      this.event(events.partDone, { item_id: item.id, output_index: index, [numbered]: openPart, part })
    );
  }

  private closeReasoning(): string {
    if (!this.thinking) return '';
    const out = this.closePart();
    const { item, index, blocks } = this.thinking;
    this.thinking = undefined;
    item.status = 'completed';
    item.encrypted_content = sealReasoning(blocks);
    return out + this.event('response.output_item.done', { output_index: index, item });
  }

  private openText(): string {
    const item = messageItem(this.ids.item('msg'), '', 'in_progress');
    const index = this.output.push(item) - 1;
    this.text = { item, index };
    return (
      this.event('response.output_item.added', { output_index: index, item: { ...item, content: [] } }) +
      this.event('response.content_part.added', { item_id: item.id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } })
    );
  }

  private closeText(): string {
    if (!this.text) return '';
    const { item, index } = this.text;
    this.text = undefined;
    item.status = 'completed';
    const part = item.content[0]!;
    return (
      this.event('response.output_text.done', { item_id: item.id, output_index: index, content_index: 0, text: part.text, logprobs: [] }) +
      this.event('response.content_part.done', { item_id: item.id, output_index: index, content_index: 0, part }) +
      this.event('response.output_item.done', { output_index: index, item })
    );
  }

  private openCall(toolIndex: number, callId: string, name: string): string {
    const item = functionCallItem(this.ids.item('fc'), callId, name, '', 'in_progress');
    const index = this.output.push(item) - 1;
    this.call = { item, index, toolIndex };
    return this.event('response.output_item.added', { output_index: index, item: { ...item } });
  }

  private closeCall(): string {
    if (!this.call) return '';
    const { item, index } = this.call;
    this.call = undefined;
    item.status = 'completed';
    return (
      this.event('response.function_call_arguments.done', { item_id: item.id, output_index: index, name: item.name, arguments: item.arguments }) +
      this.event('response.output_item.done', { output_index: index, item })
    );
  }

  private event(type: string, payload: Record<string, unknown>): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, ...payload, sequence_number: this.sequence++ })}\n\n`;
  }
}
