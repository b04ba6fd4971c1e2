// OpenAI-compatible providers (OpenAI itself and any API speaking its chat completions format):
// the request passes through with the upstream model and the output bound (max_tokens, or
// max_completion_tokens where the provider is configured so); streams ask for usage
// (stream_options.include_usage); a reasoning effort the client named is `reasoning_effort`.
// Images and files a tool returned, which chat completions takes
// only from the user, follow the tool messages in a user message; a failed tool's result starts
// with `Error: `.
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
  ToolCallDelta,
  UpstreamHttpRequest,
} from '../types.js';
import { UpstreamStreamError } from '../types.js';
import { DEFAULT_TEMPERATURE, type ChatMessage, type ContentPart, type ToolCall } from '../../types.js';

interface OpenAiUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/**
 * What OpenAI-compatible servers that show a model's reasoning put beside the content: DeepSeek and
 * vLLM `reasoning_content`, OpenRouter and others `reasoning`. OpenAI itself sends neither.
 */
interface ShownReasoning {
  reasoning_content?: string | null;
  reasoning?: unknown;
}

interface OpenAiResponse {
  choices?: { message?: { content?: string | null; tool_calls?: ToolCall[] } & ShownReasoning; finish_reason?: string | null }[];
  usage?: OpenAiUsage | null;
}

interface OpenAiChunk {
  choices?: { delta?: { role?: string; content?: string | null; tool_calls?: ToolCallDelta[] } & ShownReasoning; finish_reason?: string | null }[];
  usage?: OpenAiUsage | null;
  error?: { message?: string };
}

const hasAttachment = (message: ChatMessage): boolean => Array.isArray(message.content) && message.content.some((part) => part.type !== 'text');
/** A tool message chat completions would not take as it is: it has images or files, or the internal error mark. */
const needsRewrite = (message: ChatMessage): boolean => message.role === 'tool' && (message.isError === true || hasAttachment(message));
/**
 * A message with what chat completions has no field for: thinking blocks, a prompt-cache
 * breakpoint (`cache_control` is Anthropic's: never sent to an OpenAI-style upstream), or a
 * Messages document.
 */
const hasAnthropicOnly = (message: ChatMessage): boolean =>
  message.reasoning !== undefined ||
  message.cache_control !== undefined ||
  (message.tool_calls?.some((call) => call.cache_control !== undefined) ?? false) ||
  (Array.isArray(message.content) && message.content.some((part) => part.cache_control !== undefined || part.type === 'document'));

/** The message without thinking and breakpoints, a document as chat completions' parts (openAiParts). */
function asOpenAiMessage(message: ChatMessage): ChatMessage {
  if (!hasAnthropicOnly(message)) return message;
  const { reasoning: _reasoning, cache_control: _breakpoint, ...rest } = message;
  if (Array.isArray(rest.content)) rest.content = openAiParts(rest.content);
  if (rest.tool_calls) rest.tool_calls = rest.tool_calls.map(({ cache_control: _callBreakpoint, ...call }) => call);
  return rest;
}

/**
 * Parts as chat completions takes them: without breakpoints; a Messages document as what it says:
 * a plain-text one as text (its title, context and text), a PDF as a file part (named by its title)
 * after its context.
 */
function openAiParts(parts: ContentPart[]): ContentPart[] {
  return parts.flatMap((part): ContentPart[] => {
    if (part.type !== 'document') {
      if (part.cache_control === undefined) return [part];
      const { cache_control: _breakpoint, ...plain } = part;
      return [plain];
    }
    const { source, title, context } = part;
    if (source.type === 'text') return [{ type: 'text', text: [title, context, source.data].filter((text) => text).join('\n\n') }];
    const file: { file_data: string; filename?: string } = { file_data: `data:${source.media_type};base64,${source.data}` };
    if (title) file.filename = title;
    return [...(context ? [{ type: 'text' as const, text: context }] : []), { type: 'file', file }];
  });
}

/** What a tool returned besides text, as the user message that carries it says: `Images`, `Files`, `Images and files`. */
function attachmentKinds(parts: ContentPart[]): string {
  const images = parts.some((part) => part.type === 'image_url');
  const files = parts.some((part) => part.type === 'file');
  return images && files ? 'Images and files' : files ? 'Files' : 'Images';
}

/**
 * The messages as chat completions takes them. A tool message carries text only, so the images
 * and files of tool results (the internal request keeps them in the tool message, as the Messages
 * and Responses APIs send them) move to a user message right after that turn's tool messages,
 * each introduced by the call it came from. A failed tool's result (`isError`, which chat
 * completions has no field for) says so first: `Error: ` and its text. An assistant turn's
 * thinking blocks are left out. The messages themselves when none needs any of this.
 */
export function asChatCompletionsMessages(messages: ChatMessage[]): ChatMessage[] {
  if (!messages.some((message) => needsRewrite(message) || hasAnthropicOnly(message))) return messages;
  const out: ChatMessage[] = [];
  let attachments: ContentPart[] = [];
  for (const original of messages) {
    const message = asOpenAiMessage(original);
    if (needsRewrite(message)) {
      const { isError, ...rest } = message;
      const parts = Array.isArray(message.content) ? message.content : [{ type: 'text' as const, text: message.content ?? '' }];
      const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
      const attached = parts.filter((part) => part.type !== 'text');
      const kinds = attached.length > 0 ? attachmentKinds(attached) : '';
      const said = text || (kinds ? `(${kinds.toLowerCase()}, in the next message)` : '');
      out.push({ ...rest, content: isError ? `Error: ${said}` : said });
      if (kinds) attachments.push({ type: 'text', text: `${kinds} returned by tool call ${message.tool_call_id ?? ''}:` }, ...attached);
      continue;
    }
    if (message.role !== 'tool' && attachments.length > 0) {
      out.push({ role: 'user', content: attachments });
      attachments = [];
    }
    out.push(message);
  }
  if (attachments.length > 0) out.push({ role: 'user', content: attachments });
  return out;
}

export function buildOpenAiRequest(input: BuildRequestInput): UpstreamHttpRequest {
  const { request } = input;
  const body: Record<string, unknown> = {
    model: input.upstreamModel,
    messages: asChatCompletionsMessages(request.messages),
  };
  body[input.maxTokensParam ?? 'max_tokens'] = input.maxTokens;
  // Same scale as the API; sent even when omitted so the spec's default, not the upstream's,
  // applies (but for a client whose omitted fields stay omitted: a Messages client's).
  if (request.temperature !== undefined || !request.upstreamDefaults) body.temperature = request.temperature ?? DEFAULT_TEMPERATURE;
  if (request.top_p !== undefined) body.top_p = request.top_p;
  if (request.tools !== undefined) body.tools = request.tools.some((tool) => tool.cache_control !== undefined) ? request.tools.map(({ cache_control: _breakpoint, ...tool }) => tool) : request.tools;
  if (request.tool_choice !== undefined) body.tool_choice = request.tool_choice;
  if (request.parallel_tool_calls !== undefined && request.tools !== undefined) body.parallel_tool_calls = request.parallel_tool_calls;
  if (request.stop !== undefined) body.stop = request.stop;
  if (request.response_format !== undefined) body.response_format = request.response_format;
  // An effort the client named goes up as it is. A Messages client's thinking budget does not: an
  // OpenAI model that does not reason refuses the field, and the gateway cannot tell which do.
  if (request.reasoning?.effort !== undefined) body.reasoning_effort = request.reasoning.effort;
  if (request.prompt_cache_key !== undefined) body.prompt_cache_key = request.prompt_cache_key;
  if (request.prompt_cache_retention !== undefined) body.prompt_cache_retention = request.prompt_cache_retention;
  if (input.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (input.apiKey) headers.authorization = `Bearer ${input.apiKey}`;
  return { path: '/chat/completions', headers, body: JSON.stringify(body) };
}

export function parseOpenAiResponse(body: unknown): NormalizedCompletion {
  const response = body as OpenAiResponse;
  const choice = response.choices?.[0];
  if (!choice) throw new UpstreamStreamError('upstream response has no choices');
  const reasoning = shownReasoning(choice.message);
  return {
    content: choice.message?.content ?? null,
    toolCalls: choice.message?.tool_calls ?? [],
    finishReason: choice.finish_reason ?? 'stop',
    ...(reasoning ? { reasoning: [{ type: 'thinking' as const, thinking: reasoning, signature: '' }] } : {}),
    usage: toTokenCounts(response.usage),
  };
}

/**
 * The reasoning text an OpenAI-compatible server showed, if any: one unsigned thinking block
 * (shown to clients; never sent back upstream as thinking, since no upstream can check it).
 */
function shownReasoning(message: ShownReasoning | undefined): string | undefined {
  const text = message?.reasoning_content ?? message?.reasoning;
  return typeof text === 'string' && text.length > 0 ? text : undefined;
}

export function createOpenAiStreamTranslator(): StreamTranslator {
  return {
    translate(event: SseEvent): NormalizedChunk[] {
      if (event.data === '[DONE]') return [];
      const chunk = JSON.parse(event.data) as OpenAiChunk;
      if (chunk.error) throw new UpstreamStreamError('upstream reported an error inside the stream');
      const out: NormalizedChunk[] = [];
      for (const choice of chunk.choices ?? []) {
        const delta = choice.delta ?? {};
        const normalized: NormalizedChunk = { delta: {}, finishReason: choice.finish_reason ?? null };
        if (delta.role === 'assistant') normalized.delta.role = 'assistant';
        if (typeof delta.content === 'string') normalized.delta.content = delta.content;
        const reasoning = shownReasoning(delta);
        if (reasoning) normalized.delta.reasoning = { index: 0, thinking: reasoning };
        if (delta.tool_calls) normalized.delta.tool_calls = delta.tool_calls;
        out.push(normalized);
      }
      const usage = toTokenCounts(chunk.usage);
      if (usage) out.push({ delta: {}, finishReason: null, usage });
      return out;
    },
  };
}

export function mapOpenAiError(status: number, body: string): ProviderErrorInfo {
  return classifyUpstreamError(status, body);
}

function toTokenCounts(usage: OpenAiUsage | null | undefined): TokenCounts | null {
  if (!usage || typeof usage.prompt_tokens !== 'number' || typeof usage.completion_tokens !== 'number') return null;
  const counts: TokenCounts = { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens };
  // Part of prompt_tokens, not beside it (unlike Anthropic's cache counts).
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number') counts.cacheReadTokens = cached;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') counts.reasoningTokens = reasoning;
  return counts;
}

export const openAiProvider: HttpProviderAdapter = {
  kind: 'http',
  buildRequest: buildOpenAiRequest,
  parseResponse: parseOpenAiResponse,
  createStreamTranslator: createOpenAiStreamTranslator,
  mapProviderError: mapOpenAiError,
};
