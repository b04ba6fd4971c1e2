// The transport of a /v1/mcp request answered as plain JSON: one JSON-RPC request handed to the
// request's SDK server, its one response handed back. The SDK's Streamable HTTP transport does the
// same in its JSON mode after converting Node's request to a web `Request` and the answer back
// (@hono/node-server), with a stream bookkeeping of its own per request: in a CPU profile of
// bench:mcp that conversion was the largest cost of the route besides the database. The server
// is the SDK's all the same (the JSON-RPC schema checks, the method's params schema, the error
// codes, `initialize`'s negotiation), so a client sees the answer the SDK's transport would give.
// What needs a stream (a tools/call whose client asked for progress) keeps the SDK's transport.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

export class JsonExchangeTransport implements Transport {
  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  private answer: ((message: JSONRPCMessage) => void) | undefined;
  private closed = false;

  async start(): Promise<void> {}

  /** Only the response leaves: a notification about the request (progress) has no stream to go on, as in the SDK's JSON mode. */
  async send(message: JSONRPCMessage): Promise<void> {
    if ('result' in message || 'error' in message) this.answer?.(message);
  }

  /** The client went away before the answer: the server aborts the request's handler (its `signal`). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  /** The server's response to `request` (the server must be connected to this transport). */
  exchange(request: JSONRPCMessage, extra: MessageExtraInfo): Promise<JSONRPCMessage> {
    return new Promise((resolve) => {
      this.answer = resolve;
      this.onmessage?.(request, extra);
    });
  }
}

/** The SDK transport's answer to an `Mcp-Protocol-Version` it does not speak (400), or undefined when absent or spoken. */
export function unsupportedProtocolVersion(header: string | undefined): { status: 400; body: object } | undefined {
  if (header === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(header)) return undefined;
  const message = `Bad Request: Unsupported protocol version: ${header} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`;
  return { status: 400, body: { jsonrpc: '2.0', error: { code: -32000, message }, id: null } };
}
