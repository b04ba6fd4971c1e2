// An upstream answer streamed as server-sent events, through undici's dispatcher API: the handler
// parses each piece of the body as it arrives, translates it into normalized chunks and queues
// them; the relay pulls them from that queue. Replaces `request()` and a body stream (a Readable,
// its async iterator, an AbortController and an async generator per stream, and promise hops per
// piece). Behaves as that pair did: the same timeouts, an abort from the caller's signal, the
// socket paused while the consumer is behind, an error status's body read only up to a limit,
// and every failure (abort, timeout, a stream that ends early or reports an error) raised to the
// consumer after the chunks that arrived before it.
import type { Dispatcher } from 'undici';
import type { NormalizedChunk } from './providers/types.js';
import { UpstreamStreamError } from './providers/types.js';
import { RequestAbortedError, WholeResponseHandler, type WholeRequest, type WholeResponse } from './whole-response.js';

/** Bytes of the body in (split anywhere), each chunk they complete handed to `push`; throws when the stream reports a failure. */
export type ChunkDecoder = (bytes: Buffer, push: (chunk: NormalizedChunk) => void) => void;

/** The chunks of a 2xx stream, in order; `return()` ends the upstream call early. */
export interface UpstreamChunks extends AsyncIterator<NormalizedChunk> {
  next(): Promise<IteratorResult<NormalizedChunk>>;
  return(): Promise<IteratorResult<NormalizedChunk>>;
}

/** A 2xx answer as its chunks, or an error status read whole (up to the limit). */
export type OpenedStream = { chunks: UpstreamChunks; error?: undefined } | { chunks?: undefined; error: WholeResponse };

export interface StreamRequest extends WholeRequest {
  decode: ChunkDecoder;
  /** Turns what the call failed with into the error the consumer sees. */
  failure: (error: unknown) => Error;
}

/** Chunks queued past this many pause the socket until the consumer catches up. */
const HIGH_WATER = 64;

/** POSTs `request`; resolves once the status is known, rejects (through `failure`) when no status came. */
export function fetchStream(dispatcher: Dispatcher, request: StreamRequest): Promise<OpenedStream> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(
      { method: 'POST', path: request.path, headers: request.headers, body: request.body, headersTimeout: request.headersTimeout, bodyTimeout: request.bodyTimeout },
      new StreamHandler(request, resolve, reject),
    );
  });
}

/** The end of a chunk iterator (shared: it is never changed). */
export const DONE: IteratorResult<NormalizedChunk> = { done: true, value: undefined };

/**
 * undici's handler protocol for the call and the consumer's iterator over its chunks in one
 * object. An error status hands the call over to a WholeResponseHandler that reads its body.
 */
class StreamHandler implements Dispatcher.DispatchHandler, UpstreamChunks {
  private abort: ((reason?: Error) => void) | undefined;
  private resume: (() => void) | undefined;
  private paused = false;
  /** Set once the status is known: 2xx (chunks follow) or an error status (its body follows). */
  private opened = false;
  private errorBody: WholeResponseHandler | undefined;
  private readonly queue: NormalizedChunk[] = [];
  private queueHead = 0;
  /** A finish reason arrived: the body may end after it. */
  private finished = false;
  /** The body ended (complete), failed, or the consumer stopped: no more chunks get queued. */
  private ended = false;
  private failed: Error | undefined;
  private waiting: { resolve: (result: IteratorResult<NormalizedChunk>) => void; reject: (error: Error) => void } | undefined;
  private readonly onAbort: (() => void) | undefined;

  constructor(
    private readonly request: StreamRequest,
    private readonly resolveOpen: (opened: OpenedStream) => void,
    private readonly rejectOpen: (error: unknown) => void,
  ) {
    const { signal } = request;
    if (signal) {
      this.onAbort = () => this.abort?.(new RequestAbortedError());
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  // undici's side

  onConnect(abort: (reason?: Error) => void): void {
    if (this.request.signal?.aborted) abort(new RequestAbortedError());
    else this.abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    // 1xx (informational) answers come before the real one.
    if (statusCode < 200) return true;
    this.opened = true;
    if (statusCode >= 300) {
      this.stopListening();
      this.errorBody = new WholeResponseHandler(
        this.request.signal,
        this.request.errorBodyLimit,
        (error) => this.resolveOpen({ error }),
        (error) => this.rejectOpen(this.request.failure(error)),
      );
      this.errorBody.onConnect(this.abort!);
      return this.errorBody.onHeaders(statusCode, rawHeaders);
    }
    this.resume = resume;
    this.resolveOpen({ chunks: this });
    return true;
  }

  onData(bytes: Buffer): boolean {
    if (this.errorBody) return this.errorBody.onData(bytes);
    if (this.ended) return true;
    try {
      this.request.decode(bytes, this.push);
    } catch (error) {
      // The chunks decoded before the failure still reach the consumer first.
      this.fail(error);
      this.abort?.(new RequestAbortedError());
      return true;
    }
    this.paused = this.queue.length - this.queueHead > HIGH_WATER;
    return !this.paused;
  }

  onComplete(): void {
    if (this.errorBody) return this.errorBody.onComplete();
    // A body that ends without a finish reason is cut short (or was never a stream at all).
    if (!this.finished) return this.fail(new UpstreamStreamError('upstream stream ended before the answer was complete'));
    this.stopListening();
    this.ended = true;
    this.settleWaiting();
  }

  onError(error: Error): void {
    if (this.errorBody) return this.errorBody.onError(error);
    if (!this.opened) {
      this.stopListening();
      this.ended = true;
      return this.rejectOpen(this.request.failure(error));
    }
    this.fail(error);
  }

  // The consumer's side

  next(): Promise<IteratorResult<NormalizedChunk>> {
    if (this.queueHead < this.queue.length) return Promise.resolve({ done: false, value: this.take() });
    if (this.failed) return Promise.reject(this.failed);
    if (this.ended) return Promise.resolve(DONE);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  /** The consumer stopped early (the client went away): ends the upstream call. */
  return(): Promise<IteratorResult<NormalizedChunk>> {
    if (!this.ended) {
      this.ended = true;
      this.stopListening();
      this.abort?.(new RequestAbortedError());
    }
    this.queue.length = 0;
    this.queueHead = 0;
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private readonly push = (chunk: NormalizedChunk): void => {
    if (chunk.finishReason !== null) this.finished = true;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting.resolve({ done: false, value: chunk });
    } else {
      this.queue.push(chunk);
    }
  };

  private take(): NormalizedChunk {
    const chunk = this.queue[this.queueHead]!;
    this.queue[this.queueHead++] = undefined!;
    if (this.queueHead === this.queue.length) {
      this.queue.length = 0;
      this.queueHead = 0;
      if (this.paused) {
        this.paused = false;
        this.resume?.();
      }
    }
    return chunk;
  }

  private fail(error: unknown): void {
    this.stopListening();
    if (this.ended) return;
    this.ended = true;
    this.failed = this.request.failure(error);
    this.settleWaiting();
  }

  /** Wakes a consumer waiting on an empty queue once nothing more will come. */
  private settleWaiting(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = undefined;
    if (this.failed) waiting.reject(this.failed);
    else waiting.resolve(DONE);
  }

  private stopListening(): void {
    if (this.onAbort) this.request.signal!.removeEventListener('abort', this.onAbort);
  }
}
