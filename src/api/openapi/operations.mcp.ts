// The MCP gateway's endpoint: one POST that carries MCP's JSON-RPC messages.
import { mcpAnswer, mcpMessageBody } from '../../mcp-gateway/mcp.schemas.js';
import type { Operation } from './registry.js';

export const mcpOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/mcp',
    operationId: 'postMcpMessage',
    tag: 'MCP gateway',
    summary: "An MCP server over Streamable HTTP: the tools of the caller's connections (tools/list, tools/call)",
    description:
      'Stateless MCP (no `Mcp-Session-Id`): `initialize`, `tools/list` and `tools/call` as the MCP SDK\'s clients send them, with `Authorization: Bearer <API key>` (a session cookie is 401). Tools are named `<toolId>__<toolName>` and narrowed by the key\'s `mcpTools`; calls go through DLP, approvals (`always` waits up to `MCP_APPROVAL_WAIT_SECONDS` with progress notifications), the key\'s rate limits and the audit log (`tool.called`). A `tools/call` with a progress token (`params._meta.progressToken`) answers as server-sent events; other messages as JSON; a notification 202. GET and DELETE are 405. See docs/tools.md.',
    auth: 'caller',
    body: { id: 'McpMessage', schema: mcpMessageBody, required: true, example: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
    responses: {
      200: { description: 'The JSON-RPC answer', schema: mcpAnswer, stream: 'a tools/call with a progress token answers as server-sent events: progress notifications while it waits, then the answer' },
      202: { description: 'A notification was accepted (no body)' },
    },
    errors: [],
  },
];
