// POST /v1/embeddings: OpenAI-compatible embeddings of `mode: embedding` models. Vectors come back
// as JSON floats, or as base64 of little-endian float32 (what the official openai client asks
// for by default and decodes).
import type { RequestHandler } from 'express';
import { parseEmbeddingBody } from '../../gateway/embeddings.schemas.js';
import type { ChatContext } from '../../gateway/types.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf } from '../middleware/auth.js';
import { countingRateLimitOnFailure } from '../middleware/rate-limit.js';

/** The handler; mounted with the chat route on the gateway's lean path (gatewayRoutes). */
export function embeddings(deps: AppDeps): RequestHandler {
  return countingRateLimitOnFailure(async (req, res) => {
    const request = parseEmbeddingBody(req.body);
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
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const result = await deps.gateway.embed(request, context, abort.signal);
    res.json({
      object: 'list',
      data: result.vectors.map((vector, index) => ({
        object: 'embedding',
        index,
        embedding: request.encodingFormat === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
      })),
      model: result.model,
      usage: { prompt_tokens: result.inputTokens, total_tokens: result.inputTokens },
    });
  });
}
