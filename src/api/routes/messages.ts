// POST /v1/messages and /v1/messages/count_tokens: the Anthropic Messages API over the gateway
// core, plain or streamed as Anthropic's typed events. The API key comes in `x-api-key` (or as a
// bearer token); `anthropic-version` and `anthropic-beta` are accepted and need no answer; errors
// take Anthropic's shape and statuses on these routes only.
import type { AppDeps } from '../../runtime-deps.js';
import { fromMessagesPrompt, fromMessagesRequest, MessagesStreamWriter, toAnthropicError, toMessageBody } from '../../gateway/wire/messages.js';
import { parseCountTokensBody, parseMessagesBody } from '../../gateway/wire/messages.schemas.js';
import { pipeEvents, startEventStream } from '../event-stream.js';
import { abortOnClientClose, gatewayCacheOptions, gatewayContext, sendJson, setCacheHeaders, setGatewayHeaders, type GatewayEndpoint, type GatewayHandler } from '../gateway-call.js';

export function messagesEndpoints(deps: AppDeps): Record<'/v1/messages' | '/v1/messages/count_tokens', GatewayEndpoint> {
  return {
    '/v1/messages': { handle: messages(deps), credential: 'x-api-key', renderError: toAnthropicError },
    '/v1/messages/count_tokens': { handle: countTokens(deps), credential: 'x-api-key', renderError: toAnthropicError },
  };
}

function messages(deps: AppDeps): GatewayHandler {
  return async (call, res) => {
    const request = fromMessagesRequest(parseMessagesBody(call.body));
    const context = gatewayContext(call);
    const options = gatewayCacheOptions(call.header('cache-control'));
    const signal = abortOnClientClose(res);
    if (!request.stream) {
      const result = await deps.gateway.complete(request, context, signal, options);
      setCacheHeaders(res, result.cache);
      setGatewayHeaders(res, call, result);
      sendJson(res, 200, toMessageBody(result));
      return;
    }
    const stream = await deps.gateway.stream(request, context, signal, options);
    setCacheHeaders(res, stream.cache);
    setGatewayHeaders(res, call, stream);
    startEventStream(res);
    const writer = new MessagesStreamWriter(stream);
    res.write(writer.start());
    await pipeEvents(res, call, signal, stream.chunks, { event: (chunk) => writer.write(chunk), error: (error) => writer.error(error), end: '' });
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
