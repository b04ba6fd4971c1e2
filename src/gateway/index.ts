// The gateway core: routing, DLP, provider call, failover, usage. Served in-process to the chat
// completions route and wrapped as activities for runs.
import type { BudgetGuard } from '../billing/budget.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Orm } from '../db/orm.js';
import type { Logger } from '../logger.js';
import type { SharedState } from '../redis.js';
import { BpeCounter } from './bpe-count.js';
import { CircuitBreakers } from './breaker.js';
import { createResponseCache } from './cache.js';
import { countRequestTokens } from './count-tokens.js';
import { ChatService, type ChatCompletionStream, type ChatOptions } from './chat.js';
import { loadGatewayConfig, type GatewayConfig } from './config.js';
import { DlpPolicies, inspectRequest, type InspectedRequest } from './dlp/index.js';
import { EmbeddingService, type EmbeddingResult } from './embeddings.js';
import type { EmbeddingRequest } from './embeddings.schemas.js';
import { Failover } from './failover.js';
import { RequestRecorder } from './recorder.js';
import { createRouter } from './router.js';
import { UpstreamTransport } from './transport.js';
import type { CallSignal, ChatCompletionRequest, ChatCompletionResult, ChatContext, ChatGateway } from './types.js';

export type { ChatCompletionStream, ChatOptions } from './chat.js';
export type { EmbeddingResult } from './embeddings.js';

/** A model or tier as GET /v1/models lists it. */
export interface ModelEntry {
  id: string;
  mode: 'chat' | 'embedding';
  ownedBy: string;
  /** Unix seconds: when this gateway loaded its config. */
  created: number;
}

export interface GatewayDeps {
  config: Config;
  logger: Logger;
  orm: Orm;
  /** Redis (or the in-process fallback): response cache, shared circuit breakers. */
  shared: SharedState;
  budget: BudgetGuard;
  clock: Clock;
  /** A parsed gateway config instead of GATEWAY_CONFIG (tests, benchmarks). */
  gatewayConfig?: GatewayConfig;
}

export interface Gateway extends ChatGateway {
  /** Answers a request; the gateway route passes options to use the response cache. */
  complete(request: ChatCompletionRequest, context: ChatContext, signal?: CallSignal, options?: ChatOptions): Promise<ChatCompletionResult>;
  /** Streams an answer; resolves when the first upstream content arrived (failover happens before). */
  stream(request: ChatCompletionRequest, context: ChatContext, signal?: CallSignal, options?: ChatOptions): Promise<ChatCompletionStream>;
  /** The prompt's input tokens, estimated locally (POST /v1/messages/count_tokens). */
  countTokens(request: ChatCompletionRequest, context: ChatContext): Promise<number>;
  /** Per-organization DLP policies (GET/PUT /dlp/policy). */
  readonly dlpPolicies: DlpPolicies;
  /** Embeddings of `mode: embedding` models (POST /v1/embeddings). */
  embed(request: EmbeddingRequest, context: ChatContext, signal?: CallSignal): Promise<EmbeddingResult>;
  /** Model ids and tiers clients may ask for. */
  models(): string[];
  /** Whether a target (`provider/upstreamModel`) is taking requests: its circuit is closed. */
  targetAvailable(key: string): boolean;
  /** The same, with mode and owner (GET /v1/models). */
  modelEntries(): ModelEntry[];
  /** Flushes buffered audit and usage records (graceful shutdown). */
  close(): Promise<void>;
}

export async function createGateway(deps: GatewayDeps): Promise<Gateway> {
  const gatewayConfig =
    deps.gatewayConfig ??
    loadGatewayConfig({
      file: deps.config.GATEWAY_CONFIG,
      env: deps.config.environment,
      openaiApiKey: deps.config.OPENAI_API_KEY,
      anthropicApiKey: deps.config.ANTHROPIC_API_KEY,
    });
  const router = createRouter(gatewayConfig);
  // The tokenizer's worker thread, for usage an upstream did not report (and the dev provider's).
  const bpe = new BpeCounter();
  const transport = new UpstreamTransport(bpe);
  const recorder = new RequestRecorder(deps.orm, deps.logger);
  const breakers = new CircuitBreakers(gatewayConfig.breaker, deps.clock, deps.logger);
  await breakers.share(deps.shared);
  const dlpPolicies = new DlpPolicies(deps.orm, deps.clock);
  const services = {
    config: gatewayConfig,
    router,
    failover: new Failover(breakers, deps.budget, gatewayConfig.breaker),
    transport,
    dlp: { inspect: (organizationId: string, request: InspectedRequest) => inspectRequest(dlpPolicies, organizationId, request) },
    budget: deps.budget,
    recorder,
    clock: deps.clock,
    cache: createResponseCache(deps.shared, deps.clock, deps.logger),
    logger: deps.logger,
    bpe,
  };
  const chat = new ChatService(services);
  const embeddings = new EmbeddingService(services);
  const created = Math.floor(deps.clock.now().getTime() / 1000);
  const entries = router.entries().map((entry) => ({ ...entry, created }));
  deps.logger.info(
    { providers: gatewayConfig.providers.map((p) => `${p.id}:${p.type}`), models: router.names(), source: deps.config.GATEWAY_CONFIG ?? 'built-in' },
    'gateway ready',
  );
  return {
    complete: (request, context, signal, options) => chat.complete(request, context, signal, options),
    stream: (request, context, signal, options) => chat.stream(request, context, signal, options),
    embed: (request, context, signal) => embeddings.embed(request, context, signal),
    countTokens: (request, context) => countRequestTokens(router, bpe, request, context),
    dlpPolicies,
    models: () => router.names(),
    modelEntries: () => entries,
    targetAvailable: (key) => breakers.isAvailable(key),
    async close() {
      await chat.drain();
      await recorder.close();
      await transport.close();
      await bpe.close();
    },
  };
}
