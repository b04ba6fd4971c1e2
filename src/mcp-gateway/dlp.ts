// DLP on what crosses /v1/mcp: the arguments an MCP client sends to a connection's server (as a
// run's call is scanned), and what comes back, which leaves the organization to a client here:
// tool results and the tool descriptions a remote server wrote (untrusted text). Same policy and
// actions as the gateway's scan (src/gateway/dlp): block refuses naming the detector types, mask
// replaces the matches, log passes. Several texts of one message are scanned under one policy
// read and recorded as one audit event (types and counts, never the matched text).
import { recordAuditEvent } from '../audit/audit.service.js';
import { AppError } from '../errors.js';
import type { OutgoingDlpDeps } from '../gateway/dlp/outgoing.js';
import { applyPolicyAsync } from '../gateway/dlp/scanner.js';
import { metrics } from '../metrics.js';

export interface McpDlpScope {
  organizationId: string;
  /** The API key the texts travel for (the audit event's target). */
  apiKeyId: string;
  actor: { userId: string; apiKeyId?: string | undefined };
  /** `tool:<name>` (arguments), `mcp-client:<name>` (a result), `mcp-client:tools/list` (descriptions). */
  destination: string;
  requestId?: string | undefined;
}

export interface GuardedTexts {
  texts: string[];
  /** Detector types whose action is block, found in any of the texts (nothing was masked for them). */
  blocked: string[];
}

/** The texts as they may pass (masked per the policy), and the block types found; records findings. */
export async function scanTexts(deps: OutgoingDlpDeps, scope: McpDlpScope, texts: readonly string[]): Promise<GuardedTexts> {
  const policy = await deps.gateway.dlpPolicies.policyFor(scope.organizationId);
  const results = await Promise.all(texts.map((text) => applyPolicyAsync(text, policy)));
  const counts: Record<string, number> = {};
  const blocked = new Set<string>();
  for (const result of results) {
    for (const [type, count] of Object.entries(result.counts)) counts[type] = (counts[type] ?? 0) + (count ?? 0);
    for (const type of result.blocked) blocked.add(type);
  }
  if (Object.keys(counts).length > 0) await recordFindings(deps, scope, counts, [...blocked], results.some((result, i) => result.text !== texts[i]));
  for (const detector of blocked) metrics.dlpBlocks.inc({ detector });
  return { texts: results.map((result) => result.text), blocked: [...blocked] };
}

/** Like scanTexts, but a block is thrown as AppError `dlp_blocked` naming the detector types. */
export async function guardTexts(deps: OutgoingDlpDeps, scope: McpDlpScope, texts: readonly string[]): Promise<string[]> {
  const guarded = await scanTexts(deps, scope, texts);
  if (guarded.blocked.length > 0) throw blockedError(scope.destination, guarded.blocked);
  return guarded.texts;
}

export function blockedError(destination: string, detectors: readonly string[]): AppError {
  return new AppError('dlp_blocked', `Blocked by the data-loss-prevention policy before ${destination}: found ${detectors.join(', ')}`, {
    details: { detectors: [...detectors] },
  });
}

async function recordFindings(deps: OutgoingDlpDeps, scope: McpDlpScope, findings: Record<string, number>, blocked: string[], masked: boolean): Promise<void> {
  const em = deps.orm.em.fork();
  recordAuditEvent(em, {
    organizationId: scope.organizationId,
    actor: scope.actor,
    action: blocked.length > 0 ? 'dlp.blocked' : 'dlp.scanned',
    target: { type: 'api_key', id: scope.apiKeyId },
    metadata: { destination: scope.destination, findings, blocked, masked },
    requestId: scope.requestId,
    at: deps.clock.now(),
  });
  await em.flush();
}
