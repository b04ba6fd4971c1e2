// One gateway call as its handlers see it, whichever way it arrived: through the raw fast path
// (src/api/fast-path.ts: bearer key, plain JSON) or through Express (sessions, compressed bodies,
// traces on). The handlers write to the node:http response directly, so both paths answer alike.
import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { PendingAdmission } from '../billing/budget.js';
import type { AppError } from '../errors.js';
import { parseCacheControl, type CacheOutcome } from '../gateway/cache.js';
import type { CallSignal, ChatContext } from '../gateway/types.js';
import type { Caller } from '../identity/caller.js';
import type { Logger } from '../logger.js';
import { callerOf } from './middleware/auth.js';

export interface GatewayCall {
  /** The parsed JSON body (undefined when the request had none). */
  body: unknown;
  caller: Caller;
  requestId: string;
  log: Logger;
  /** The call's rate-limit counters, counted before any work on it (runGatewayHandler). */
  admission: PendingAdmission | undefined;
  /** A request header (lower-case name). */
  header(name: string): string | undefined;
  /** performance.now() when the request arrived: the gateway's own time is measured from here. */
  startedAt: number;
}

export type GatewayHandler = (call: GatewayCall, res: ServerResponse) => Promise<void>;

/** How a wire format renders an error: Anthropic's route has its own shape and statuses. */
export type ErrorRenderer = (error: AppError) => { status: number; body: unknown };

/** A gateway route: its handler, where its API key travels, how its errors look. */
export interface GatewayEndpoint {
  handle: GatewayHandler;
  /** `bearer`: Authorization only; `x-api-key`: Anthropic's header too. */
  credential: 'bearer' | 'x-api-key';
  /** Undefined: the OpenAI shape (errors.ts). */
  renderError?: ErrorRenderer | undefined;
}

/**
 * Runs a handler once the call is admitted: its rate limits (key, keys above it, organization)
 * are counted before any work on its bytes (schema parsing, references, DLP, the response cache,
 * token counts), so a caller over its limit gets its 429 having cost next to nothing. The count
 * comes from local rate blocks where the budget ledger leases them (no round trip on the hot path).
 */
export async function runGatewayHandler(handler: GatewayHandler, call: GatewayCall, res: ServerResponse): Promise<void> {
  const { admission } = call;
  if (admission && !admission.countLocally()) await admission.countAlone();
  await handler(call, res);
}

/** The handler as an Express route (mounted after body parsing, authentication and rate limit). */
export function expressGatewayRoute(handler: GatewayHandler): RequestHandler {
  return async (req, res) => {
    const call: GatewayCall = {
      body: req.body,
      caller: callerOf(req),
      requestId: req.requestId,
      log: req.log,
      admission: req.admission,
      header: (name) => req.get(name),
      startedAt: req.startedAt,
    };
    await runGatewayHandler(handler, call, res);
  };
}

/** Who is calling, for the gateway's use cases. */
export function gatewayContext(call: GatewayCall): ChatContext {
  const { caller } = call;
  return {
    organizationId: caller.organizationId,
    userId: caller.userId,
    apiKeyId: caller.apiKeyId ?? undefined,
    source: 'gateway',
    requestId: call.requestId,
    keyLimits: caller.keyLimits,
  };
}

/** A body already serialized, for an answer whose JSON is also used elsewhere (a stored response). */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A JSON answer, as Express's res.json writes it (no ETag: the app disables them). */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = body instanceof JsonText ? body.text : JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}

/** Cache-Control is read only here: a cached answer is the gateway's, not an HTTP cache's. */
export function gatewayCacheOptions(cacheControl: string | undefined) {
  return { cacheable: true, cacheControl: parseCacheControl(cacheControl) };
}

/** X-Cache and Age (RFC 9111) when the request used the response cache. */
export function setCacheHeaders(res: ServerResponse, cache: CacheOutcome | undefined): void {
  if (!cache) return;
  res.setHeader('x-cache', cache.status);
  res.setHeader('age', String(cache.ageSeconds));
}

/**
 * X-Gateway-Cost (USD) and X-Gateway-Overhead-Ms (the request's time so far less the time spent
 * waiting on upstreams) of an answer about to be sent; a stream's cost comes in its final usage.
 */
export function setGatewayHeaders(res: ServerResponse, call: GatewayCall, answer: { upstreamMs: number; cost?: number }): void {
  if (answer.cost !== undefined) res.setHeader('x-gateway-cost', answer.cost.toFixed(8));
  const overhead = Math.max(0, performance.now() - call.startedAt - answer.upstreamMs);
  res.setHeader('x-gateway-overhead-ms', overhead.toFixed(3));
}

/** Ends the upstream call when the client goes away before the answer is complete. */
export function abortOnClientClose(res: ServerResponse): CallSignal {
  return new ClientClose(res);
}

/** Aborted when the response closes before it finished: the client went away. */
class ClientClose implements CallSignal {
  aborted = false;
  private listeners: Array<() => void> = [];

  constructor(res: ServerResponse) {
    res.once('close', () => {
      if (!res.writableFinished) this.abort();
    });
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.listeners.indexOf(listener);
    if (index !== -1) this.listeners.splice(index, 1);
  }

  private abort(): void {
    this.aborted = true;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}
