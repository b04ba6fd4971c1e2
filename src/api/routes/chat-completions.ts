// POST /v1/chat/completions: OpenAI-compatible, plain or streamed as server-sent events.
// Streams start (headers included) only once the first upstream content arrived, so failover
// stays invisible; a failure after that ends the stream with an error event and [DONE]; a client
// that hangs up aborts the upstream call. The other wire formats (messages.ts, responses.ts)
// mount here too: one set of gateway routes, one fast path.
import { Router, type RequestHandler } from 'express';
import { parseChatCompletionBody } from '../../gateway/chat.schemas.js';
import { SSE_DONE, sseEventWriter, toCompletionBody } from '../../gateway/openai-format.js';
import type { AppDeps } from '../../runtime-deps.js';
import { answerGatewayCall } from '../gateway-answer.js';
import { expressGatewayRoute, type GatewayEndpoint, type GatewayHandler } from '../gateway-call.js';
import { errorHandler } from '../middleware/errors.js';
import { embeddings } from './embeddings.js';
import { messagesEndpoints } from './messages.js';
import { responsesEndpoints } from './responses.js';

/**
 * The gateway's routes on Express, mounted at the app's root ahead of everything else with only
 * the middleware they need (`before(endpoint)`: body parsing, authentication, rate limit). Most
 * calls never get here: the fast path (src/api/fast-path.ts) answers API-key calls with a plain
 * JSON body before Express sees them; these routes serve the rest (session cookies, compressed or
 * non-UTF-8 bodies, traces on) with the same handlers. A route with its own error shape
 * (Anthropic's) renders its errors itself.
 */
export function gatewayRoutes(deps: AppDeps, before: (endpoint: GatewayEndpoint) => RequestHandler[]): Router {
  const router = Router();
  for (const [path, endpoint] of Object.entries(gatewayHandlers(deps))) {
    const route = [...before(endpoint), expressGatewayRoute(endpoint.handle)];
    if (endpoint.renderError) router.post(path, ...route, errorHandler(deps.config.BODY_LIMIT_BYTES, endpoint.renderError));
    else router.post(path, ...route);
  }
  return router;
}

/** The endpoints by path, shared by the fast path and the Express routes. */
export function gatewayHandlers(deps: AppDeps): Record<GatewayPath, GatewayEndpoint> {
  return {
    '/v1/chat/completions': { handle: chatCompletions(deps), credential: 'bearer' },
    '/v1/embeddings': { handle: embeddings(deps), credential: 'bearer' },
    ...responsesEndpoints(deps),
    ...messagesEndpoints(deps),
  };
}

export type GatewayPath = '/v1/chat/completions' | '/v1/embeddings' | '/v1/responses' | '/v1/messages' | '/v1/messages/count_tokens';

function chatCompletions(deps: AppDeps): GatewayHandler {
  return async (call, res) => {
    const { request, includeUsage } = parseChatCompletionBody(call.body);
    await answerGatewayCall(deps.gateway, call, res, request, {
      body: (result) => toCompletionBody(result, Math.floor(deps.clock.now().getTime() / 1000)),
      events: (stream) => ({ event: sseEventWriter(stream, includeUsage), error: openAiStreamError, end: SSE_DONE }),
    });
  };
}

/** OpenAI clients raise an APIError on a data event that carries `error`. */
function openAiStreamError(failure: { toBody(): unknown }): string {
  return `data: ${JSON.stringify(failure.toBody())}\n\n`;
}
