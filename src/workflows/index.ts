// Every workflow the worker runs. Deterministic code only: no I/O, clock or randomness outside
// the SDK's deterministic APIs.
export { automationWorkflow } from './automation.js';
export { diagnosticsWorkflow } from './diagnostics.js';
export { runWorkflow } from './run.js';
export { webhookExecutionWorkflow } from './webhook-execution.js';
export { mcpApprovalWorkflow } from './mcp-approval.js';
