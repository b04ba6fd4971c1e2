// POST /v1/responses (the OpenAI Responses API) over the gateway core, plain or streamed as its
// typed events; GET/DELETE /v1/responses/{id} and GET /v1/responses/{id}/input_items for stored
// responses. A response is stored (unless `store: false`) before the client gets it, so its id
// and item ids resolve at once in the next call (`previous_response_id`, `item_reference`: what the AI SDK sends in tool loops).
import { Router } from 'express';
import type { ResponsesStore } from '../../gateway/responses.service.js';
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

/** GET and DELETE of stored responses, and their input items (authenticated /v1 routes): the storing user's, admins' and the owner's. */
export function responsesRoutes(deps: AppDeps): Router {
  const store = deps.responses;
  const router = Router();
  router.get('/responses/:id', async (req, res) => {
    res.json(await store.get(callerOf(req), String(req.params.id)));
  });
  router.get('/responses/:id/input_items', async (req, res) => {
    res.json(await store.inputItems(callerOf(req), String(req.params.id), parseInput(inputItemsQuerySchema, req.query)));
  });
  router.delete('/responses/:id', async (req, res) => {
    const id = String(req.params.id);
    await store.remove(callerOf(req), id, req.requestId);
    res.json({ id, object: 'response', deleted: true });
  });
  return router;
}

/**
 * A response cache hit is stored like any answer: a new response id whose row keeps the request's
 * own items and the (cached) output, and refers to the conversation it continued rather than
 * copying it, so `previous_response_id` and `item_reference` work on it as on any other.
 */
function createResponse(deps: AppDeps, store: ResponsesStore): GatewayHandler {
  return async (call, res) => {
    const body = parseResponsesBody(call.body);
    const turn = await store.begin(call.caller, body);
    const { ids } = turn;
    const head = (model: string): ResponseHead => ({ id: ids.response, createdAt: Math.floor(deps.clock.now().getTime() / 1000), model, body });
    await answerGatewayCall(deps.gateway, call, res, fromResponsesRequest(body, turn.conversation), {
      // The response is serialized once: the answer's body and the stored payload share the text.
      body: async (result) => {
        const json = JSON.stringify(toResponseObject(head(result.model), result, ids));
        await store.save(call.caller, turn, json);
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
            const json = JSON.stringify(writer.final());
            await store.save(call.caller, turn, json);
            return writer.finish(json);
          },
        };
      },
    });
  };
}
