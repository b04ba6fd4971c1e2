// Anthropic Messages API: the conversation becomes Messages (messages.ts: system blocks, content
// blocks, breakpoints), stop reasons and usage (the prompt cache's reads and writes, by TTL) are
// mapped back, and the stream's typed events
// (message_start, content_block_*, message_delta) are translated into OpenAI-shaped deltas. A
// reasoning request becomes extended thinking (`thinking`, a token budget) where Anthropic takes
// it, and the answer's thinking blocks come back as the answer's reasoning.
import { classifyUpstreamError } from '../errors.js';
import type {
  BuildRequestInput,
  HttpProviderAdapter,
  NormalizedChunk,
  NormalizedCompletion,
  ProviderErrorInfo,
  SseEvent,
  StreamTranslator,
  TokenCounts,
  UpstreamHttpRequest,
} from '../types.js';
import { UpstreamStreamError } from '../types.js';
import { structuredFinishReason, structuredOutputTool, structuredToolChoice } from './structured-output.js';
import { cached, toAnthropicMessages, type ContentBlock } from './messages.js';
import {
  DEFAULT_TEMPERATURE,
  type ChatCompletionRequest,
  type CitedText,
  type ReasoningBlock,
  type ReasoningEffort,
  type ToolCall,
} from '../../types.js';
import { isSigned } from '../../reasoning.js';

export const ANTHROPIC_VERSION = '2023-06-01';

interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /** The writes by TTL (their sum is cache_creation_input_tokens). */
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
}

/**
 * Anthropic counts cache reads and writes apart from `input_tokens`; the gateway's input tokens
 * are every prompt token (as OpenAI's prompt_tokens), with the cached parts named beside them. The
 * writes' 1-hour share (`cache_creation.ephemeral_1h_input_tokens`) is priced apart; the writes'
 * total is cache_creation_input_tokens (or, without it, the sum of the split).
 */
function tokenCountsOf(usage: AnthropicUsage | undefined, outputTokens = usage?.output_tokens): TokenCounts | null {
  if (typeof usage?.input_tokens !== 'number' || typeof outputTokens !== 'number') return null;
  const read = usage.cache_read_input_tokens;
  const split = usage.cache_creation;
  const fiveMinutes = split?.ephemeral_5m_input_tokens;
  const oneHour = split?.ephemeral_1h_input_tokens;
  const write = typeof usage.cache_creation_input_tokens === 'number' ? usage.cache_creation_input_tokens
    : typeof fiveMinutes === 'number' || typeof oneHour === 'number' ? (fiveMinutes ?? 0) + (oneHour ?? 0)
    : undefined;
  const counts: TokenCounts = { inputTokens: usage.input_tokens + (read ?? 0) + (write ?? 0), outputTokens };
  if (typeof read === 'number') counts.cacheReadTokens = read;
  if (write !== undefined) counts.cacheWriteTokens = write;
  if (typeof oneHour === 'number') counts.cacheWrite1hTokens = oneHour;
  return counts;
}

const STOP_REASONS: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

export function mapStopReason(reason: string | null | undefined): string {
  return (reason && STOP_REASONS[reason]) ?? 'stop';
}

function toAnthropicToolChoice(choice: ChatCompletionRequest['tool_choice'], parallel: boolean | undefined): unknown {
  const serial = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return parallel === false ? { type: 'auto', ...serial } : undefined;
  if (choice === 'auto') return { type: 'auto', ...serial };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any', ...serial };
  return { type: 'tool', name: choice.function.name, ...serial };
}

/**
 * Anthropic's temperature range is 0..1, OpenAI's (the API's) 0..2: linear, t / 2. An omitted
 * temperature is the spec's 1.0, i.e. 0.5 here; Anthropic's own default (1.0) would be 2.0 on
 * the API's scale. A request with `upstreamDefaults` (a Messages client's) sends none of its own.
 */
export function toAnthropicTemperature(temperature: number | undefined, upstreamDefaults = false): number | undefined {
  if (temperature === undefined && upstreamDefaults) return undefined;
  return (temperature ?? DEFAULT_TEMPERATURE) / 2;
}

/** Anthropic's least thinking budget, in tokens. */
export const MIN_THINKING_BUDGET = 1024;

/** The thinking budget an OpenAI-style effort asks for (at most half the output bound, see thinkingBudget). */
const EFFORT_BUDGETS: Readonly<Record<ReasoningEffort, number>> = { none: 0, minimal: 1024, low: 2048, medium: 8192, high: 16_384, xhigh: 32_768 };

/**
 * The thinking budget to ask for, or undefined for no thinking: the Messages client's own budget
 * (below the output bound), or the effort's (at most half the bound, so thinking leaves room for
 * the answer). None where Anthropic would refuse thinking: with a forced tool (`forcedTool`: the
 * caller's choice, or structured output's tool), in a tool loop whose last assistant turn came
 * back without its thinking (an OpenAI-style client has no field for it), or when the budget
 * falls below Anthropic's least.
 */
export function thinkingBudget(request: Pick<ChatCompletionRequest, 'reasoning' | 'messages'>, maxTokens: number, forcedTool: boolean): number | undefined {
  const { reasoning } = request;
  const budget = reasoning?.budgetTokens !== undefined
    ? Math.min(reasoning.budgetTokens, maxTokens - 1)
    : Math.min(EFFORT_BUDGETS[reasoning?.effort ?? 'none'], Math.floor(maxTokens / 2));
  if (budget < MIN_THINKING_BUDGET || forcedTool) return undefined;
  const lastAssistant = request.messages.findLast((message) => message.role === 'assistant');
  if (lastAssistant?.tool_calls?.length && !lastAssistant.reasoning?.some(isSigned)) return undefined;
  return budget;
}

/** Whether a tool choice makes the model call a tool (Anthropic's `any` or `tool`). */
function forcesTool(choice: unknown): boolean {
  const type = (choice as { type?: string } | undefined)?.type;
  return type === 'any' || type === 'tool';
}

export function buildAnthropicRequest(input: BuildRequestInput): UpstreamHttpRequest {
  const { request } = input;
  const structured = structuredOutputTool(request);
  const callerChoice = request.tools === undefined ? undefined : toAnthropicToolChoice(request.tool_choice, request.parallel_tool_calls);
  const toolChoice = structured ? structuredToolChoice(structured, (request.tools?.length ?? 0) > 0, callerChoice) : callerChoice;
  const budget = request.reasoning ? thinkingBudget(request, input.maxTokens, forcesTool(toolChoice)) : undefined;
  const { system, messages } = toAnthropicMessages(request.messages, budget !== undefined);
  const body: Record<string, unknown> = {
    model: input.upstreamModel,
    messages,
    max_tokens: input.maxTokens,
  };
  if (system !== undefined) body.system = system;
  if (budget === undefined) {
    const temperature = toAnthropicTemperature(request.temperature, request.upstreamDefaults);
    if (temperature !== undefined) body.temperature = temperature;
    if (request.top_p !== undefined) body.top_p = request.top_p;
    if (request.top_k !== undefined) body.top_k = request.top_k;
  } else {
    // Thinking takes no temperature or top_k, and a top_p of 0.95 or more only.
    body.thinking = { type: 'enabled', budget_tokens: budget };
    if (request.top_p !== undefined && request.top_p >= 0.95) body.top_p = request.top_p;
  }
  if (request.stop !== undefined) body.stop_sequences = request.stop;
  if (request.tools !== undefined || structured) {
    body.tools = [
      ...(request.tools ?? []).map((tool) => cached({
        name: tool.function.name,
        description: tool.function.description,
        input_schema: tool.function.parameters ?? { type: 'object', properties: {} },
      }, tool.cache_control)),
      ...(structured ? [structured] : []),
    ];
  }
  if (toolChoice !== undefined) body.tool_choice = toolChoice;
  if (request.metadata !== undefined) body.metadata = request.metadata;
  if (request.service_tier !== undefined) body.service_tier = request.service_tier;
  if (input.stream) body.stream = true;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': ANTHROPIC_VERSION };
  if (input.apiKey) headers['x-api-key'] = input.apiKey;
  return { path: '/messages', headers, body: JSON.stringify(body) };
}

interface AnthropicResponse {
  content?: ContentBlock[];
  stop_reason?: string | null;
  stop_sequence?: string | null;
  usage?: AnthropicUsage;
}

/** The answer of a whole response; a call of the structured-output tool (structured-output.ts) is text. */
export function parseAnthropicResponse(body: unknown, request?: Pick<ChatCompletionRequest, 'response_format'>): NormalizedCompletion {
  const response = body as AnthropicResponse;
  if (!Array.isArray(response.content)) throw new UpstreamStreamError('upstream response has no content');
  const structured = request && structuredOutputTool(request)?.name;
  const text: string[] = [];
  const citedText: CitedText[] = [];
  const toolCalls: ToolCall[] = [];
  const reasoning: ReasoningBlock[] = [];
  for (const block of response.content) {
    if (block.type === 'text') {
      text.push(block.text);
      citedText.push(Array.isArray(block.citations) && block.citations.length > 0 ? { text: block.text, citations: block.citations } : { text: block.text });
    }
    else if (block.type === 'thinking') reasoning.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    else if (block.type === 'redacted_thinking') reasoning.push({ type: 'redacted_thinking', data: block.data });
    else if (block.type === 'tool_use' && block.name === structured) text.push(JSON.stringify(block.input ?? {}));
    else if (block.type === 'tool_use') toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
  }
  const finishReason = mapStopReason(response.stop_reason);
  return {
    content: text.length > 0 ? text.join('') : null,
    toolCalls,
    finishReason: structured ? structuredFinishReason(finishReason, toolCalls.length) : finishReason,
    ...(response.stop_reason === 'stop_sequence' && typeof response.stop_sequence === 'string' ? { stopSequence: response.stop_sequence } : {}),
    ...(reasoning.length > 0 ? { reasoning } : {}),
    ...(citedText.some((block) => block.citations) ? { citedText } : {}),
    usage: tokenCountsOf(response.usage),
  };
}

/** Whether a document of the request asks for citations: the answer's text blocks then each carry theirs. */
function citesDocuments(request: Pick<ChatCompletionRequest, 'messages'> | undefined): boolean {
  return request?.messages.some((message) => Array.isArray(message.content) && message.content.some((part) => part.type === 'document' && part.citations?.enabled === true)) ?? false;
}

interface AnthropicStreamEvent {
  type: string;
  index?: number;
  message?: { usage?: AnthropicUsage };
  content_block?: { type: string; id?: string; name?: string; thinking?: string; signature?: string; data?: string };
  delta?: { type?: string; text?: string; partial_json?: string; thinking?: string; signature?: string; citation?: unknown; stop_reason?: string | null; stop_sequence?: string | null };
  usage?: AnthropicUsage;
}

export function createAnthropicStreamTranslator(request?: Pick<ChatCompletionRequest, 'response_format' | 'messages'>): StreamTranslator {
  // The structured-output tool's block streams as text (structured-output.ts).
  const structured = request && structuredOutputTool(request)?.name;
  // With citations, each text block cites its own passages: the blocks stay apart.
  const citing = citesDocuments(request);
  const structuredBlocks = new Set<number>();
  // message_start carries the prompt's counts; message_delta the output's (and, lately, the prompt's again).
  let prompt: AnthropicUsage | undefined;
  // Anthropic numbers content blocks; OpenAI numbers tool calls: keep a block -> tool index map.
  const toolIndexByBlock = new Map<number, number>();
  // Likewise thinking blocks, numbered among themselves (ReasoningDelta's index).
  const reasoningIndexByBlock = new Map<number, number>();
  return {
    translate(event: SseEvent): NormalizedChunk[] {
      const parsed = JSON.parse(event.data) as AnthropicStreamEvent;
      switch (parsed.type) {
        case 'message_start': {
          prompt = parsed.message?.usage;
          const promptUsage = tokenCountsOf(prompt, 0);
          return [promptUsage ? { delta: { role: 'assistant' }, finishReason: null, promptUsage } : { delta: { role: 'assistant' }, finishReason: null }];
        }
        case 'content_block_start': {
          const block = parsed.content_block;
          if (block?.type === 'thinking' || block?.type === 'redacted_thinking') {
            const index = reasoningIndexByBlock.size;
            reasoningIndexByBlock.set(parsed.index ?? 0, index);
            const reasoning = block.type === 'thinking'
              ? { index, thinking: block.thinking ?? '', ...(block.signature ? { signature: block.signature } : {}) }
              : { index, redacted: block.data ?? '' };
            return [{ delta: { reasoning }, finishReason: null }];
          }
          if (block?.type === 'text') return citing ? [{ delta: { citations: { newBlock: true } }, finishReason: null }] : [];
          if (block?.type !== 'tool_use') return [];
          if (structured !== undefined && block.name === structured) {
            structuredBlocks.add(parsed.index ?? 0);
            return [];
          }
          const toolIndex = toolIndexByBlock.size;
          toolIndexByBlock.set(parsed.index ?? 0, toolIndex);
          return [{
            delta: { tool_calls: [{ index: toolIndex, id: block.id ?? '', type: 'function', function: { name: block.name ?? '', arguments: '' } }] },
            finishReason: null,
          }];
        }
        case 'content_block_delta': {
          const delta = parsed.delta;
          if (delta?.type === 'text_delta') return [{ delta: { content: delta.text ?? '' }, finishReason: null }];
          if (delta?.type === 'citations_delta') return [{ delta: { citations: { citation: delta.citation } }, finishReason: null }];
          if (delta?.type === 'thinking_delta' || delta?.type === 'signature_delta') {
            const index = reasoningIndexByBlock.get(parsed.index ?? 0) ?? 0;
            const reasoning = delta.type === 'thinking_delta' ? { index, thinking: delta.thinking ?? '' } : { index, signature: delta.signature ?? '' };
            return [{ delta: { reasoning }, finishReason: null }];
          }
          if (delta?.type === 'input_json_delta' && structuredBlocks.has(parsed.index ?? 0)) {
            return delta.partial_json ? [{ delta: { content: delta.partial_json }, finishReason: null }] : [];
          }
          if (delta?.type === 'input_json_delta') {
            const index = toolIndexByBlock.get(parsed.index ?? 0) ?? 0;
            return [{ delta: { tool_calls: [{ index, function: { arguments: delta.partial_json ?? '' } }] }, finishReason: null }];
          }
          return [];
        }
        case 'message_delta': {
          const finishReason = mapStopReason(parsed.delta?.stop_reason);
          const finish: NormalizedChunk = { delta: {}, finishReason: structuredBlocks.size > 0 ? structuredFinishReason(finishReason, toolIndexByBlock.size) : finishReason };
          if (parsed.delta?.stop_reason === 'stop_sequence' && typeof parsed.delta.stop_sequence === 'string') finish.stopSequence = parsed.delta.stop_sequence;
          const out: NormalizedChunk[] = [finish];
          const usage = tokenCountsOf({ ...prompt, ...definedFields(parsed.usage) }, parsed.usage?.output_tokens);
          if (usage) out.push({ delta: {}, finishReason: null, usage });
          return out;
        }
        case 'error':
          throw new UpstreamStreamError('upstream reported an error inside the stream');
        default:
          return [];
      }
    },
  };
}

/** The fields of a usage object that hold a value (message_delta sends null for those it leaves alone). */
function definedFields(usage: AnthropicUsage | undefined): AnthropicUsage {
  return Object.fromEntries(Object.entries(usage ?? {}).filter(([, value]) => typeof value === 'number' || (typeof value === 'object' && value !== null)));
}

export function mapAnthropicError(status: number, body: string): ProviderErrorInfo {
  return classifyUpstreamError(status, body);
}

export const anthropicProvider: HttpProviderAdapter = {
  kind: 'http',
  buildRequest: buildAnthropicRequest,
  parseResponse: parseAnthropicResponse,
  createStreamTranslator: createAnthropicStreamTranslator,
  mapProviderError: mapAnthropicError,
};
