// An upstream answer read whole (a completion, embeddings) through undici's dispatcher API: the
// bytes are collected as they arrive and handed over once, so a call costs one promise instead
// of `request()`'s response stream, body mixin and the promises and ticks between them (about a
// tenth of the gateway's CPU per request went to them). Behaves as `request()` followed by
// `body.json()` would: the same timeouts, an abort from the caller's signal, the body decoded as
// UTF-8 with a byte-order mark skipped; an error status's body is read only up to a limit.
import type { Dispatcher } from 'undici';
import { util } from 'undici';
import type { CallSignal } from './types.js';

export interface WholeResponse {
  statusCode: number;
  /** Lower-case names; parsed only for error statuses (Retry-After), empty otherwise. */
  headers: Record<string, string | string[]>;
  /** UTF-8, a leading byte-order mark skipped; for an error status at most `errorBodyLimit` bytes. */
  text: string;
}

export interface WholeRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  headersTimeout: number;
  bodyTimeout: number;
  signal: CallSignal | undefined;
  /** Bytes of an error status's body kept (it is classified, never forwarded); the call ends there. */
  errorBodyLimit: number;
}

/** POSTs `request` and resolves with the whole answer; rejects as `request()` would (its error codes). */
export function fetchWhole(dispatcher: Dispatcher, request: WholeRequest): Promise<WholeResponse> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(
      { method: 'POST', path: request.path, headers: request.headers, body: request.body, headersTimeout: request.headersTimeout, bodyTimeout: request.bodyTimeout },
      new WholeResponseHandler(request.signal, request.errorBodyLimit, resolve, reject),
    );
  });
}

/** What undici's request() rejects with on an abort (its code and name). */
export class RequestAbortedError extends Error {
  readonly code = 'UND_ERR_ABORTED';
  constructor() {
    super('Request aborted');
    this.name = 'AbortError';
  }
}

/** undici's handler protocol (onConnect, onHeaders, onData, onComplete, onError), the one its clients call natively. */
export class WholeResponseHandler implements Dispatcher.DispatchHandler {
  private abort: ((reason?: Error) => void) | undefined;
  private statusCode = 0;
  private rawHeaders: Buffer[] | undefined;
  private readonly chunks: Buffer[] = [];
  private length = 0;
  private done = false;
  private readonly onAbort: (() => void) | undefined;

  constructor(
    private readonly signal: CallSignal | undefined,
    private readonly errorBodyLimit: number,
    private readonly resolve: (response: WholeResponse) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    if (signal) {
      this.onAbort = () => this.abort?.(new RequestAbortedError());
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.signal?.aborted) abort(new RequestAbortedError());
    else this.abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // 1xx (informational) answers come before the real one.
    if (statusCode < 200) return true;
    this.statusCode = statusCode;
    if (statusCode >= 300) this.rawHeaders = rawHeaders;
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.done) return true;
    this.chunks.push(chunk);
    this.length += chunk.length;
    if (this.statusCode >= 300 && this.length >= this.errorBodyLimit) {
      // Enough to classify the error: answer now and end the call (as destroying the body would).
      this.finish();
      this.abort?.(new RequestAbortedError());
    }
    return true;
  }

  onComplete(): void {
    this.finish();
  }

  onError(error: Error): void {
    // An error status stands without its body (it only refines the message).
    if (this.statusCode >= 300) return this.finish(false);
    this.stopListening();
    if (this.done) return;
    this.done = true;
    this.reject(error);
  }

  private finish(withBody = true): void {
    this.stopListening();
    if (this.done) return;
    this.done = true;
    const error = this.statusCode >= 300;
    this.resolve({
      statusCode: this.statusCode,
      headers: this.rawHeaders ? (util.parseHeaders(this.rawHeaders) as Record<string, string | string[]>) : {},
      text: withBody ? decode(this.chunks, this.length, error ? this.errorBodyLimit : Infinity) : '',
    });
  }

  private stopListening(): void {
    if (this.onAbort) this.signal!.removeEventListener('abort', this.onAbort);
  }
}

function decode(chunks: Buffer[], length: number, limit: number): string {
  if (length === 0) return '';
  const buffer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
  const start = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  return buffer.toString('utf8', start, Math.min(buffer.length, start + limit));
}
