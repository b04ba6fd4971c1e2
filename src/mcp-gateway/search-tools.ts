// `search_tools`: offered by /v1/mcp when the caller may use more tools than
// MCP_SEARCH_TOOLS_THRESHOLD, so a client that loads every schema into its prompt can ask for the
// few it needs. Matches the query's words against tool names and descriptions; ranked by how many
// words match, names before descriptions. Linear in the catalog; the query is at most 500 characters.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { CatalogTool } from './tool-catalog.js';

export const searchToolsInput = z.object({
  query: z.string().min(1).max(500),
  limit: z.number().int().min(1).max(50).default(10),
});

export const SEARCH_TOOLS: Tool = {
  name: 'search_tools',
  description:
    'Finds tools by name and description among every tool available to you (more than are worth reading at once). Returns their names, descriptions and input schemas; call a found tool by its name.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Words to look for, e.g. "create github issue"' },
      limit: { type: 'integer', minimum: 1, maximum: 50, description: 'At most this many tools (default 10)' },
    },
    required: ['query'],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

export function searchTools(tools: CatalogTool[], query: string, limit: number): CatalogTool[] {
  const words = [...new Set(query.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 0))];
  if (words.length === 0) return [];
  const scored = tools.map((tool) => {
    const name = tool.name.toLowerCase();
    const description = (tool.definition.description ?? '').toLowerCase();
    const score = words.reduce((sum, word) => sum + (name.includes(word) ? 2 : 0) + (description.includes(word) ? 1 : 0), 0);
    return { tool, score };
  });
  return scored
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name))
    .slice(0, limit)
    .map((entry) => entry.tool);
}
