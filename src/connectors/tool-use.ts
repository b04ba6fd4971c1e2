// The seam between connections and automation runs: the tools of a user's connections as
// OpenAI function tools, and one tool call. Both are plain data in and out, so a workflow can
// call them as activities (bindings travel in workflow state; no functions cross the boundary).
//
// Function names are `<toolId>__<toolName>` reduced to OpenAI's alphabet ([A-Za-z0-9_-], at
// most 64 characters; a short hash keeps long or clashing names unique). A tool result is the
// text of its content blocks, at most TOOL_RESULT_MAX_CHARS characters: a longer one is cut and
// marked, so one chatty tool cannot fill the model's context.
import { createHash } from 'node:crypto';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AppDeps } from '../runtime-deps.js';
import type { ToolDefinition } from '../gateway/types.js';
import { AppError } from '../errors.js';
import { assertOwnerActive } from '../identity/run-principal.js';
import { guardOutgoingText, type OutgoingDlpDeps, type OutgoingText } from '../gateway/dlp/outgoing.js';
import { catalogFor, type CatalogEntry } from './catalog.js';
import { confinedLaunch } from './confinement.js';
import { decryptVariables } from './connections.service.js';
import { ToolConnection } from './entities.js';
import { ConnectorFailure, redact, withConnectorSession, type ConnectorLaunch } from './mcp-client.js';
import { toolKeyOf } from '../approval-policy/policy.js';

/** Characters of a tool result handed back to the model; the rest is cut with a marker. */
export const TOOL_RESULT_MAX_CHARS = 16_000;
/** Default deadline of one tool call (start, initialize, tools/call, shutdown). */
export const TOOL_CALL_TIMEOUT_MS = 30_000;

const MAX_FUNCTION_NAME = 64;

export type ToolUseDeps = Pick<AppDeps, 'config' | 'orm' | 'secrets' | 'logger' | 'toolCalls'>;

export interface ToolBinding {
  connectionId: string;
  toolId: string;
  /** The tool's name on its MCP server. */
  toolName: string;
  /** Set when a call must wait for a person's approval (src/approval-policy/policy.ts); absent: it runs at once. */
  approval?: 'always';
}

export interface ConnectionTools {
  /** Ready for `ChatCompletionRequest.tools`. */
  tools: ToolDefinition[];
  /** Function name -> where to call it. */
  bindings: Record<string, ToolBinding>;
  /** Requested connectors that offer no tools, and why (no connection, test failing, ...). */
  unavailable: { toolId: string; reason: string }[];
}

export interface ToolCallResult {
  text: string;
  isError: boolean;
  truncated: boolean;
}

/** Lists the tools of the user's connections to `toolIds` (the newest connection of each). */
export async function listConnectionTools(
  deps: ToolUseDeps,
  input: { organizationId: string; userId: string; toolIds: string[]; timeoutMs?: number },
): Promise<ConnectionTools> {
  const timeoutMs = input.timeoutMs ?? deps.config.TOOLS_TEST_TIMEOUT_MS;
  // Connectors start in parallel, so the listing takes as long as the slowest, not the sum.
  const listings = await Promise.all(
    [...new Set(input.toolIds)].map(async (toolId) => {
      const connection = await newestConnection(deps, input.organizationId, input.userId, toolId);
      if (!connection) return { ok: false as const, toolId, reason: `no connection to ${toolId}` };
      try {
        return { ok: true as const, toolId, connection, tools: await listToolsOf(deps, connection, timeoutMs) };
      } catch (error) {
        if (!(error instanceof ConnectorFailure)) throw error;
        return { ok: false as const, toolId, reason: error.message };
      }
    }),
  );
  const result: ConnectionTools = { tools: [], bindings: {}, unavailable: [] };
  for (const listing of listings) {
    if (!listing.ok) result.unavailable.push({ toolId: listing.toolId, reason: listing.reason });
    else for (const tool of listing.tools) addTool(result, listing.connection, tool);
  }
  return result;
}

/** The binding of a function name the model called, if it is one of ours. */
export function resolveToolCall(bindings: Record<string, ToolBinding>, functionName: string): ToolBinding | undefined {
  return Object.hasOwn(bindings, functionName) ? bindings[functionName] : undefined;
}

/**
 * One tool call on behalf of a run or webhook execution, as its owner `userId` (read at call
 * time: the model chose the call earlier, and the owner may have been disabled or replaced since).
 * The owner must be active and the connection theirs. The arguments leave for the MCP server,
 * so they are blocked or masked per the organization's DLP policy first (a refusal is thrown as
 * `toFailure` makes it, so each caller's activity fails the way its workflow expects).
 */
export async function callToolWithDlp(
  deps: ToolUseDeps & OutgoingDlpDeps,
  input: { organizationId: string; userId: string; binding: ToolBinding; arguments: string; source: OutgoingText['source'] },
  toFailure: (error: unknown) => unknown,
): Promise<ToolCallResult> {
  let args: string;
  const began = performance.now();
  try {
    await assertOwnerActive(deps.orm.em.fork(), input.organizationId, input.userId);
    args = await guardOutgoingText(deps, {
      organizationId: input.organizationId,
      text: input.arguments,
      destination: `tool:${input.binding.toolName}`,
      source: input.source,
    });
  } catch (error) {
    // No arguments in the record: they never left, and a blocked text must not land in the audit log.
    deps.toolCalls.record({ ...callRecordOf(input), outcome: error instanceof AppError && error.code === 'dlp_blocked' ? 'blocked' : 'refused', durationMs: performance.now() - began });
    throw toFailure(error);
  }
  const result = await callConnectionTool(deps, {
    organizationId: input.organizationId,
    userId: input.userId,
    connectionId: input.binding.connectionId,
    toolName: input.binding.toolName,
    arguments: args,
    timeoutMs: TOOL_CALL_TIMEOUT_MS,
  });
  deps.toolCalls.record({ ...callRecordOf(input), outcome: result.isError ? 'error' : 'ok', durationMs: performance.now() - began, arguments: args });
  return result;
}

function callRecordOf(input: { organizationId: string; userId: string; binding: ToolBinding; source: OutgoingText['source'] }) {
  return { organizationId: input.organizationId, actor: { userId: input.userId }, tool: toolKeyOf(input.binding.toolId, input.binding.toolName), via: 'run' as const, source: input.source };
}

/**
 * Calls one tool in a fresh session. Expected failures (bad arguments, connector down, tool
 * error, timeout) come back as `isError` text for the model rather than as exceptions.
 */
export async function callConnectionTool(
  deps: ToolUseDeps,
  input: { organizationId: string; userId: string; connectionId: string; toolName: string; arguments: string | Record<string, unknown>; timeoutMs?: number },
): Promise<ToolCallResult> {
  const args = parseArguments(input.arguments);
  if (!args) return failure('the tool arguments are not a JSON object');
  // A connection is its user's alone: a binding from before a take-ownership no longer resolves.
  const connection = await deps.orm.em.fork().findOne(ToolConnection, { id: input.connectionId, organizationId: input.organizationId, userId: input.userId });
  const entry = connection ? catalogFor(deps.config).find(connection.toolId) : undefined;
  if (!connection || !entry) return failure('the connection of this tool no longer exists');
  try {
    const env = decryptVariables(deps, connection);
    const result = await withConnectorSession(await launchOf(deps, connection, entry, env), input.timeoutMs ?? TOOL_CALL_TIMEOUT_MS, (session) =>
      session.callTool(input.toolName, args),
    );
    return truncate(redact(resultText(result), env), result.isError === true);
  } catch (error) {
    if (!(error instanceof ConnectorFailure)) throw error;
    deps.logger.warn({ connectionId: connection.id, toolId: connection.toolId, stage: error.stage }, 'tool call failed');
    return failure(error.message);
  }
}

/** OpenAI function name for a connector's tool: `<toolId>__<toolName>`, safe and at most 64 characters. */
export function functionNameFor(toolId: string, toolName: string, taken: ReadonlySet<string> = new Set()): string {
  const raw = `${toolId}__${toolName}`;
  const safe = raw.replace(/[^A-Za-z0-9_-]/g, '_');
  if (safe.length <= MAX_FUNCTION_NAME && safe === raw && !taken.has(safe)) return safe;
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, 8);
  return `${safe.slice(0, MAX_FUNCTION_NAME - hash.length - 1)}_${hash}`;
}

async function newestConnection(deps: ToolUseDeps, organizationId: string, userId: string, toolId: string): Promise<ToolConnection | null> {
  const connections = await deps.orm.em
    .fork()
    .find(ToolConnection, { organizationId, userId, toolId }, { orderBy: { createdAt: 'desc' }, limit: 5 });
  return preferredConnection(connections);
}

/** Of one connector's connections, newest first: the newest whose last test passed beats a newer one that is failing. */
export function preferredConnection(newestFirst: readonly ToolConnection[]): ToolConnection | null {
  const recent = newestFirst.slice(0, 5);
  return recent.find((connection) => connection.status === 'connected') ?? recent[0] ?? null;
}

async function listToolsOf(deps: ToolUseDeps, connection: ToolConnection, timeoutMs: number): Promise<Tool[]> {
  const entry = catalogFor(deps.config).find(connection.toolId);
  if (!entry) throw new ConnectorFailure('start', `connector ${connection.toolId} is no longer in the catalog`);
  const env = decryptVariables(deps, connection);
  return withConnectorSession(await launchOf(deps, connection, entry, env), timeoutMs, (session) => session.listTools());
}

/** The confined launch, checked right before the start; a refused value fails like a connector that cannot start. */
export async function launchOf(deps: Omit<ToolUseDeps, 'toolCalls'>, connection: ToolConnection, entry: CatalogEntry, env: Record<string, string>): Promise<ConnectorLaunch> {
  try {
    return await confinedLaunch(deps, connection.organizationId, entry, env);
  } catch (error) {
    if (error instanceof AppError) throw new ConnectorFailure('start', error.message);
    throw error;
  }
}

function addTool(result: ConnectionTools, connection: ToolConnection, tool: Tool): void {
  const name = functionNameFor(connection.toolId, tool.name, new Set(Object.keys(result.bindings)));
  result.bindings[name] = { connectionId: connection.id, toolId: connection.toolId, toolName: tool.name };
  result.tools.push({
    type: 'function',
    function: {
      name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.inputSchema as Record<string, unknown>,
    },
  });
}

function parseArguments(value: string | Record<string, unknown>): Record<string, unknown> | undefined {
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The text of a tool result: text blocks as they are, other blocks as short markers. */
export function resultText(result: CallToolResult): string {
  const parts = (result.content ?? []).map((block) => {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'image':
      case 'audio':
        return `[${block.type} ${block.mimeType}]`;
      case 'resource':
        return 'text' in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
      case 'resource_link':
        return `[resource ${block.uri}]`;
      default:
        return '';
    }
  });
  if (parts.length === 0 && result.structuredContent) return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}

export function truncate(text: string, isError: boolean): ToolCallResult {
  if (text.length <= TOOL_RESULT_MAX_CHARS) return { text, isError, truncated: false };
  const cut = text.length - TOOL_RESULT_MAX_CHARS;
  return { text: `${text.slice(0, TOOL_RESULT_MAX_CHARS)}\n[truncated: ${cut} more characters]`, isError, truncated: true };
}

function failure(message: string): ToolCallResult {
  return { text: `Tool error: ${message}`, isError: true, truncated: false };
}
