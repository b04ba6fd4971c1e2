// The contract of `mcp/<approvalId>` (./mcp-approval.ts), the short workflow a /v1/mcp tool call
// under an `always` approval waits on: its id, input and outcome, and the two updates the API
// sends (wait for the decision; claim the approved call, once). Decisions reach it as the approval
// signals every waiting workflow takes (approvals.contract.ts).
import { defineUpdate } from '@temporalio/workflow';

export const mcpApprovalWorkflowId = (approvalId: string): string => `mcp/${approvalId}`;

export interface McpApprovalInput {
  organizationId: string;
  approvalId: string;
  /** ISO time: past it, undecided, the request expires. */
  expiresAt: string;
}

export interface McpApprovalOutcome {
  status: 'approved' | 'denied' | 'expired' | 'cancelled';
  reason: string | null;
}

/** Resolves with the outcome once the request is decided or expired (at once when it already is). */
export const awaitMcpDecisionUpdate = defineUpdate<McpApprovalOutcome>('awaitDecision');
/** True for the first claim of an approved call, false for every other: an approval runs one call. */
export const claimMcpCallUpdate = defineUpdate<boolean>('claimApprovedCall');
