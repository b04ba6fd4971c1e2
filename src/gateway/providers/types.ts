// What every provider is: data (its config) plus pure transforms between our OpenAI-shaped
// request/response and the upstream's wire format. Transport (undici pools, failover) lives
// outside the providers so the transforms stay pure and unit-testable.
import type { BpeCounter } from '../bpe-count.js';
import type { ChatCompletionRequest, CitedText, ReasoningBlock, ToolCall } from '../types.js';

export interface TokenCounts {
  /** Every prompt token, cached ones included (OpenAI's prompt_tokens; Anthropic's input_tokens plus its cache tokens). */
  inputTokens: number;
  outputTokens: number;
  /** Of inputTokens, read from the upstream's prompt cache, when the upstream says. */
  cacheReadTokens?: number;
  /** Of inputTokens, written to the upstream's prompt cache (Anthropic's cache_creation_input_tokens), when it says. */
  cacheWriteTokens?: number;
  /** Of cacheWriteTokens, written with the 1-hour TTL (Anthropic's cache_creation.ephemeral_1h_input_tokens); the rest are 5-minute writes. */
  cacheWrite1hTokens?: number;
  /** Of outputTokens, spent reasoning (OpenAI's completion_tokens_details.reasoning_tokens), when the upstream says. */
  reasoningTokens?: number;
}

/** The upstream's answer, normalized. `usage` is null when the upstream reported none. */
export interface NormalizedCompletion {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string;
  usage: TokenCounts | null;
  /** The stop sequence that ended the answer, when the upstream names it. */
  stopSequence?: string | undefined;
  /** The answer's extended thinking blocks, in order, when the upstream returned some. */
  reasoning?: ReasoningBlock[] | undefined;
  /** The answer's text block by block, when a block cites a document (their texts joined are `content`). */
  citedText?: CitedText[] | undefined;
}

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

/**
 * A piece of a thinking block, numbered among the answer's thinking blocks (0, 1, ...): its
 * text, its signature, or a redacted block's data. A new index starts a new block.
 */
export interface ReasoningDelta {
  index: number;
  thinking?: string;
  signature?: string;
  redacted?: string;
}

export interface ChunkDelta {
  role?: 'assistant';
  content?: string;
  tool_calls?: ToolCallDelta[];
  reasoning?: ReasoningDelta;
  /**
   * Anthropic's citations: a new text block of the answer starts (the text after it is that block's),
   * or a citation of the current one (a `citations_delta`'s). Only a Messages client sees them.
   */
  citations?: { newBlock?: true; citation?: unknown };
}

/** One streamed piece, normalized: a delta, a finish reason, or the final usage. */
export interface NormalizedChunk {
  delta: ChunkDelta;
  finishReason: string | null;
  usage?: TokenCounts;
  /**
   * The prompt's counts, when the upstream reports them before the answer (Anthropic's
   * message_start): what the stream is billed for its prompt should it end before the usage.
   */
  promptUsage?: TokenCounts;
  /** On the final usage chunk the gateway adds: the answer's cost in USD. */
  cost?: number;
  /** With a finish reason: the stop sequence that ended the answer, when the upstream names it. */
  stopSequence?: string;
}

export interface SseEvent {
  event?: string;
  data: string;
}

/** Stateful per stream (Anthropic spreads tool calls and usage over several events). */
export interface StreamTranslator {
  translate(event: SseEvent): NormalizedChunk[];
}

export interface UpstreamHttpRequest {
  /** Appended to the provider's base URL path. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** How an upstream error is classified: retryable ones move to the next target. */
export interface ProviderErrorInfo {
  retryable: boolean;
  /**
   * Safe for clients: never echoes upstream bodies that could hold prompt text or keys, except
   * the upstream's own (bounded) message on a client fault, which describes the client's request.
   */
  message: string;
  /** The prompt (plus the output bound) is over the model's context window: a bigger model may take it. */
  contextLengthExceeded?: boolean;
  /** The request's own fault (400, 413, 422): the client gets 400 bad_request and no other target is tried. */
  clientFault?: boolean;
  /** With clientFault: the request field the upstream named, when it named one. */
  param?: string;
}

export interface BuildRequestInput {
  request: ChatCompletionRequest;
  upstreamModel: string;
  /** The output bound; always sent, since the budget reserved exactly this much. */
  maxTokens: number;
  /** OpenAI-compatible upstreams: the field that carries it (reasoning models take only max_completion_tokens). */
  maxTokensParam?: 'max_tokens' | 'max_completion_tokens';
  apiKey: string | undefined;
  stream: boolean;
}

export interface NormalizedEmbeddings {
  vectors: number[][];
  /** Null when the upstream reported no usage. */
  inputTokens: number | null;
}

/**
 * A provider reached over HTTP: pure transforms to and from its wire format; the transport holds
 * the connection pools, timeouts and failure classification.
 */
export interface HttpProviderAdapter {
  kind: 'http';
  buildRequest(input: BuildRequestInput): UpstreamHttpRequest;
  /** The request is what was sent: an adapter may need it to read the answer (Anthropic's structured output). */
  parseResponse(body: unknown, request: ChatCompletionRequest): NormalizedCompletion;
  createStreamTranslator(request: ChatCompletionRequest): StreamTranslator;
  mapProviderError(status: number, body: string): ProviderErrorInfo;
}

/** A provider that answers in process (the built-in `dev` responder): no wire format, no pool. */
export interface LocalProviderAdapter {
  kind: 'local';
  /** `bpe` counts the usage it reports. */
  complete(request: ChatCompletionRequest, maxTokens: number, bpe: BpeCounter): Promise<NormalizedCompletion>;
  /** The whole answer's chunks, in the order a stream would deliver them. */
  streamChunks(request: ChatCompletionRequest, maxTokens: number, bpe: BpeCounter): Promise<NormalizedChunk[]>;
  embed(input: string[], dimensions: number | undefined): NormalizedEmbeddings;
}

/** What the transport dispatches on: one adapter per provider type (transport.ts's table). */
export type ProviderAdapter = HttpProviderAdapter | LocalProviderAdapter;

/** Thrown by a stream translator when the upstream reports an error inside the stream. */
export class UpstreamStreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamStreamError';
  }
}
