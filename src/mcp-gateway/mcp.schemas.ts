// The shape of a message POSTed to /v1/mcp, checked before the MCP SDK reads it so a body that is
// no JSON-RPC message is 400 `bad_request` naming the field, like every other endpoint; what the
// message asks for is the SDK's to judge (an unknown method is a JSON-RPC error in a 200 answer).
// Strict, as JSON-RPC 2.0 and the SDK's own schema are: a member beyond these is named in the 400
// (the SDK would answer it with a JSON-RPC parse error instead).
import { z } from 'zod';

export const mcpMessageBody = z.strictObject({
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
