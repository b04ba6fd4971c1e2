// POST /v1/messages and /v1/messages/count_tokens: the Anthropic Messages API over the gateway
// core, plain or streamed as Anthropic's typed events. The API key comes in `x-api-key` (or as a
// bearer token); `anthropic-version` and `anthropic-beta` are accepted and need no answer; errors
// take Anthropic's shape and statuses on these routes only.
import type { AppDeps } from '../../runtime-deps.js';
import { fromMessagesPrompt, fromMessagesRequest, MessagesStreamWriter, toAnthropicError, toMessageBody } from '../../gateway/wire/messages.js';
import { parseCountTokensBody, parseMessagesBody } from '../../gateway/wire/messages.schemas.js';
import { answerGatewayCall } from '../gateway-answer.js';
import { gatewayContext, sendJson, type GatewayEndpoint, type GatewayHandler } from '../gateway-call.js';

export function messagesEndpoints(deps: AppDeps): Record<'/v1/messages' | '/v1/messages/count_tokens', GatewayEndpoint> {
  return {
    '/v1/messages': { handle: messages(deps), credential: 'x-api-key', renderError: toAnthropicError },
    '/v1/messages/count_tokens': { handle: countTokens(deps), credential: 'x-api-key', renderError: toAnthropicError },
  };
}

function messages(deps: AppDeps): GatewayHandler {
  return async (call, res) => {
    await answerGatewayCall(deps.gateway, call, res, fromMessagesRequest(parseMessagesBody(call.body)), {
      body: toMessageBody,
      events: (stream) => {
        const writer = new MessagesStreamWriter(stream);
        return { start: writer.start(), event: (chunk) => writer.write(chunk), error: (error) => writer.error(error), end: '' };
      },
    });
  };
}

function countTokens(deps: AppDeps): GatewayHandler {
  return async (call, res) => {
    const request = fromMessagesPrompt(parseCountTokensBody(call.body));
    const inputTokens = await deps.gateway.countTokens(request, gatewayContext(call));
    // Nothing was held against the budget: the rate-limit counters count alone.
    await call.admission?.countAlone();
    sendJson(res, 200, { input_tokens: inputTokens });
  };
}
