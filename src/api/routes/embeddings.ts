// POST /v1/embeddings: OpenAI-compatible embeddings of `mode: embedding` models. Vectors come back
// as JSON floats, or as base64 of little-endian float32 (what the official openai client asks
// for by default and decodes).
import { parseEmbeddingBody } from '../../gateway/embeddings.schemas.js';
import type { AppDeps } from '../../runtime-deps.js';
import { abortOnClientClose, sendJson, gatewayContext, type GatewayHandler } from '../gateway-call.js';

/** The handler; served with the chat route (gatewayHandlers). */
export function embeddings(deps: AppDeps): GatewayHandler {
  return async (call, res) => {
    const request = parseEmbeddingBody(call.body);
    const context = gatewayContext(call);
    const result = await deps.gateway.embed(request, context, abortOnClientClose(res));
    sendJson(res, 200, {
      object: 'list',
      data: result.vectors.map((vector, index) => ({
        object: 'embedding',
        index,
        embedding: request.encodingFormat === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
      })),
      model: result.model,
      usage: { prompt_tokens: result.inputTokens, total_tokens: result.inputTokens },
    });
  };
}
