// A key's `mcpTools` (docs/design.md "MCP gateway"): which tools of its user's connections
// the key reaches through /v1/mcp. A pattern is an exact tool name as /v1/mcp lists it
// (`<toolId>__<toolName>`, reduced to [A-Za-z0-9_-]) or `<toolId>__*` (every tool of that
// connector). Absent (null) = every tool the key's user may use; [] = none. Pure: the schema,
// matching, and the rule that keeps a key created with a key within its creator's patterns.
import { z } from 'zod';

/** An exact tool name as listed: at most 64 characters of [A-Za-z0-9_-], a `__` after the connector id. */
const EXACT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;
/** `<toolId>__*`: the catalog id as it is written (letters, digits, `.`, `_`, `-`). */
const WILDCARD = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}__\*$/;
const MESSAGE = 'must be a tool name as /v1/mcp lists it (<toolId>__<toolName>) or <toolId>__*';

export const MAX_MCP_TOOL_PATTERNS = 200;

export const mcpToolPatternsSchema = z
  .array(z.string().refine((pattern) => WILDCARD.test(pattern) || (EXACT.test(pattern) && pattern.indexOf('__') > 0), MESSAGE))
  .max(MAX_MCP_TOOL_PATTERNS, `must list at most ${MAX_MCP_TOOL_PATTERNS} tools`);

/** The alphabet tool names are reduced to (src/connectors/tool-use.ts `functionNameFor`). */
function reduced(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

function isWildcard(pattern: string): boolean {
  return pattern.endsWith('__*');
}

/** `<toolId>__` as listed names start with it. */
function wildcardPrefix(pattern: string): string {
  return reduced(pattern.slice(0, -1));
}

/** True when `name` (as /v1/mcp lists it) is one of `patterns`; null patterns allow every name. */
export function mcpToolAllowed(patterns: readonly string[] | null | undefined, name: string): boolean {
  if (patterns === null || patterns === undefined) return true;
  return patterns.some((pattern) => (isWildcard(pattern) ? name.startsWith(wildcardPrefix(pattern)) : pattern === name));
}

/**
 * True when `child` is covered by one of `ceiling`: an exact name by the same name or by its
 * `<toolId>__*`; a `<toolId>__*` only by the same pattern.
 */
export function mcpToolPatternCovered(ceiling: readonly string[], child: string): boolean {
  if (isWildcard(child)) return ceiling.includes(child);
  return ceiling.some((pattern) => (isWildcard(pattern) ? child.startsWith(wildcardPrefix(pattern)) : pattern === child));
}
