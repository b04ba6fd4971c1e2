// Approvals of interactive calls: until /v1/mcp can wait for a person, a tool under an `always`
// approval is refused (deny by default), never run unapproved.
import type { CallContext, McpGatewayDeps } from './deps.js';
import type { CatalogTool } from './tool-catalog.js';

export interface ApprovalDecision {
  status: 'approved' | 'denied' | 'expired' | 'pending';
  approvalId?: string | undefined;
  /** What the client is told when the call does not run. */
  message: string;
}

export async function awaitApproval(_deps: McpGatewayDeps, _context: CallContext, tool: CatalogTool, _argumentsText: string): Promise<ApprovalDecision> {
  return { status: 'denied', message: `${tool.name} needs a person's approval, which /v1/mcp cannot ask for yet` };
}
