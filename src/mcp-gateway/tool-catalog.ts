// The tools an API key reaches through /v1/mcp: those of its user's connections, as a run of
// that user sees them (per connector the connection a run would use, src/connectors/tool-use.ts),
// named as runs name them (`<toolId>__<toolName>` reduced to [A-Za-z0-9_-], `functionNameFor`),
// then narrowed by the key's `mcpTools`. Only the caller's own organization and user are ever
// queried: another organization's (or another member's) connection is never listed, so never
// resolved for a call either. Listings come from the pooled sessions (session-pool.ts).
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolConnection } from '../connectors/entities.js';
import { ConnectorFailure } from '../connectors/mcp-client.js';
import { ownerConnections } from '../connectors/owner-connections.js';
import { functionNameFor, preferredConnection } from '../connectors/tool-use.js';
import type { Caller } from '../identity/caller.js';
import { mcpToolAllowed } from '../identity/mcp-tool-patterns.js';
import type { McpGatewayDeps } from './deps.js';
import { ConnectionBusy } from './session-pool.js';

export type { McpGatewayDeps };

export interface CatalogTool {
  /** As /v1/mcp lists it and the key's `mcpTools` match it. */
  name: string;
  toolId: string;
  /** The tool's name on its MCP server. */
  toolName: string;
  connection: ToolConnection;
  /** The server's definition: description (untrusted), input and output schemas, annotations. */
  definition: Tool;
}

/** Characters a listed name keeps of `<toolId>__` before a long name is shortened with a hash (functionNameFor). */
const NAME_PREFIX_KEPT = 55;

export interface CallerCatalog {
  /** The key's user is an active member (a call is refused otherwise). */
  ownerActive: boolean;
  tools: CatalogTool[];
}

/** Every tool the caller's key reaches, ordered by connector id; connectors that fail to answer are left out (logged). */
export async function callerTools(deps: McpGatewayDeps, caller: Caller, only?: (toolId: string) => boolean): Promise<CallerCatalog> {
  if (caller.keyLimits?.mcpTools?.length === 0) return { ownerActive: true, tools: [] };
  const { ownerActive, connections } = await usableConnections(deps, caller);
  const chosen = connections.filter((connection) => !only || only(connection.toolId));
  const listings = await Promise.all(chosen.map(async (connection) => ({ connection, tools: await listingOf(deps, connection) })));
  const taken = new Set<string>();
  const tools: CatalogTool[] = [];
  for (const { connection, tools: definitions } of listings) {
    for (const definition of definitions) {
      const name = functionNameFor(connection.toolId, definition.name, taken);
      taken.add(name);
      if (!mcpToolAllowed(caller.keyLimits?.mcpTools, name)) continue;
      tools.push({ name, toolId: connection.toolId, toolName: definition.name, connection, definition });
    }
  }
  return { ownerActive, tools };
}

/** The tool a listed name stands for, if the caller's key reaches it; only its connector is asked. */
export async function resolveCallerTool(deps: McpGatewayDeps, caller: Caller, name: string): Promise<{ ownerActive: boolean; tool: CatalogTool | undefined }> {
  if (!mcpToolAllowed(caller.keyLimits?.mcpTools, name)) return { ownerActive: true, tool: undefined };
  // A listed name starts with `<toolId>__` reduced, cut where functionNameFor shortens long names.
  const candidate = (toolId: string) => name.startsWith(`${toolId}__`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, NAME_PREFIX_KEPT));
  const { ownerActive, tools } = await callerTools(deps, caller, candidate);
  return { ownerActive, tool: tools.find((tool) => tool.name === name) };
}

/** Per connector, the connection a run of this user would use; read with the owner check (one query). */
async function usableConnections(deps: McpGatewayDeps, caller: Caller): Promise<{ ownerActive: boolean; connections: ToolConnection[] }> {
  const { ownerActive, connections } = await ownerConnections(deps.orm, caller.organizationId, caller.userId, deps.credentials);
  const byToolId = new Map<string, ToolConnection[]>();
  for (const connection of connections) byToolId.set(connection.toolId, [...(byToolId.get(connection.toolId) ?? []), connection]);
  return { ownerActive, connections: [...byToolId.values()].map((newestFirst) => preferredConnection(newestFirst)!).filter(Boolean) };
}

async function listingOf(deps: McpGatewayDeps, connection: ToolConnection): Promise<Tool[]> {
  try {
    return await deps.mcpSessions.listTools(connection, deps.config.TOOLS_TEST_TIMEOUT_MS);
  } catch (error) {
    if (!(error instanceof ConnectorFailure) && !(error instanceof ConnectionBusy)) throw error;
    deps.logger.warn({ connectionId: connection.id, toolId: connection.toolId, reason: error.message }, 'MCP gateway: a connection did not list its tools');
    return [];
  }
}
