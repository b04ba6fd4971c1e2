// POST /v1/chat/completions: OpenAI-compatible, plain or streamed as server-sent events.
// Streams start (headers included) only once the first upstream content arrived, so failover
// stays invisible; a failure after that ends the stream with an error event and [DONE]; a client
// that hangs up aborts the upstream call.
import { Router, type RequestHandler, type Response } from 'express';
import { AppError } from '../../errors.js';
import { parseCacheControl, type CacheOutcome } from '../../gateway/cache.js';
import { parseChatCompletionBody } from '../../gateway/chat.schemas.js';
import { SSE_DONE, toCompletionBody, toSseEvents } from '../../gateway/openai-format.js';
import type { ChatContext } from '../../gateway/types.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf } from '../middleware/auth.js';
import { countingRateLimitOnFailure } from '../middleware/rate-limit.js';
import { embeddings } from './embeddings.js';

/**
 * The gateway's OpenAI-compatible routes, mounted at the app's root ahead of everything else with
 * only the middleware they need (`before`: body parsing, authentication, rate limit): a request
 * for them walks none of the other routers.
 */
export function gatewayRoutes(deps: AppDeps, before: RequestHandler[]): Router {
  const router = Router();
  router.post('/v1/chat/completions', ...before, chatCompletions(deps));
  router.post('/v1/embeddings', ...before, embeddings(deps));
  return router;
}

function chatCompletions(deps: AppDeps): RequestHandler {
  return countingRateLimitOnFailure(async (req, res) => {
    const { request, includeUsage } = parseChatCompletionBody(req.body);
    const caller = callerOf(req);
    const context: ChatContext = {
      organizationId: caller.organizationId,
      userId: caller.userId,
      apiKeyId: caller.apiKeyId ?? undefined,
      source: 'gateway',
      requestId: req.requestId,
      keyLimits: caller.keyLimits,
      admission: req.admission,
    };
    // Cache-Control is read only here: a cached answer is the gateway's, not an HTTP cache's.
    const options = { cacheable: true, cacheControl: parseCacheControl(req.get('cache-control')) };
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    if (!request.stream) {
      const result = await deps.gateway.complete(request, context, abort.signal, options);
      setCacheHeaders(res, result.cache);
      res.json(toCompletionBody(result, Math.floor(deps.clock.now().getTime() / 1000)));
      return;
    }
    const stream = await deps.gateway.stream(request, context, abort.signal, options);
    setCacheHeaders(res, stream.cache);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    try {
      for await (const event of toSseEvents(stream, includeUsage)) {
        if (!res.write(event)) await drained(res);
        if (abort.signal.aborted) return;
      }
    } catch (error) {
      if (abort.signal.aborted) return;
      if (!(error instanceof AppError)) req.log.error({ err: error }, 'stream failed');
      const failure = error instanceof AppError ? error : new AppError('internal_error', 'Internal server error');
      // OpenAI clients raise an APIError on a data event that carries `error`.
      res.write(`data: ${JSON.stringify(failure.toBody())}\n\n`);
    }
    res.end(SSE_DONE);
  });
}

/** X-Cache and Age (RFC 9111) when the request used the response cache. */
function setCacheHeaders(res: Response, cache: CacheOutcome | undefined): void {
  if (!cache) return;
  res.setHeader('x-cache', cache.status);
  res.setHeader('age', String(cache.ageSeconds));
}

function drained(res: Response): Promise<void> {
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
