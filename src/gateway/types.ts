// The gateway's contract with its callers: the chat completions route (plain and streaming) and
// the automation/webhook activities (plain). Request fields follow OpenAI's chat format.
import type { KeyLimits } from '../identity/caller.js';

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

/**
 * A prompt-cache breakpoint: Anthropic's `cache_control`, which chat completions clients put on
 * content parts, messages and tools by the convention OpenRouter and LiteLLM accept. The prefix of
 * the prompt up to and including what carries it is cached for 5 minutes (the default) or an hour.
 * Only Anthropic upstreams receive it (an OpenAI-style one caches by itself: prompt_cache_key).
 */
export interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  /** In a request: a breakpoint on this call (a Messages `tool_use` block's). */
  cache_control?: CacheControl;
}

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
  /** A breakpoint after this tool (Anthropic's `cache_control` on a tool; LiteLLM's beside `function`). */
  cache_control?: CacheControl;
}

/** Anthropic's citations switch on a document: the answer's text then cites the document's passages. */
export interface CitationsRequest {
  enabled?: boolean;
}

/**
 * A document as the Messages API sends it (a PDF, or plain text), with its title, context and
 * citations switch. Anthropic upstreams receive the block as it came; OpenAI-style ones a PDF as a
 * file part after its context, a text document as text (title, context, text).
 */
export interface DocumentPart {
  type: 'document';
  source: { type: 'base64'; media_type: 'application/pdf'; data: string } | { type: 'text'; media_type: 'text/plain'; data: string };
  title?: string;
  context?: string;
  citations?: CitationsRequest;
  cache_control?: CacheControl;
}

/**
 * OpenAI's content parts: text; images by URL (https or data:, the image itself not scanned); and
 * files (a PDF as a data: URL, from the Messages API's `document` blocks), whose name is text and
 * whose bytes are not scanned.
 */
export type ContentPart =
  | { type: 'text'; text: string; cache_control?: CacheControl }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' }; cache_control?: CacheControl }
  | { type: 'file'; file: { file_data: string; filename?: string }; cache_control?: CacheControl }
  | DocumentPart;

/** OpenAI's `reasoning_effort` values (`none` and `xhigh` on the newest models). */
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/**
 * How much the model may reason before it answers: an OpenAI-style effort (chat completions'
 * `reasoning_effort`, the Responses API's `reasoning.effort`) or an Anthropic thinking budget in
 * tokens (the Messages API's `thinking`). Each provider adapter turns it into its own parameter.
 */
export interface ReasoningRequest {
  effort?: ReasoningEffort;
  budgetTokens?: number;
}

/**
 * An answer's extended thinking as Anthropic returns it: the text with the upstream's signature
 * over it, or an encrypted (redacted) block. A client sends them back unchanged with the turn
 * that made them; an Anthropic upstream requires them back in a tool loop, and checks them.
 */
export type ReasoningBlock = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

export interface ChatMessage {
  role: ChatRole;
  /** Text, or an array of content parts. */
  content: string | ContentPart[] | null;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  /**
   * A tool result reporting that the tool failed (the Messages API's `is_error`): an Anthropic
   * upstream receives the flag, an OpenAI-style one the result's text after `Error: `.
   */
  isError?: true;
  /** An assistant turn's extended thinking, as answered (the Messages API's thinking blocks); only Anthropic upstreams receive it. */
  reasoning?: ReasoningBlock[];
  /**
   * A breakpoint at the end of this message (LiteLLM's message-level `cache_control`; on a tool
   * message, the Messages API's `cache_control` on its `tool_result` block).
   */
  cache_control?: CacheControl;
}

/**
 * The spec's default temperature (OpenAI scale, 0..2). Adapters send it explicitly when the
 * caller omits the field, so a provider's own default (Anthropic's is 1.0 on its 0..1 scale,
 * i.e. 2.0 on ours) never applies; not for a request with `upstreamDefaults` (the Messages API's),
 * whose omitted fields stay omitted. See docs/DESIGN-NOTES.md.
 */
export const DEFAULT_TEMPERATURE = 1;

export interface ChatCompletionRequest {
  /** A model id or a tier name (standard, premium, enterprise). */
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  /** The output bound (the route folds max_completion_tokens, OpenAI's newer name, into it). */
  max_tokens?: number;
  /** OpenAI scale 0..2; omitted means DEFAULT_TEMPERATURE, which each adapter sends explicitly (unless `upstreamDefaults`). */
  temperature?: number;
  /**
   * What the client omitted stays omitted upstream, so the upstream's own defaults apply (the
   * Messages API's requests: Anthropic's clients expect Anthropic's defaults, not the spec's).
   */
  upstreamDefaults?: boolean;
  top_p?: number;
  tools?: ToolDefinition[];
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };
  /** Sequences that end the answer (OpenAI `stop`, Anthropic `stop_sequences`); from the Messages and Responses routes. */
  stop?: string[];
  /** Anthropic's top_k; only Anthropic upstreams receive it. */
  top_k?: number;
  /** Structured output (`response_format`, the Responses route's `text.format`): OpenAI-compatible upstreams receive it as is, Anthropic ones a forced tool. */
  response_format?: ResponseFormat;
  /** Each tool call may run beside others (OpenAI `parallel_tool_calls`, Anthropic `disable_parallel_tool_use` inverted). */
  parallel_tool_calls?: boolean;
  /** Reasoning asked for (see ReasoningRequest); absent: the upstream's default. */
  reasoning?: ReasoningRequest;
  /** Anthropic's `metadata` (an opaque id of the end user); only Anthropic upstreams receive it. */
  metadata?: { user_id?: string | null };
  /** Anthropic's `service_tier`; only Anthropic upstreams receive it (OpenAI's tiers are other values). */
  service_tier?: 'auto' | 'standard_only';
  /** OpenAI's prompt-cache routing key (chat completions and Responses); only OpenAI-style upstreams receive it. */
  prompt_cache_key?: string;
  /** OpenAI's prompt-cache retention; only OpenAI-style upstreams receive it. */
  prompt_cache_retention?: 'in_memory' | '24h';
}

/** OpenAI's chat completions `response_format`. */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; schema?: Record<string, unknown>; strict?: boolean | null; description?: string } };

/** Who is asking and on whose account the usage is recorded. */
export interface ChatContext {
  organizationId: string;
  userId: string;
  apiKeyId?: string | undefined;
  source: 'gateway' | 'automation' | 'webhook' | 'assistant';
  /** Run or webhook execution this call belongs to. */
  runId?: string | undefined;
  requestId?: string | undefined;
  /** The calling API key's own limits (model allow-list, monthly budget); absent for sessions and runs. */
  keyLimits?: KeyLimits | undefined;
}

/**
 * A text block of an answer with the passages it cites (Anthropic's `citations` on a text block,
 * when a document of the request enabled them), as the upstream gave them.
 */
export interface CitedText {
  text: string;
  citations?: unknown[];
}

export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
  /** True when the upstream reported no usage and a tokenizer counted it. */
  estimated: boolean;
}

export interface ChatCompletionResult {
  id: string;
  /** The model id that answered (configured model id, not the tier). */
  model: string;
  provider: string;
  upstreamModel: string;
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string;
  usage: ChatUsage;
  /** USD, from the configured per-model prices. */
  cost: number;
  attempts: number;
  /** Milliseconds spent waiting on upstream calls (every attempt): the rest of the request's time is the gateway's own. */
  upstreamMs: number;
  /** The upstream's own stop reason when it said more than finishReason can (Anthropic's `stop_sequence` and the sequence). */
  stopSequence?: string | undefined;
  /** The answer's extended thinking, when the upstream returned some. */
  reasoning?: ReasoningBlock[] | undefined;
  /** The answer's text block by block with the passages each cites, when it cites a document (Anthropic's citations). */
  citedText?: CitedText[] | undefined;
  /** Set when the request used the response cache (X-Cache, Age). */
  cache?: { status: 'HIT' | 'MISS'; ageSeconds: number } | undefined;
}

/** The in-process gateway core, wrapped as activities for runs. */
export interface ChatGateway {
  complete(request: ChatCompletionRequest, context: ChatContext, signal?: CallSignal): Promise<ChatCompletionResult>;
}

/**
 * What the gateway needs of an abort signal: whether the caller went away, and to hear when. An
 * AbortSignal is one (runs pass their activity's); the HTTP routes pass a lighter one on the
 * response's close event (api/gateway-call.ts), since making an AbortController costs about
 * 10 µs on Node 20.
 */
export interface CallSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** The text of a message's content: a string as is, the text parts of an array joined by newlines. */
export function contentText(content: ChatMessage['content']): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
