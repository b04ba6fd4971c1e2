// /v1/mcp: the MCP gateway (src/mcp-gateway/), an MCP server over Streamable HTTP.
// Stateless: each POST gets a fresh server and transport (no Mcp-Session-Id), so any API process
// answers any request. API keys only (`Authorization: Bearer <key>`): a session cookie is 401, as
// is no credential. A tools/call that asked for progress (a progress token) answers as server-sent
// events, so a call waiting for approval can send it; everything else answers plain JSON, which
// costs both sides less. GET (a standalone event stream) and
// DELETE (ending a session) have nothing to serve here: 405.
import { Router, type Request, type RequestHandler } from 'express';
import { unauthorized } from '../../errors.js';
import { parseInput } from '../../identity/identity.schemas.js';
import { mcpMessageBody } from '../../mcp-gateway/mcp.schemas.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf } from '../middleware/auth.js';

export const MCP_PATH = '/mcp';

type McpModules = [typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'), typeof import('../../mcp-gateway/server.js')];

/**
 * Before authentication: a 401 on /v1/mcp tells MCP clients it wants a bearer token, and methods
 * the stateless server does not serve are 405 without a credential check.
 */
export function mcpChallenge(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') {
      res.status(405).setHeader('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless (POST only)' }, id: null });
      return;
    }
    res.setHeader('WWW-Authenticate', 'Bearer realm="ai-workspace"');
    next();
  };
}

export function mcpRoutes(deps: AppDeps): Router {
  const router = Router();
  // Loaded at the first request, not at start: most API processes never serve MCP (see mcp-client.ts).
  let modules: Promise<McpModules> | undefined;
  const load = () =>
    (modules ??= Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('../../mcp-gateway/server.js')]).catch((error: unknown) => {
      modules = undefined;
      throw error;
    }));

  let serverFor: ReturnType<McpModules[1]['mcpServerFactory']> | undefined;

  router.post(MCP_PATH, async (req, res) => {
    const caller = callerOf(req);
    if (caller.via !== 'api_key') throw unauthorized('/v1/mcp takes an API key: Authorization: Bearer <key>');
    res.removeHeader('WWW-Authenticate');
    const message = parseInput(mcpMessageBody, req.body);
    acceptBothAnswerTypes(req);
    const [{ StreamableHTTPServerTransport }, { mcpServerFactory }] = await load();
    serverFor ??= mcpServerFactory(deps);
    const server = serverFor({ caller, requestId: req.requestId });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !wantsProgress(message) });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });

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
