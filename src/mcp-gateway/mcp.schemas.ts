// The shape of a message POSTed to /v1/mcp, checked before the MCP SDK reads it so a body that is
// no JSON-RPC message is 400 `bad_request` naming the field, like every other endpoint; what the
// message asks for is the SDK's to judge (an unknown method is a JSON-RPC error in a 200 answer).
import { z } from 'zod';

export const mcpMessageBody = z.looseObject({
  jsonrpc: z.literal('2.0', 'must be "2.0"'),
  /** A request or a notification: `initialize`, `tools/list`, `tools/call`, `notifications/initialized`... */
  method: z.string().min(1).max(200),
  id: z.union([z.string().max(200), z.number().int()]).optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});

/** A JSON-RPC answer (plain JSON, or the data of one server-sent event for tools/call). */
export const mcpAnswer = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.looseObject({ code: z.number(), message: z.string() }).optional(),
});
