// The chat use case, shared by the route (plain and streaming) and the run activities:
// route -> DLP -> failover over the targets (budget reserved per call) -> usage and cost ->
// one audit record, whatever the outcome. An answer's settlement, records and cache write run
// just after it is handed back (after-answer.ts), off the client's wait.
import { randomUUID } from 'node:crypto';
import type { BudgetGuard, BudgetReservation } from '../billing/budget.js';
import { AnswerCache, StreamCapture, replayChunks, resultOf, type Caching, type ChatOptions } from './cache-answers.js';
import type { CachedAnswer, CacheOutcome, ResponseCache } from './cache.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { countUsage, metrics } from '../metrics.js';
import { holdOptionsOf, isModelAllowed, resolveForCaller } from './access.js';
import { AfterAnswer } from './after-answer.js';
import type { GatewayConfig } from './config.js';
import type { DlpVerdict, InspectedRequest } from './dlp/index.js';
import type { GatewayOutcome } from './entities.js';
import { ClientAbortedError, abortedError, providerError, type AttemptLog, type Failover, type FailoverInput } from './failover.js';
import { promptCachedFor, promptCacheWriteFor } from './prompt-cache.js';
import type { NormalizedChunk, TokenCounts } from './providers/types.js';
import type { GatewayRequestEntry, RequestRecorder } from './recorder.js';
import type { RouteTarget, Router } from './router.js';
import { endRequestSpan, endUpstreamSpan, startRequestSpan, startUpstreamSpan, type Span } from './spans.js';
import { OutputTally, settledUsage } from './answer-usage.js';
import type { BpeCounter } from './bpe-count.js';
import { countCompletionTokens, countPromptTokens, promptTokenBound, type PromptInput } from './tokens.js';
import { UpstreamAborted, UpstreamFailure, type UpstreamTransport } from './transport.js';
import { RelayedChunks } from './stream-relay.js';
import type { UpstreamChunks } from './upstream-stream.js';
import type { CallSignal, ChatCompletionRequest, ChatCompletionResult, ChatContext } from './types.js';

/** DLP as the chat use case needs it: scan, mask, and say which blocking types were found. */
export interface DlpInspector {
  inspect(organizationId: string, request: InspectedRequest): Promise<DlpVerdict>;
}

/** An answer being streamed: the first content already arrived, so the target is settled. */
export interface ChatCompletionStream {
  id: string;
  created: number;
  /** The model id that answers. */
  model: string;
  /** Deltas, then one final chunk with usage (from the upstream, or estimated). */
  chunks: AsyncIterable<NormalizedChunk>;
  /** Set when the request used the response cache. */
  cache?: CacheOutcome | undefined;
  /** Milliseconds spent waiting on upstream calls until the first content (every attempt). */
  upstreamMs: number;
  /** The prompt's counts, when the upstream reported them before the answer (Anthropic's message_start). */
  promptUsage?: TokenCounts | undefined;
}

/** Who answered, when the audit record cannot take it from the last target tried (a cache hit). */
interface AnsweredBy {
  model: string;
  provider: string;
  upstreamModel: string;
}

export type { ChatOptions } from './cache-answers.js';

export interface ChatServiceDeps {
  config: GatewayConfig;
  router: Router;
  failover: Failover;
  transport: UpstreamTransport;
  dlp: DlpInspector;
  budget: BudgetGuard;
  recorder: RequestRecorder;
  clock: Clock;
  cache: ResponseCache;
  logger: Logger;
  /** Counts usage an upstream did not report. */
  bpe: BpeCounter;
}

/** What one request has gathered for its audit record so far. */
interface Trail extends AttemptLog {
  startedAt: number;
  findings: Record<string, number>;
  promptText: string | null;
  /** Trace spans of the request and of the upstream call being streamed (traces on only). */
  span: Span | undefined;
  upstreamSpan?: Span | undefined;
  /** Milliseconds waited on upstream calls so far (until the answer, or a stream's first content). */
  upstreamMs: number;
}

export class ChatService {
  /** Settlements still in flight: they run after the answer is sent, and `drain` awaits them. */
  private readonly settling = new Set<Promise<void>>();
  private readonly answers: AnswerCache;
  private readonly afterAnswer: AfterAnswer;

  constructor(private readonly deps: ChatServiceDeps) {
    this.answers = new AnswerCache(deps.cache, deps.clock);
    this.afterAnswer = new AfterAnswer((error) => deps.logger.error({ err: error }, 'gateway bookkeeping after an answer failed'));
  }

  /** Resolves once every settlement started so far has finished (graceful shutdown). */
  async drain(): Promise<void> {
    this.afterAnswer.flush();
    await Promise.all([...this.settling]);
  }

  async complete(request: ChatCompletionRequest, context: ChatContext, signal?: CallSignal, options: ChatOptions = {}): Promise<ChatCompletionResult> {
    const trail = this.startTrail(request);
    try {
      const targets = resolveForCaller(this.deps.router, context, request.model, 'chat');
      const upstreamRequest = { ...request, ...(await this.inspect(context, request, trail)), stream: false };
      const caching = this.answers.caching(context.organizationId, targets, upstreamRequest, options);
      const hit = caching && (await this.answers.lookup(caching));
      if (hit) {
        this.afterAnswer.defer(() => this.recordHit(context, request, trail, hit.answer, false));
        return { ...resultOf(hit.answer, newCompletionId()), cache: hit.outcome };
      }
      const promptTokens = promptTokenBound(upstreamRequest);
      const answered = await this.deps.failover.run(this.failoverInput(context, targets, upstreamRequest, promptTokens, trail, signal), (target, maxTokens) =>
        this.traced(trail, target, false, () =>
          timed(trail, this.deps.transport.complete({ provider: target.provider, upstreamModel: target.upstreamModel, request: promptCachedFor(upstreamRequest, target), maxTokens, signal }))),
      );
      const { target, value: completion } = answered;
      const { estimated, cost, ...usage } = await settledUsage(answered, promptTokens, async () => completion.usage ? { ...completion.usage, estimated: false } : {
        inputTokens: await countPromptTokens(this.deps.bpe, upstreamRequest),
        outputTokens: await countCompletionTokens(this.deps.bpe, completion.content, completion.toolCalls),
        estimated: true,
      });
      this.afterAnswer.defer(() => {
        this.settle(answered.reservation, cost);
        this.record(context, request, trail, 'success', 200, null, { ...usage, estimated, cost }, false);
        if (caching) {
          this.answers.store(caching, {
            ...answeredBy(target), content: completion.content, toolCalls: completion.toolCalls, finishReason: completion.finishReason,
            ...(completion.reasoning ? { reasoning: completion.reasoning } : {}), ...usage, storedAt: this.deps.clock.now().getTime(),
          });
        }
      });
      return {
        cache: caching ? MISS : undefined,
        id: newCompletionId(),
        model: target.model.id,
        provider: target.provider.id,
        upstreamModel: target.upstreamModel,
        content: completion.content,
        toolCalls: completion.toolCalls,
        finishReason: completion.finishReason,
        stopSequence: completion.stopSequence,
        reasoning: completion.reasoning,
        citedText: completion.citedText,
        usage: { ...usage, estimated },
        cost,
        attempts: trail.attempts,
        upstreamMs: trail.upstreamMs,
      };
    } catch (error) {
      throw this.recordFailure(context, request, trail, error, false);
    }
  }

  /** Resolves once the first upstream content arrived; failover happens before that. */
  async stream(request: ChatCompletionRequest, context: ChatContext, signal?: CallSignal, options: ChatOptions = {}): Promise<ChatCompletionStream> {
    const trail = this.startTrail(request);
    try {
      const targets = resolveForCaller(this.deps.router, context, request.model, 'chat');
      const upstreamRequest = { ...request, ...(await this.inspect(context, request, trail)), stream: true };
      const caching = this.answers.caching(context.organizationId, targets, upstreamRequest, options);
      const hit = caching && (await this.answers.lookup(caching));
      if (hit) {
        this.recordHit(context, request, trail, hit.answer, true);
        return { id: newCompletionId(), created: this.nowSeconds(), model: hit.answer.model, chunks: replayChunks(hit.answer), cache: hit.outcome, upstreamMs: 0 };
      }
      const promptTokens = promptTokenBound(upstreamRequest);
      const answered = await this.deps.failover.run(this.failoverInput(context, targets, upstreamRequest, promptTokens, trail, signal), (target, maxTokens) =>
        this.traced(trail, target, true, () =>
          timed(trail, openStream(this.deps.transport.stream({ provider: target.provider, upstreamModel: target.upstreamModel, request: promptCachedFor(upstreamRequest, target), maxTokens, signal })))),
      );
      const { head, rest } = answered.value;
      return {
        id: newCompletionId(),
        created: this.nowSeconds(),
        model: answered.target.model.id,
        chunks: this.relay(head, rest, { context, request, trail, answered, prompt: upstreamRequest, promptTokens, caching }),
        cache: caching ? MISS : undefined,
        upstreamMs: trail.upstreamMs,
        promptUsage: head.find((chunk) => chunk.promptUsage)?.promptUsage,
      };
    } catch (error) {
      throw this.recordFailure(context, request, trail, error, true);
    }
  }

  /** Forwards chunks as they come (the reservation kept alive meanwhile), then settles budget and records the outcome. */
  private relay(
    head: NormalizedChunk[],
    rest: UpstreamChunks,
    state: {
      context: ChatContext;
      request: ChatCompletionRequest;
      trail: Trail;
      answered: Awaited<ReturnType<Failover['run']>>;
      prompt: PromptInput;
      /** The prompt's bound, as the hold counted it. */
      promptTokens: number;
      caching: Caching | undefined;
    },
  ): AsyncIterableIterator<NormalizedChunk> {
    const { context, request, trail, answered, caching } = state;
    const output = new OutputTally();
    const capture = caching ? new StreamCapture() : undefined;
    // A stream may outlast the reservation TTL (the upstream timeout only bounds idle gaps).
    const stopRenewal = this.deps.budget.keepAlive(answered.reservation);
    return new RelayedChunks(head, rest, {
      take: (chunk) => {
        capture?.take(chunk);
        return output.take(chunk);
      },
      finish: async (outcome) => {
        const { cost, ...usage } = await settledUsage(answered, state.promptTokens, () => output.usage(this.deps.bpe, state.prompt));
        this.afterAnswer.defer(() => {
          this.settle(answered.reservation, cost);
          const status = outcome === 'success' ? 200 : outcome === 'aborted' ? 499 : 502;
          const errorCode = outcome === 'failure' ? 'provider_error' : outcome === 'aborted' ? 'client_closed' : null;
          this.record(context, request, trail, outcome, status, errorCode, { ...usage, cost }, true);
          // Only a whole answer is worth replaying.
          if (capture && caching && outcome === 'success') {
            this.answers.store(caching, capture.answer({ ...answeredBy(answered.target), inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, storedAt: this.deps.clock.now().getTime() }));
          }
        });
        const { estimated: _estimated, ...tokens } = usage;
        return { ...tokens, cost };
      },
      failure: (error) => {
        if (error instanceof UpstreamAborted) return { outcome: 'aborted', thrown: abortedError() };
        if (error instanceof UpstreamFailure) {
          metrics.upstreamErrors.inc({ provider: answered.target.provider.id, kind: 'interrupted' });
          return { outcome: 'failure', thrown: providerError(error) };
        }
        return { outcome: 'failure', thrown: error };
      },
      stopRenewal,
    });
  }

  /**
   * Settles a reservation without holding up the answer: the hold already covers the worst case,
   * so until the settlement lands the organization's budget is only ever over-counted. The
   * command is issued now, so later budget commands of this instance queue behind it.
   */
  private settle(reservation: BudgetReservation, cost: number): void {
    // The ledger logs a failed settlement; the hold lapses at its expiry.
    const done = () => void this.settling.delete(settling);
    const settling: Promise<void> = this.deps.budget.settle(reservation, cost).then(done, done);
    this.settling.add(settling);
  }

  /** A hit is audited and metered like an answer, flagged cached and costing nothing. */
  private recordHit(context: ChatContext, request: ChatCompletionRequest, trail: Trail, answer: CachedAnswer, stream: boolean): void {
    const usage = { inputTokens: answer.inputTokens, outputTokens: answer.outputTokens, estimated: false, cost: 0 };
    this.record(context, request, trail, 'success', 200, null, usage, stream, answer);
  }

  /**
   * The failover's input: the hold prices the prompt at the cache-write price when the request, as
   * it goes to one of its targets, carries breakpoints (prompt-cache.ts).
   */
  private failoverInput(context: ChatContext, targets: RouteTarget[], request: ChatCompletionRequest, promptTokens: number, trail: Trail, signal: CallSignal | undefined): FailoverInput {
    return {
      organizationId: context.organizationId, targets, requestedMaxTokens: request.max_tokens, promptTokens, signal, log: trail,
      holdOptions: holdOptionsOf(context), contextFallbacks: this.contextFallbacksFor(context), cacheWrite: promptCacheWriteFor(request, targets),
    };
  }

  /** A model's contextWindowFallbacks, those the caller's key may use. */
  private contextFallbacksFor(context: ChatContext): (model: RouteTarget['model']) => RouteTarget[] {
    return (model) => this.deps.router.contextFallbacks(model).filter((target) => isModelAllowed(context, target.model.id));
  }

  private nowSeconds(): number {
    return Math.floor(this.deps.clock.now().getTime() / 1000);
  }

  /** The request's messages, tools and structured-output format as they may leave (masked), or 403 dlp_blocked. */
  private async inspect(context: ChatContext, request: ChatCompletionRequest, trail: Trail): Promise<Pick<ChatCompletionRequest, 'messages' | 'tools' | 'response_format'>> {
    const inspected = await this.deps.dlp.inspect(context.organizationId, request);
    trail.findings = inspected.findings;
    if (inspected.blocked.length > 0) {
      for (const detector of inspected.blocked) metrics.dlpBlocks.inc({ detector });
      // Names the detector types only: echoing the match would leak what DLP exists to protect.
      throw new AppError('dlp_blocked', `Request blocked by the data-loss-prevention policy: found ${inspected.blocked.join(', ')}`, {
        details: { detectors: inspected.blocked },
      });
    }
    if (this.deps.config.auditPromptText) trail.promptText = JSON.stringify(inspected.messages);
    return { messages: inspected.messages, ...(inspected.tools ? { tools: inspected.tools } : {}), ...(inspected.response_format ? { response_format: inspected.response_format } : {}) };
  }

  private startTrail(request: ChatCompletionRequest): Trail {
    return { startedAt: performance.now(), attempts: 0, target: undefined, findings: {}, promptText: null, span: startRequestSpan(request), upstreamMs: 0 };
  }

  /** Runs one upstream call inside its child span; a stream's span stays open until the stream ends. */
  private traced<T>(trail: Trail, target: RouteTarget, stream: boolean, call: () => Promise<T>): Promise<T> {
    const span = startUpstreamSpan(trail.span, target);
    // Traces off: the call itself, without a wrapping promise.
    return span ? this.tracedCall(trail, span, stream, call) : call();
  }

  private async tracedCall<T>(trail: Trail, span: Span, stream: boolean, call: () => Promise<T>): Promise<T> {
    try {
      const value = await call();
      if (stream) trail.upstreamSpan = span;
      else endUpstreamSpan(span);
      return value;
    } catch (error) {
      endUpstreamSpan(span, error);
      throw error;
    }
  }

  private recordFailure(context: ChatContext, request: ChatCompletionRequest, trail: Trail, error: unknown, stream: boolean): unknown {
    const appError = error instanceof AppError ? error : undefined;
    const outcome: GatewayOutcome =
      appError?.code === 'dlp_blocked' ? 'blocked'
        : error instanceof ClientAbortedError ? 'aborted'
        : appError && appError.status < 500 ? 'rejected'
        : 'failure';
    const status = outcome === 'aborted' ? 499 : (appError?.status ?? 500);
    const zero = { inputTokens: 0, outputTokens: 0, estimated: false, cost: 0 };
    this.record(context, request, trail, outcome, status, appError?.code ?? 'internal_error', zero, stream);
    return error;
  }

  private record(
    context: ChatContext,
    request: ChatCompletionRequest,
    trail: Trail,
    outcome: GatewayOutcome,
    status: number,
    errorCode: string | null,
    usage: TokenCounts & { estimated: boolean; cost: number },
    stream: boolean,
    cachedBy?: AnsweredBy,
  ): void {
    const target = trail.target;
    const by = cachedBy ?? (target && answeredBy(target));
    if (target && usage.inputTokens + usage.outputTokens > 0) countUsage(target.model.id, usage);
    const entry: GatewayRequestEntry = {
      organizationId: context.organizationId,
      userId: context.userId,
      apiKeyId: context.apiKeyId ?? null,
      source: context.source,
      runId: context.runId ?? null,
      requestId: context.requestId ?? null,
      modelRequested: request.model,
      model: by?.model ?? null,
      provider: by?.provider ?? null,
      upstreamModel: by?.upstreamModel ?? null,
      stream,
      attempts: trail.attempts,
      outcome,
      status,
      errorCode,
      latencyMs: Math.round(performance.now() - trail.startedAt),
      ...usage,
      dlpFindings: trail.findings,
      promptText: trail.promptText,
      cached: cachedBy !== undefined,
      createdAt: this.deps.clock.now(),
    };
    this.deps.recorder.record(entry);
    if (trail.span) {
      endUpstreamSpan(trail.upstreamSpan, outcome === 'success' ? undefined : new Error(outcome));
      endRequestSpan(trail.span, { ...entry, providerType: cachedBy ? null : (target?.provider.type ?? null) });
    }
  }
}

/** Adds the time an upstream call takes (until it settles) to the request's upstream time. */
function timed<T>(trail: Trail, call: Promise<T>): Promise<T> {
  const started = performance.now();
  const add = () => {
    trail.upstreamMs += performance.now() - started;
  };
  return call.finally(add);
}

/** Pulls until the first chunk that carries content (not just the role or an empty string), so failover stays possible until then. */
async function openStream(opening: Promise<UpstreamChunks>): Promise<{ head: NormalizedChunk[]; rest: UpstreamChunks }> {
  const stream = await opening;
  const head: NormalizedChunk[] = [];
  try {
    for (;;) {
      const next = await stream.next();
      if (next.done) return { head, rest: stream };
      head.push(next.value);
      const { delta } = next.value;
      if (delta.content || delta.tool_calls !== undefined || delta.reasoning !== undefined || next.value.finishReason !== null || next.value.usage) {
        return { head, rest: stream };
      }
    }
  } catch (error) {
    await stream.return();
    throw error;
  }
}

const MISS: CacheOutcome = { status: 'MISS', ageSeconds: 0 };

function answeredBy(target: RouteTarget): AnsweredBy {
  return { model: target.model.id, provider: target.provider.id, upstreamModel: target.upstreamModel };
}

function newCompletionId(): string {
  return `chatcmpl-${randomUUID().replaceAll('-', '')}`;
}
