// POST /v1/chat/completions: OpenAI-compatible, plain or streamed as server-sent events.
// Streams start (headers included) only once the first upstream content arrived, so failover
// stays invisible; a failure after that ends the stream with an error event and [DONE]; a client
// that hangs up aborts the upstream call.
import type { ServerResponse } from 'node:http';
import { Router, type RequestHandler } from 'express';
import { AppError } from '../../errors.js';
import { parseCacheControl, type CacheOutcome } from '../../gateway/cache.js';
import { parseChatCompletionBody } from '../../gateway/chat.schemas.js';
import { SSE_DONE, sseEventWriter, toCompletionBody } from '../../gateway/openai-format.js';
import type { AppDeps } from '../../runtime-deps.js';
import { abortOnClientClose, expressGatewayRoute, sendJson, gatewayContext, type GatewayHandler } from '../gateway-call.js';
import { embeddings } from './embeddings.js';

/**
 * The gateway's OpenAI-compatible routes on Express, mounted at the app's root ahead of everything
 * else with only the middleware they need (`before`: body parsing, authentication, rate limit).
 * Most calls never get here: the fast path (src/api/fast-path.ts) answers bearer-key calls with
 * a plain JSON body before Express sees them; these routes serve the rest (session cookies,
 * compressed or non-UTF-8 bodies, traces on) with the same handlers.
 */
export function gatewayRoutes(deps: AppDeps, before: RequestHandler[]): Router {
  const router = Router();
  const handlers = gatewayHandlers(deps);
  for (const [path, handler] of Object.entries(handlers)) router.post(path, ...before, expressGatewayRoute(handler));
  return router;
}

/** The handlers by path, shared by the fast path and the Express routes. */
export function gatewayHandlers(deps: AppDeps): Record<GatewayPath, GatewayHandler> {
  return { '/v1/chat/completions': chatCompletions(deps), '/v1/embeddings': embeddings(deps) };
}

export type GatewayPath = '/v1/chat/completions' | '/v1/embeddings';

function chatCompletions(deps: AppDeps): GatewayHandler {
  return async (call, res) => {
    const { request, includeUsage } = parseChatCompletionBody(call.body);
    const context = gatewayContext(call);
    // Cache-Control is read only here: a cached answer is the gateway's, not an HTTP cache's.
    const options = { cacheable: true, cacheControl: parseCacheControl(call.header('cache-control')) };
    const signal = abortOnClientClose(res);
    if (!request.stream) {
      const result = await deps.gateway.complete(request, context, signal, options);
      setCacheHeaders(res, result.cache);
      sendJson(res, 200, toCompletionBody(result, Math.floor(deps.clock.now().getTime() / 1000)));
      return;
    }
    const stream = await deps.gateway.stream(request, context, signal, options);
    setCacheHeaders(res, stream.cache);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const eventOf = sseEventWriter(stream, includeUsage);
    try {
      for await (const chunk of stream.chunks) {
        const event = eventOf(chunk);
        if (event === undefined) continue;
        if (!res.write(event)) await drained(res);
        if (signal.aborted) return;
      }
    } catch (error) {
      if (signal.aborted) return;
      if (!(error instanceof AppError)) call.log.error({ err: error }, 'stream failed');
      const failure = error instanceof AppError ? error : new AppError('internal_error', 'Internal server error');
      // OpenAI clients raise an APIError on a data event that carries `error`.
      res.write(`data: ${JSON.stringify(failure.toBody())}\n\n`);
    }
    res.end(SSE_DONE);
  };
}

/** X-Cache and Age (RFC 9111) when the request used the response cache. */
function setCacheHeaders(res: ServerResponse, cache: CacheOutcome | undefined): void {
  if (!cache) return;
  res.setHeader('x-cache', cache.status);
  res.setHeader('age', String(cache.ageSeconds));
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
