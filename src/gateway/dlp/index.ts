// Data-loss prevention for chat requests and run text: detectors, the scanner and the
// per-organization policy. inspectMessages() is what the gateway calls before any upstream call.
import type { ChatMessage } from '../types.js';
import type { DetectorType } from './detectors.js';
import type { DlpPolicies } from './policy.js';
import { applyPolicy } from './scanner.js';

export { DETECTOR_TYPES, type DetectorType } from './detectors.js';
export { DEFAULT_DLP_POLICY, DLP_ACTIONS, DlpPolicies, type DlpAction, type DlpPolicy, type DlpPolicyView } from './policy.js';
export { applyPolicy, maskText, scanText, type DlpFinding, type DlpTextResult } from './scanner.js';

export interface DlpVerdict {
  /** The messages to send upstream (masked where the policy says mask). */
  messages: ChatMessage[];
  /** Detector type -> matches, over all messages; never the matched text. */
  findings: Record<string, number>;
  /** Types found whose action is block; non-empty means the request must not go upstream. */
  blocked: DetectorType[];
}

/** Scans every message's text (tool results included) under the organization's policy. */
export async function inspectMessages(policies: DlpPolicies, organizationId: string, messages: ChatMessage[]): Promise<DlpVerdict> {
  const policy = await policies.policyFor(organizationId);
  const findings: Record<string, number> = {};
  const blocked = new Set<DetectorType>();
  const out = messages.map((message) => {
    if (!message.content) return message;
    const result = applyPolicy(message.content, policy);
    for (const [type, count] of Object.entries(result.counts)) findings[type] = (findings[type] ?? 0) + count;
    for (const type of result.blocked) blocked.add(type);
    return result.text === message.content ? message : { ...message, content: result.text };
  });
  return { messages: out, findings, blocked: [...blocked] };
}
