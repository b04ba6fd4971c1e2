// POST /v1/responses (the OpenAI Responses API) over the gateway core, plain or streamed as its
// typed events; GET/DELETE /v1/responses/{id} and GET /v1/responses/{id}/input_items for stored
// responses. A response is stored (unless `store: false`) before the client gets it, so its id
// and item ids resolve at once in the next call (`previous_response_id`, `item_reference`: what the AI SDK sends in tool loops).
import { Router } from 'express';
import { ResponseIdSequence, type ResponsesStore } from '../../gateway/responses.service.js';
import { fromResponsesRequest, ResponsesStreamWriter, toResponseObject, type ResponseHead } from '../../gateway/wire/responses.js';
import { inputItemsQuerySchema, parseResponsesBody } from '../../gateway/wire/responses.schemas.js';
import { parseInput } from '../../identity/identity.schemas.js';
import type { AppDeps } from '../../runtime-deps.js';
import { answerGatewayCall } from '../gateway-answer.js';
import { JsonText, type GatewayEndpoint, type GatewayHandler } from '../gateway-call.js';
import { callerOf } from '../middleware/auth.js';

export function responsesEndpoints(deps: AppDeps): Record<'/v1/responses', GatewayEndpoint> {
  return { '/v1/responses': { handle: createResponse(deps, deps.responses), credential: 'bearer' } };
}

/** GET and DELETE of stored responses, and their input items (authenticated /v1 routes). */
export function responsesRoutes(deps: AppDeps): Router {
  const store = deps.responses;
  const router = Router();
  router.get('/responses/:id', async (req, res) => {
    res.json(await store.get(callerOf(req).organizationId, String(req.params.id)));
  });
  router.get('/responses/:id/input_items', async (req, res) => {
    res.json(await store.inputItems(callerOf(req).organizationId, String(req.params.id), parseInput(inputItemsQuerySchema, req.query)));
  });
  router.delete('/responses/:id', async (req, res) => {
    const id = String(req.params.id);
    await store.remove(callerOf(req).organizationId, id);
    res.json({ id, object: 'response', deleted: true });
  });
  return router;
}

function createResponse(deps: AppDeps, store: ResponsesStore): GatewayHandler {
  return async (call, res) => {
    const body = parseResponsesBody(call.body);
    const organizationId = call.caller.organizationId;
    const conversation = await store.conversation(organizationId, body);
    const keep = body.store !== false;
    const ids = new ResponseIdSequence();
    const head = (model: string): ResponseHead => ({ id: ids.response, createdAt: Math.floor(deps.clock.now().getTime() / 1000), model, body });
    await answerGatewayCall(deps.gateway, call, res, fromResponsesRequest(body, conversation), {
      // The response is serialized once: the answer's body and the stored payload share the text.
      body: async (result) => {
        const json = JSON.stringify(toResponseObject(head(result.model), result, ids));
        if (keep) await store.save(organizationId, json, conversation, ids);
        return new JsonText(json);
      },
      events: (stream) => {
        const writer = new ResponsesStreamWriter(head(stream.model), ids);
        return {
          start: writer.start(),
          event: (chunk) => writer.write(chunk),
          error: (error) => writer.error(error),
          end: '',
          complete: async () => {
            const response = writer.final();
            const json = JSON.stringify(response);
            if (keep) await store.save(organizationId, json, conversation, ids);
            return writer.finish(json);
          },
        };
      },
    });
  };
}
