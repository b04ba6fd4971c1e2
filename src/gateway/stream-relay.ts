// The chunks of an answer being streamed, as the route reads them: the head already pulled (until
// the first content), then the upstream's rest, then one final chunk with the usage; the outcome
// (success, failure, aborted) settled exactly once, whether the stream ends, fails (the upstream,
// or our own tallying), or its reader stops early. A hand-written iterator rather than an async generator: a generator's yield costs
// an await and several promises per chunk, a measurable share of a stream's CPU.
import type { NormalizedChunk, TokenCounts } from './providers/types.js';
import { DONE, type UpstreamChunks } from './upstream-stream.js';

export interface RelayOutcomes {
  /** Takes a chunk into the tallies; returns whether the reader gets it (upstream usage chunks stay behind). */
  take(chunk: NormalizedChunk): boolean;
  /** Settles the outcome (budget, audit, cache) and returns the usage for the final chunk. Called at most once. */
  finish(outcome: 'success' | 'failure' | 'aborted'): Promise<TokenCounts & { cost?: number }>;
  /** How a failure of the upstream (or of finishing) is recorded, and what the reader gets thrown instead. */
  failure(error: unknown): { outcome: 'failure' | 'aborted'; thrown: unknown };
  /** Stops keeping the budget reservation alive. */
  stopRenewal(): void;
}

export class RelayedChunks implements AsyncIterableIterator<NormalizedChunk> {
  private headIndex = 0;
  private settled = false;
  /** The final usage chunk went out: the next read closes. */
  private finalSent = false;
  private closed = false;

  constructor(
    private readonly head: NormalizedChunk[],
    private readonly rest: UpstreamChunks,
    private readonly outcomes: RelayOutcomes,
  ) {}

  next(): Promise<IteratorResult<NormalizedChunk>> {
    if (this.closed) return Promise.resolve(DONE);
    while (this.headIndex < this.head.length) {
      const chunk = this.head[this.headIndex++]!;
      try {
        if (this.outcomes.take(chunk)) return Promise.resolve({ done: false, value: chunk });
      } catch (error) {
        return this.onError(error);
      }
    }
    if (this.finalSent) return this.close().then(() => DONE);
    return this.rest.next().then(this.onNext, this.onError);
  }

  /** The reader stopped early (the client went away): ends the upstream call and records the stream as aborted. */
  async return(): Promise<IteratorResult<NormalizedChunk>> {
    await this.close();
    return DONE;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private readonly onNext = (next: IteratorResult<NormalizedChunk>): IteratorResult<NormalizedChunk> | Promise<IteratorResult<NormalizedChunk>> => {
    if (next.done) return this.finishWith('success').then(this.onFinished, this.onError);
    let forward: boolean;
    try {
      forward = this.outcomes.take(next.value);
    } catch (error) {
      // An error of our own while tallying: the stream fails, settled like an upstream's failure.
      return this.onError(error);
    }
    if (forward) return { done: false, value: next.value };
    return this.rest.next().then(this.onNext, this.onError);
  };

  private readonly onFinished = ({ cost, ...usage }: TokenCounts & { cost?: number }): IteratorResult<NormalizedChunk> => {
    this.finalSent = true;
    return { done: false, value: cost === undefined ? { delta: {}, finishReason: null, usage } : { delta: {}, finishReason: null, usage, cost } };
  };

  private readonly onError = async (error: unknown): Promise<never> => {
    const { outcome, thrown } = this.outcomes.failure(error);
    if (!this.settled) await this.finishWith(outcome);
    await this.close();
    throw thrown;
  };

  private finishWith(outcome: 'success' | 'failure' | 'aborted'): Promise<TokenCounts & { cost?: number }> {
    this.settled = true;
    this.outcomes.stopRenewal();
    return this.outcomes.finish(outcome);
  }

  /** Ends the upstream call and, when nothing was settled yet, records an abort. */
  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.outcomes.stopRenewal();
    await this.rest.return();
    if (!this.settled) await this.finishWith('aborted');
  }
}
