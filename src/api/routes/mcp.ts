// /v1/mcp: the MCP gateway (src/mcp-gateway/), an MCP server over Streamable HTTP.
// Stateless: each POST gets a fresh server (no Mcp-Session-Id), so any API process answers any
// request. API keys only (`Authorization: Bearer <key>`): a session cookie is 401, as is no
// credential. A tools/call that asked for progress (a progress token) answers as server-sent
// events through the SDK's Streamable HTTP transport, so a call waiting for approval can send it;
// every other request answers plain JSON through a lighter transport (mcp-gateway/json-exchange.ts)
// and a notification 202, which costs both sides less. GET (a standalone event stream) and
// DELETE (ending a session) have nothing to serve here: 405.
// Mounted ahead of the other /v1 routes with its own checks (app.ts), as the gateway's routes are:
// an MCP call does not walk every other router's routes on its way.
import { Router, type Request, type RequestHandler } from 'express';
import { unauthorized } from '../../errors.js';
import { parseInput } from '../../identity/identity.schemas.js';
import { mcpMessageBody } from '../../mcp-gateway/mcp.schemas.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf } from '../middleware/auth.js';

export const MCP_PATH = '/v1/mcp';

type McpModules = [
  typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  typeof import('../../mcp-gateway/server.js'),
  typeof import('../../mcp-gateway/json-exchange.js'),
  typeof import('@modelcontextprotocol/sdk/types.js'),
];

/** Methods the stateless server does not serve are 405, without a credential check. */
const methodNotAllowed: RequestHandler = (_req, res) => {
  res.status(405).setHeader('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless (POST only)' }, id: null });
};

/** Before authentication: a 401 on /v1/mcp tells MCP clients it wants a bearer token. */
const bearerChallenge: RequestHandler = (_req, res, next) => {
  res.setHeader('WWW-Authenticate', 'Bearer realm="ai-workspace"');
  next();
};

/** `checks`: body parsing, authentication and the rate limit, as every authenticated /v1 route has them. */
export function mcpRoutes(deps: AppDeps, checks: RequestHandler[]): Router {
  const router = Router();
  // Loaded at the first request, not at start: most API processes never serve MCP (see mcp-client.ts).
  let modules: Promise<McpModules> | undefined;
  const load = () =>
    (modules ??= Promise.all([
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('../../mcp-gateway/server.js'),
      import('../../mcp-gateway/json-exchange.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]).catch((error: unknown) => {
      modules = undefined;
      throw error;
    }));

  let serverFor: ReturnType<McpModules[1]['mcpServerFactory']> | undefined;

  router.post(MCP_PATH, bearerChallenge, ...checks, async (req, res) => {
    const caller = callerOf(req);
    if (caller.via !== 'api_key') throw unauthorized('/v1/mcp takes an API key: Authorization: Bearer <key>');
    res.removeHeader('WWW-Authenticate');
    const message = parseInput(mcpMessageBody, req.body);
    const [{ StreamableHTTPServerTransport }, { mcpServerFactory }, { JsonExchangeTransport, unsupportedProtocolVersion }, { isJSONRPCRequest, isJSONRPCNotification }] = await load();
    serverFor ??= mcpServerFactory(deps);
    if (wantsProgress(message)) {
      acceptBothAnswerTypes(req);
      const server = serverFor({ caller, requestId: req.requestId });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
      return;
    }
    // As the SDK's transport answers: a message it does not take is a parse error, a notification 202.
    if (!isJSONRPCRequest(message)) {
      if (isJSONRPCNotification(message)) res.status(202).end();
      else res.status(400).json({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' }, id: null });
      return;
    }
    const refused = message.method === 'initialize' ? undefined : unsupportedProtocolVersion(req.get('mcp-protocol-version'));
    if (refused) {
      res.status(refused.status).json(refused.body);
      return;
    }
    const server = serverFor({ caller, requestId: req.requestId });
    const transport = new JsonExchangeTransport();
    // Only a client that leaves before its answer needs the close (it aborts the call's handler).
    const leftEarly = () => void transport.close();
    res.once('close', leftEarly);
    await server.connect(transport);
    const answer = await transport.exchange(message, { requestInfo: { headers: req.headers } });
    res.off('close', leftEarly);
    if (!res.writableEnded && !res.destroyed) res.json(answer);
  });
  router.all(MCP_PATH, methodNotAllowed);

  return router;
}

/**
 * The SDK's transport answers 406 unless Accept names both JSON and event streams; a client that
 * names only one (or none) still gets an answer it reads, so both are set here. The transport
 * reads the raw header list.
 */
function acceptBothAnswerTypes(req: Request): void {
  const both = 'application/json, text/event-stream';
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i]!.toLowerCase() === 'accept') raw.splice(i, 2);
  raw.push('Accept', both);
  req.headers.accept = both;
}

/** A tools/call whose client gave a progress token: it is answered as an event stream. */
function wantsProgress(message: { method: string; params?: Record<string, unknown> | undefined }): boolean {
  const meta = message.params?._meta;
  return message.method === 'tools/call' && typeof meta === 'object' && meta !== null && (meta as { progressToken?: unknown }).progressToken !== undefined;
}
