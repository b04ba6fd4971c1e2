// Which tool calls wait for a person. A policy maps `<connectorId>__<toolName>` or
// `<connectorId>__*` to `always` (the call waits for an approval) or `never`. It is set on an
// automation or an assistant (`toolApprovals`), as a default on a connection, and a skill version
// lists the tools that always need approval (`approvalRequired`). Pure: schemas and the rule.
import { z } from 'zod';

export const APPROVAL_MODES = ['always', 'never'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];
export type ToolApprovals = Record<string, ApprovalMode>;

/** `<connectorId>__<toolName>` or `<connectorId>__*`: the catalog id, then the MCP server's own tool name. */
export const TOOL_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}__(\*|[^\s*][^\s]{0,199})$/;
const TOOL_KEY_MESSAGE = 'must name a tool as <connectorId>__<toolName> or <connectorId>__*';
export const MAX_POLICY_ENTRIES = 200;

const toolKey = z.string().regex(TOOL_KEY_PATTERN, TOOL_KEY_MESSAGE);

/** A `toolApprovals` object; an error names the entry (`toolApprovals.github__create_issue`). */
export const toolApprovalsSchema = z
  .record(z.string(), z.enum(APPROVAL_MODES, { error: 'must be "always" or "never"' }))
  .superRefine((policy, context) => {
    const keys = Object.keys(policy);
    if (keys.length > MAX_POLICY_ENTRIES) context.addIssue({ code: 'custom', message: `must have at most ${MAX_POLICY_ENTRIES} entries` });
    for (const key of keys) if (!TOOL_KEY_PATTERN.test(key)) context.addIssue({ code: 'custom', path: [key], message: TOOL_KEY_MESSAGE });
  });

/** A skill version's list of tools that always need approval. */
export const approvalRequiredSchema = z
  .array(toolKey)
  .max(MAX_POLICY_ENTRIES, `must list at most ${MAX_POLICY_ENTRIES} tools`);

export interface ApprovalPolicySources {
  /** The skill version's `approvalRequired` (exact names or `<connectorId>__*`). */
  skillAlways: readonly string[];
  /** The automation's or assistant's `toolApprovals`. */
  own: ToolApprovals;
  /** The connection's default `toolApprovals`. */
  connection: ToolApprovals;
}

/**
 * The mode of one tool. Precedence: the skill's `always` wins; then the automation's (or
 * assistant's) exact entry; then its `<connectorId>__*`; then the connection's default (exact,
 * then wildcard); otherwise `never`.
 */
export function approvalModeFor(sources: ApprovalPolicySources, connectorId: string, toolName: string): ApprovalMode {
  const exact = `${connectorId}__${toolName}`;
  const wildcard = `${connectorId}__*`;
  if (sources.skillAlways.includes(exact) || sources.skillAlways.includes(wildcard)) return 'always';
  return entry(sources.own, exact) ?? entry(sources.own, wildcard) ?? entry(sources.connection, exact) ?? entry(sources.connection, wildcard) ?? 'never';
}

/**
 * The tool names `remember` may write into a policy: the alphabet function names are reduced to
 * (src/connectors/tool-use.ts). An MCP server names its own tools; one named `*` would otherwise
 * turn one remembered call into `<connectorId>__*: never`, every tool of the connector.
 */
export const REMEMBERABLE_TOOL_NAME = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * True when `remember` may store `tool` (`<connectorId>__<toolName>`, as an approval names it) as
 * an exact policy key: catalog ids have no `_`, so the name is everything after the first `__`.
 */
export function isRememberableTool(tool: string): boolean {
  const separator = tool.indexOf('__');
  return separator > 0 && TOOL_KEY_PATTERN.test(tool) && REMEMBERABLE_TOOL_NAME.test(tool.slice(separator + 2));
}

/** The policy key an approval names: `<connectorId>__<toolName>`. */
export function toolKeyOf(connectorId: string, toolName: string): string {
  return `${connectorId}__${toolName}`;
}

function entry(policy: ToolApprovals, key: string): ApprovalMode | undefined {
  return Object.hasOwn(policy, key) ? policy[key] : undefined;
}
