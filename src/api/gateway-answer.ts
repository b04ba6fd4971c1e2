// The one answer of the chat-shaped gateway routes (chat completions, Responses, Messages): the
// call through the gateway core, plain or streamed, the cache and gateway headers, then the wire
// format's body or events. A route brings its parsed request and its WireAnswer, nothing else.
import type { ServerResponse } from 'node:http';
import type { ChatCompletionStream } from '../gateway/chat.js';
import type { Gateway } from '../gateway/index.js';
import type { ChatCompletionRequest, ChatCompletionResult } from '../gateway/types.js';
import { pipeEvents, startEventStream, type EventWriter } from './event-stream.js';
import { abortOnClientClose, gatewayCacheOptions, gatewayContext, sendJson, setCacheHeaders, setGatewayHeaders, type GatewayCall } from './gateway-call.js';

/** How one wire format writes a gateway answer: the whole body, or the stream's events. */
export interface WireAnswer {
  /** The body of a whole answer, or its JsonText (anything that must happen before the client has it, done). */
  body(result: ChatCompletionResult): unknown;
  /** The events of a stream, written once the first upstream content arrived. */
  events(stream: ChatCompletionStream): EventWriter;
}

/** Answers the call in the route's wire format: the request and the WireAnswer are all that differ. */
export async function answerGatewayCall(gateway: Gateway, call: GatewayCall, res: ServerResponse, request: ChatCompletionRequest, wire: WireAnswer): Promise<void> {
  const context = gatewayContext(call);
  const options = gatewayCacheOptions(call.header('cache-control'));
  const signal = abortOnClientClose(res);
  if (!request.stream) {
    const result = await gateway.complete(request, context, signal, options);
    const body = await wire.body(result);
    setCacheHeaders(res, result.cache);
    setGatewayHeaders(res, call, result);
    sendJson(res, 200, body);
    return;
  }
  const stream = await gateway.stream(request, context, signal, options);
  try {
    setCacheHeaders(res, stream.cache);
    setGatewayHeaders(res, call, stream);
    startEventStream(res);
    await pipeEvents(res, call, signal, stream.chunks, wire.events(stream));
  } finally {
    // However the writing ended (an error of ours before or while piping included), the stream
    // is closed: its upstream call ends and its outcome is settled and recorded (once: a stream
    // read to its end is already closed).
    await stream.chunks[Symbol.asyncIterator]().return?.();
  }
}
