// One tools/call through /v1/mcp, as a run's call is made: the key's user must be active and own
// the connection (resolved from the caller's own connections only), a tool under an `always`
// approval waits for a person (approval.ts), the arguments pass the organization's DLP policy
// before they leave, the call runs on the connection's pooled session under a run's timeout, and
// what comes back passes DLP before it leaves to the client (a block is a tool error naming the
// detector; masks are applied in place). The server's content blocks pass through whole (text,
// images, audio, resources, structured content), secret values of the connection redacted.
// Every call is recorded (`tool.called`, metrics) whatever its outcome.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { approvalModeFor, toolKeyOf } from '../approval-policy/policy.js';
import { AppError } from '../errors.js';
import { ConnectorFailure, redact } from '../connectors/mcp-client.js';
import type { ToolCallOutcome } from '../audit/tool-calls.js';
import { TOOL_CALL_TIMEOUT_MS } from '../connectors/tool-use.js';
import { awaitApproval } from './approval.js';
import type { CallContext } from './deps.js';
import { guardTexts, scanTexts, type McpDlpScope } from './dlp.js';
import { ConnectionBusy } from './session-pool.js';
import type { CatalogTool, McpGatewayDeps } from './tool-catalog.js';

export type { CallContext };

export async function callTool(deps: McpGatewayDeps, context: CallContext, tool: CatalogTool, args: Record<string, unknown>): Promise<CallToolResult> {
  const began = performance.now();
  // Queued: the event is written off the call's path (audit/tool-calls.ts).
  const record = (outcome: ToolCallOutcome, extra: { arguments?: string; approvalId?: string } = {}) =>
    deps.toolCalls.record({
      organizationId: context.caller.organizationId,
      actor: { userId: context.caller.userId, apiKeyId: context.caller.apiKeyId },
      tool: toolKeyOf(tool.toolId, tool.toolName),
      via: 'mcp',
      source: { type: 'api_key', id: context.caller.apiKeyId! },
      outcome,
      durationMs: performance.now() - began,
      requestId: context.requestId,
      ...extra,
    });
  let sent: Record<string, unknown>;
  let approvalId: string | undefined;
  try {
    if (!context.ownerActive) throw new AppError('forbidden', "the API key's user is disabled or removed");
    sent = await guardArguments(deps, context, tool, args);
    if (needsApproval(tool)) {
      const decision = await awaitApproval(deps, context, tool, JSON.stringify(sent));
      approvalId = decision.approvalId;
      if (decision.status !== 'approved') {
        record(decision.status === 'pending' ? 'pending' : decision.status === 'denied' ? 'denied' : 'expired', { approvalId });
        return toolError(decision.message);
      }
    }
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // No arguments in the record: they never left, and a blocked text must not land in the audit log.
    record(error.code === 'dlp_blocked' ? 'blocked' : 'refused');
    return toolError(error.message);
  }
  const outcome = await runOnSession(deps, context, tool, sent);
  record(outcome.result.isError ? (outcome.blocked ? 'blocked' : 'error') : 'ok', { arguments: JSON.stringify(sent), ...(approvalId ? { approvalId } : {}) });
  return outcome.result;
}

/** `always` by the connection's default (`toolApprovals`); an MCP client has no automation or skill of its own to say otherwise. */
export function needsApproval(tool: CatalogTool): boolean {
  return approvalModeFor({ skillAlways: [], own: {}, connection: tool.connection.toolApprovals ?? {} }, tool.toolId, tool.toolName) === 'always';
}

/** The arguments as they may leave (masked per the policy); `dlp_blocked` naming the detector when it blocks them. */
async function guardArguments(deps: McpGatewayDeps, context: CallContext, tool: CatalogTool, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const text = JSON.stringify(args);
  const [masked] = await guardTexts(deps, scopeOf(context, `tool:${tool.toolName}`), [text]);
  if (masked === text) return args;
  try {
    return JSON.parse(masked!) as Record<string, unknown>;
  } catch {
    throw new AppError('dlp_blocked', 'The arguments are not valid JSON once masked by the data-loss-prevention policy');
  }
}

/** The call on the pooled session; failures come back as tool errors, as a run's model gets them. */
async function runOnSession(deps: McpGatewayDeps, context: CallContext, tool: CatalogTool, args: Record<string, unknown>): Promise<{ result: CallToolResult; blocked?: boolean }> {
  try {
    return await deps.mcpSessions.use(tool.connection, async ({ session, env }) => {
      const result = await session.callTool(tool.toolName, args, { timeoutMs: TOOL_CALL_TIMEOUT_MS });
      return guardResult(deps, context, tool, result, env);
    });
  } catch (error) {
    if (error instanceof ConnectionBusy) return { result: toolError(error.message) };
    if (!(error instanceof ConnectorFailure)) throw error;
    deps.logger.warn({ connectionId: tool.connection.id, toolId: tool.toolId, stage: error.stage }, 'MCP gateway: tool call failed');
    return { result: toolError(error.message) };
  }
}

/**
 * The result as it may leave: every text the server wrote (text blocks, embedded text resources,
 * structured content) redacted of the connection's secrets, then scanned as one message.
 */
async function guardResult(deps: McpGatewayDeps, context: CallContext, tool: CatalogTool, result: CallToolResult, env: Record<string, string>): Promise<{ result: CallToolResult; blocked?: boolean }> {
  const content = (result.content ?? []).map((block) => ({ ...block }));
  const slots: Array<{ get: () => string; set: (text: string) => void }> = [];
  for (const block of content) {
    if (block.type === 'text') slots.push({ get: () => block.text, set: (text) => (block.text = text) });
    else if (block.type === 'resource' && 'text' in block.resource) {
      const resource = { ...block.resource };
      block.resource = resource;
      slots.push({ get: () => resource.text, set: (text) => (resource.text = text) });
    }
  }
  let structured = result.structuredContent;
  if (structured !== undefined) slots.push({ get: () => JSON.stringify(structured), set: (text) => (structured = parsedOrNothing(text)) });
  const texts = slots.map((slot) => redact(slot.get(), env));
  const guarded = await scanTexts(deps, scopeOf(context, `mcp-client:${tool.name}`), texts);
  if (guarded.blocked.length > 0) {
    return { result: toolError(`the tool's result was blocked by the data-loss-prevention policy: found ${guarded.blocked.join(', ')}`), blocked: true };
  }
  guarded.texts.forEach((text, i) => {
    if (text !== slots[i]!.get()) slots[i]!.set(text);
  });
  const { structuredContent: _original, ...rest } = result;
  return { result: { ...rest, content, ...(structured !== undefined ? { structuredContent: structured } : {}) } };
}

/** Masked structured content that no longer parses is dropped, never sent unmasked. */
function parsedOrNothing(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function scopeOf(context: CallContext, destination: string): McpDlpScope {
  return {
    organizationId: context.caller.organizationId,
    apiKeyId: context.caller.apiKeyId!,
    actor: { userId: context.caller.userId, apiKeyId: context.caller.apiKeyId },
    destination,
    requestId: context.requestId,
  };
}

export function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `Tool error: ${message}` }] };
}
