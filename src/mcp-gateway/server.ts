// The MCP server behind /v1/mcp, built on the MCP SDK's low-level Server for one HTTP request
// (stateless: nothing survives the request, so any API process answers any request and an API
// restart loses nothing). It serves `tools/list` (the caller's tools, descriptions scanned as
// untrusted text; `search_tools` added past MCP_SEARCH_TOOLS_THRESHOLD) and `tools/call`.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../identity/caller.js';
import { scanTexts } from './dlp.js';
import { SEARCH_TOOLS, searchTools, searchToolsInput } from './search-tools.js';
import { callerTools, resolveCallerTool, type CatalogTool, type McpGatewayDeps } from './tool-catalog.js';
import { callTool, toolError } from './tool-call.js';
import type { ApprovalProgress } from './deps.js';

export const SERVER_INFO = { name: 'ai-workspace', version: '0.1.0' };
const INSTRUCTIONS =
  "The tools of your organization's tool connections, under your API key's limits. A call may wait for a person's approval; data-loss-prevention may mask or block arguments and results.";

export interface McpRequestContext {
  caller: Caller;
  requestId?: string | undefined;
}

/**
 * Builds the server of each request. What servers can share is built once: the SDK's JSON-schema
 * validator (an Ajv instance, a few milliseconds of CPU to build; a server builds one unless given one).
 */
export function mcpServerFactory(deps: McpGatewayDeps): (context: McpRequestContext) => Server {
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  return (context) => createMcpServer(deps, context, jsonSchemaValidator);
}

function createMcpServer(deps: McpGatewayDeps, context: McpRequestContext, jsonSchemaValidator: AjvJsonSchemaValidator): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator });

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const { ownerActive, tools: reached } = await callerTools(deps, context.caller);
    // A disabled user's keys are revoked with it; this covers a key still in flight.
    const tools = ownerActive ? reached : [];
    const listed = await listedDefinitions(deps, context, tools);
    return { tools: tools.length > deps.config.MCP_SEARCH_TOOLS_THRESHOLD ? [SEARCH_TOOLS, ...listed] : listed };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    if (name === SEARCH_TOOLS.name) return search(deps, context, args);
    // The owner check comes with the caller's connections (one query); the call refuses an inactive owner.
    const { ownerActive, tool } = await resolveCallerTool(deps, context.caller, name);
    // Another organization's tool, another member's, one past the key's mcpTools: all unknown alike.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const token = extra._meta?.progressToken;
    const progress: ApprovalProgress | undefined =
      token === undefined
        ? undefined
        : ({ elapsedMs, totalMs, message }) =>
            extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: Math.round(elapsedMs / 1000), total: Math.round(totalMs / 1000), message } });
    return callTool(deps, { caller: context.caller, requestId: context.requestId, progress, signal: extra.signal, ownerActive }, tool, args);
  });

  return server;
}

async function search(deps: McpGatewayDeps, context: McpRequestContext, args: Record<string, unknown>): Promise<CallToolResult> {
  const parsed = searchToolsInput.safeParse(args);
  if (!parsed.success) return toolError(`search_tools takes {"query": string, "limit"?: 1..50}`);
  const { ownerActive, tools } = await callerTools(deps, context.caller);
  const found = ownerActive ? searchTools(tools, parsed.data.query, parsed.data.limit) : [];
  const listed = await listedDefinitions(deps, context, found);
  const structured = { tools: listed.map((tool) => ({ name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema })) };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * The definitions as a client sees them: named as listed, descriptions (a remote server's text)
 * masked per the DLP policy, or withheld when the policy blocks what they hold.
 */
async function listedDefinitions(deps: McpGatewayDeps, context: McpRequestContext, tools: CatalogTool[]): Promise<Tool[]> {
  const described = tools.filter((tool) => tool.definition.description);
  const scanned = described.length
    ? await scanDescriptions(deps, context, described.map((tool) => tool.definition.description!))
    : [];
  const descriptions = new Map(described.map((tool, i) => [tool, scanned[i]]));
  return tools.map((tool) => {
    const { name: _serverName, description: _untrusted, ...definition } = tool.definition;
    const description = descriptions.get(tool);
    return { ...definition, name: tool.name, ...(description !== undefined ? { description } : {}) };
  });
}

const WITHHELD = '[description withheld: the data-loss-prevention policy blocks what it holds]';

async function scanDescriptions(deps: McpGatewayDeps, context: McpRequestContext, texts: string[]): Promise<string[]> {
  const caller = context.caller;
  const scope = {
    organizationId: caller.organizationId,
    apiKeyId: caller.apiKeyId!,
    actor: { userId: caller.userId, apiKeyId: caller.apiKeyId },
    destination: 'mcp-client:tools/list',
    requestId: context.requestId,
  };
  // Scanned one by one so a block withholds only the description that holds it.
  const results = await Promise.all(texts.map((text) => scanTexts(deps, scope, [text])));
  return results.map((result) => (result.blocked.length > 0 ? WITHHELD : result.texts[0]!));
}
