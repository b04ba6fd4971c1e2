// Calls upstream providers through their adapters (one per provider type): undici keep-alive
// pools per origin for HTTP adapters, an in-process call for local ones (the `dev` responder).
// Answers read whole (completions, embeddings) go through fetchWhole
// (whole-response.ts), streams through fetchStream (upstream-stream.ts). Every failure leaves as an
// UpstreamFailure that says whether the next target may be tried; the transforms themselves live
// in providers/<name>/.
import { Pool } from 'undici';
import type { BpeCounter } from './bpe-count.js';
import type { ProviderConfig, ProviderType } from './config.js';
import { anthropicProvider } from './providers/anthropic/index.js';
import { devProvider } from './providers/dev/index.js';
import { buildOpenAiEmbeddingRequest, parseOpenAiEmbeddingResponse } from './providers/embeddings.js';
import { openAiProvider } from './providers/openai/index.js';
import type { HttpProviderAdapter, NormalizedChunk, NormalizedCompletion, NormalizedEmbeddings, ProviderAdapter, StreamTranslator, UpstreamHttpRequest } from './providers/types.js';
import { UpstreamStreamError } from './providers/types.js';
import { SseParser } from './sse.js';
import type { CallSignal, ChatCompletionRequest } from './types.js';
import { DONE, fetchStream, type ChunkDecoder, type UpstreamChunks } from './upstream-stream.js';
import { fetchWhole, type WholeRequest, type WholeResponse } from './whole-response.js';

const ADAPTERS: Record<ProviderType, ProviderAdapter> = {
  openai: openAiProvider,
  anthropic: anthropicProvider,
  dev: devProvider,
};

/**
 * Upstream error bodies are read only this far (they are classified; only a client fault's own
 * message, bounded, is passed on).
 */
const ERROR_BODY_LIMIT = 16 * 1024;

export interface UpstreamFailureDetail {
  retryAfterMs?: number | undefined;
  /** The prompt did not fit the model's context window (contextWindowFallbacks may take it). */
  contextLengthExceeded?: boolean;
  /** The request's own fault (400, 413, 422): the client gets 400, no other target is tried. */
  clientFault?: boolean;
  /** With clientFault: the request field the upstream named. */
  param?: string | undefined;
}

export class UpstreamFailure extends Error {
  readonly retryAfterMs: number | undefined;
  readonly contextLengthExceeded: boolean;
  readonly clientFault: boolean;
  readonly param: string | undefined;

  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status: number | undefined,
    detail: UpstreamFailureDetail = {},
  ) {
    super(message);
    this.name = 'UpstreamFailure';
    this.retryAfterMs = detail.retryAfterMs;
    this.contextLengthExceeded = detail.contextLengthExceeded === true;
    this.clientFault = detail.clientFault === true;
    this.param = detail.param;
  }
}

/** The caller went away; not the target's fault. */
export class UpstreamAborted extends Error {
  constructor() {
    super('request aborted by the client');
    this.name = 'UpstreamAborted';
  }
}

export interface CallInput {
  provider: ProviderConfig;
  upstreamModel: string;
  request: ChatCompletionRequest;
  /** The output bound the budget reserved for; always sent upstream. */
  maxTokens: number;
  signal: CallSignal | undefined;
}

export interface EmbedInput {
  provider: ProviderConfig;
  upstreamModel: string;
  input: string[];
  dimensions?: number | undefined;
  user?: string | undefined;
  signal: CallSignal | undefined;
}

export class UpstreamTransport {
  private readonly pools = new Map<string, Pool>();

  /** `bpe` counts the usage a local provider reports. */
  constructor(private readonly bpe: BpeCounter) {}
  private readonly origins = new Map<string, { pool: Pool; path: string }>();

  /** Embeddings (OpenAI-compatible HTTP providers and local ones; the config admits no others). */
  async embed(input: EmbedInput): Promise<NormalizedEmbeddings> {
    const adapter = ADAPTERS[input.provider.type];
    if (adapter.kind === 'local') return adapter.embed(input.input, input.dimensions);
    const upstream = buildOpenAiEmbeddingRequest({ ...input, apiKey: input.provider.apiKey });
    const text = await this.postWhole(openAiProvider, input.provider, upstream, input.signal);
    try {
      return parseOpenAiEmbeddingResponse(JSON.parse(text), input.input.length);
    } catch (error) {
      throw this.failure(error, input.signal);
    }
  }

  async complete(input: CallInput): Promise<NormalizedCompletion> {
    const adapter = ADAPTERS[input.provider.type];
    if (adapter.kind === 'local') return adapter.complete(input.request, input.maxTokens, this.bpe);
    const text = await this.postWhole(adapter, input.provider, this.upstreamRequest(adapter, input, false), input.signal);
    try {
      return adapter.parseResponse(JSON.parse(text), input.request);
    } catch (error) {
      throw this.failure(error, input.signal);
    }
  }

  /**
   * The answer's normalized chunks, once the upstream answered 2xx: connect errors, timeouts and
   * error statuses reject here, before the client has seen a byte. Failures after that (an abort,
   * a stream cut short or reporting an error) reject the chunks' next().
   */
  async stream(input: CallInput): Promise<UpstreamChunks> {
    const adapter = ADAPTERS[input.provider.type];
    if (adapter.kind === 'local') return chunksOf(await adapter.streamChunks(input.request, input.maxTokens, this.bpe));
    const { provider, signal } = input;
    const upstream = this.upstreamRequest(adapter, input, true);
    const origin = this.origin(provider);
    const opened = await fetchStream(origin.pool, {
      ...this.poolRequest(origin.path, provider, upstream, signal),
      decode: sseDecoder(adapter.createStreamTranslator(input.request)),
      failure: (error) => this.failure(error, signal),
    });
    if (opened.chunks) return opened.chunks;
    throw statusFailure(adapter, opened.error);
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
    this.pools.clear();
    this.origins.clear();
  }

  private upstreamRequest(adapter: HttpProviderAdapter, input: CallInput, stream: boolean): UpstreamHttpRequest {
    const { provider } = input;
    return adapter.buildRequest({
      request: input.request,
      upstreamModel: input.upstreamModel,
      maxTokens: input.maxTokens,
      maxTokensParam: provider.maxTokensParam,
      apiKey: provider.apiKey,
      stream,
    });
  }

  /** The answer's text, read whole; an error status becomes an UpstreamFailure. */
  private async postWhole(adapter: HttpProviderAdapter, provider: ProviderConfig, upstream: UpstreamHttpRequest, signal: CallSignal | undefined): Promise<string> {
    const origin = this.origin(provider);
    let response;
    try {
      response = await fetchWhole(origin.pool, this.poolRequest(origin.path, provider, upstream, signal));
    } catch (error) {
      throw this.failure(error, signal);
    }
    if (response.statusCode >= 200 && response.statusCode < 300) return response.text;
    throw statusFailure(adapter, response);
  }

  /** The upstream request as the origin's pool sends it: the provider's timeouts, the error-body bound. */
  private poolRequest(basePath: string, provider: ProviderConfig, upstream: UpstreamHttpRequest, signal: CallSignal | undefined): WholeRequest {
    return {
      path: `${basePath}${upstream.path}`,
      headers: upstream.headers,
      body: upstream.body,
      signal,
      headersTimeout: provider.timeoutMs,
      bodyTimeout: provider.timeoutMs,
      errorBodyLimit: ERROR_BODY_LIMIT,
    };
  }

  private failure(error: unknown, signal: CallSignal | undefined): Error {
    if (signal?.aborted) return new UpstreamAborted();
    if (error instanceof UpstreamFailure) return error;
    if (error instanceof UpstreamStreamError) return new UpstreamFailure(error.message, true, undefined);
    if (error instanceof SyntaxError) return new UpstreamFailure('upstream sent a malformed response', true, undefined);
    const code = (error as { code?: string }).code ?? 'unknown';
    const timeout = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
    return new UpstreamFailure(timeout ? 'upstream timed out' : `upstream connection failed (${code})`, true, undefined);
  }

  /** The pool of the provider's origin and its base path (without trailing slashes), parsed once per base URL. */
  private origin(provider: ProviderConfig): { pool: Pool; path: string } {
    const baseUrl = provider.baseUrl ?? '';
    let origin = this.origins.get(baseUrl);
    if (!origin) {
      const base = new URL(baseUrl);
      origin = { pool: this.pool(base.origin), path: base.pathname.replace(/\/+$/, '') };
      this.origins.set(baseUrl, origin);
    }
    return origin;
  }

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connectTimeout: 10_000 });
      this.pools.set(origin, pool);
    }
    return pool;
  }
}

/** An error status, classified by the provider from (the start of) its body. */
function statusFailure(adapter: HttpProviderAdapter, response: WholeResponse): UpstreamFailure {
  const info = adapter.mapProviderError(response.statusCode, response.text);
  return new UpstreamFailure(info.message, info.retryable, response.statusCode, {
    retryAfterMs: parseRetryAfter(response.headers),
    contextLengthExceeded: info.contextLengthExceeded,
    clientFault: info.clientFault,
    param: info.param,
  });
}

/** Server-sent events in, the provider's translation of each out. */
function sseDecoder(translator: StreamTranslator): ChunkDecoder {
  const parser = new SseParser();
  return (bytes, push) => {
    for (const event of parser.push(bytes)) {
      for (const chunk of translator.translate(event)) push(chunk);
    }
  };
}

/** Chunks already in hand (a local adapter's) behind the same iterator as an upstream's. */
function chunksOf(chunks: NormalizedChunk[]): UpstreamChunks {
  let index = 0;
  return {
    next: () => Promise.resolve(index < chunks.length ? { done: false, value: chunks[index++]! } : DONE),
    return: () => {
      index = chunks.length;
      return Promise.resolve(DONE);
    },
  };
}

/** Retry-After in seconds or as an HTTP date, or OpenAI's retry-after-ms; undefined when absent or bad. */
export function parseRetryAfter(headers: Record<string, string | string[] | undefined>, nowMs = Date.now()): number | undefined {
  const ms = Number(first(headers['retry-after-ms']));
  if (Number.isFinite(ms) && ms >= 0 && first(headers['retry-after-ms']) !== undefined) return ms;
  const value = first(headers['retry-after']);
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
