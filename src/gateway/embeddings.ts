// The embeddings use case (POST /v1/embeddings): route to a `mode: embedding` model -> DLP over
// every input -> failover over its targets (the budget holds the inputs' worst-case cost, the
// request's rate limits counted with the first hold) -> usage and cost -> one audit record and
// one usage record, whatever the outcome, exactly as chat completions do.
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import { countUsage, metrics } from '../metrics.js';
import { holdOptionsOf, resolveForCaller } from './access.js';
import type { DlpInspector } from './chat.js';
import type { GatewayConfig } from './config.js';
import type { EmbeddingRequest } from './embeddings.schemas.js';
import type { GatewayOutcome } from './entities.js';
import { ClientAbortedError, type AttemptLog, type Failover } from './failover.js';
import { costOf } from './pricing.js';
import type { RequestRecorder } from './recorder.js';
import type { Router } from './router.js';
import type { BpeCounter } from './bpe-count.js';
import type { UpstreamTransport } from './transport.js';
import { contentText, type CallSignal, type ChatContext } from './types.js';
import type { BudgetGuard } from '../billing/budget.js';

export interface EmbeddingResult {
  /** The model id that answered (not the tier). */
  model: string;
  vectors: number[][];
  inputTokens: number;
  cost: number;
}

export interface EmbeddingServiceDeps {
  config: GatewayConfig;
  router: Router;
  failover: Failover;
  transport: UpstreamTransport;
  dlp: DlpInspector;
  budget: BudgetGuard;
  recorder: RequestRecorder;
  clock: Clock;
  /** Counts input tokens an upstream did not report. */
  bpe: BpeCounter;
}

interface Trail extends AttemptLog {
  startedAt: number;
  findings: Record<string, number>;
  promptText: string | null;
}

export class EmbeddingService {
  constructor(private readonly deps: EmbeddingServiceDeps) {}

  async embed(request: EmbeddingRequest, context: ChatContext, signal?: CallSignal): Promise<EmbeddingResult> {
    const trail: Trail = { startedAt: performance.now(), attempts: 0, target: undefined, findings: {}, promptText: null };
    try {
      const targets = resolveForCaller(this.deps.router, context, request.model, 'embedding');
      const input = await this.inspect(context, request, trail);
      // A token covers at least one UTF-8 byte: the byte length bounds the billed input.
      const promptTokens = input.reduce((total, text) => total + Buffer.byteLength(text, 'utf8'), 0);
      const answered = await this.deps.failover.run(
        { organizationId: context.organizationId, targets, requestedMaxTokens: undefined, noOutput: true, promptTokens, signal, log: trail, holdOptions: holdOptionsOf(context) },
        (target) => this.deps.transport.embed({ provider: target.provider, upstreamModel: target.upstreamModel, input, dimensions: request.dimensions, user: request.user, signal }),
      );
      const { target, value } = answered;
      const estimated = value.inputTokens === null;
      const inputTokens = value.inputTokens ?? (await this.deps.bpe.count(input));
      const cost = costOf(target, { inputTokens, outputTokens: 0 });
      // Settled before the answer: an embedding call has no stream to outlive it.
      await this.deps.budget.settle(answered.reservation, cost).catch(() => {});
      this.record(context, request, trail, 'success', 200, null, { inputTokens, estimated, cost });
      return { model: target.model.id, vectors: value.vectors, inputTokens, cost };
    } catch (error) {
      const appError = error instanceof AppError ? error : undefined;
      const outcome: GatewayOutcome =
        appError?.code === 'dlp_blocked' ? 'blocked'
          : error instanceof ClientAbortedError ? 'aborted'
          : appError && appError.status < 500 ? 'rejected'
          : 'failure';
      const status = outcome === 'aborted' ? 499 : (appError?.status ?? 500);
      this.record(context, request, trail, outcome, status, appError?.code ?? 'internal_error', { inputTokens: 0, estimated: false, cost: 0 });
      throw error;
    }
  }

  private async inspect(context: ChatContext, request: EmbeddingRequest, trail: Trail): Promise<string[]> {
    const verdict = await this.deps.dlp.inspect(context.organizationId, {
      messages: request.input.map((content) => ({ role: 'user', content })),
      identifiers: request.user === undefined ? [] : [request.user],
    });
    trail.findings = verdict.findings;
    if (verdict.blocked.length > 0) {
      for (const detector of verdict.blocked) metrics.dlpBlocks.inc({ detector });
      throw new AppError('dlp_blocked', `Request blocked by the data-loss-prevention policy: found ${verdict.blocked.join(', ')}`, {
        details: { detectors: verdict.blocked },
      });
    }
    const texts = verdict.messages.map((message) => contentText(message.content));
    if (this.deps.config.auditPromptText) trail.promptText = JSON.stringify(texts);
    return texts;
  }

  private record(
    context: ChatContext,
    request: EmbeddingRequest,
    trail: Trail,
    outcome: GatewayOutcome,
    status: number,
    errorCode: string | null,
    usage: { inputTokens: number; estimated: boolean; cost: number },
  ): void {
    const target = trail.target;
    if (target && usage.inputTokens > 0) countUsage(target.model.id, { inputTokens: usage.inputTokens, outputTokens: 0, cost: usage.cost });
    this.deps.recorder.record({
      organizationId: context.organizationId,
      userId: context.userId,
      apiKeyId: context.apiKeyId ?? null,
      source: context.source,
      runId: context.runId ?? null,
      requestId: context.requestId ?? null,
      modelRequested: request.model,
      model: target?.model.id ?? null,
      provider: target?.provider.id ?? null,
      upstreamModel: target?.upstreamModel ?? null,
      stream: false,
      attempts: trail.attempts,
      outcome,
      status,
      errorCode,
      latencyMs: Math.round(performance.now() - trail.startedAt),
      inputTokens: usage.inputTokens,
      outputTokens: 0,
      estimated: usage.estimated,
      cost: usage.cost,
      dlpFindings: trail.findings,
      promptText: trail.promptText,
      cached: false,
      createdAt: this.deps.clock.now(),
    });
  }
}
