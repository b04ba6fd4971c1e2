// The committed migrations, in order. A feature appends its own; a migration never changes once
// it has landed on main.
import { Migration20261122000000_identity } from './Migration20261122000000_identity.js';
import { Migration20261122000100_usage } from './Migration20261122000100_usage.js';
import { Migration20261122001000_sessions_invitations_audit } from './Migration20261122001000_sessions_invitations_audit.js';
import { Migration20261122002000_gateway } from './Migration20261122002000_gateway.js';
import { Migration20261122003000_automations } from './Migration20261122003000_automations.js';
import { Migration20261122004000_skills } from './Migration20261122004000_skills.js';
import { Migration20261122005000_tool_connections } from './Migration20261122005000_tool_connections.js';
import { Migration20261122006000_billing } from './Migration20261122006000_billing.js';
import { Migration20261122006100_usage_hourly } from './Migration20261122006100_usage_hourly.js';
import { Migration20261122007000_webhooks_assistants } from './Migration20261122007000_webhooks_assistants.js';
import { Migration20261122008000_automation_skills } from './Migration20261122008000_automation_skills.js';
import { Migration20261125020000_run_identity } from './Migration20261125020000_run_identity.js';
import { Migration20261125050000_run_retry_of } from './Migration20261125050000_run_retry_of.js';
import { Migration20261125060000_api_key_limits } from './Migration20261125060000_api_key_limits.js';
import { Migration20261125070000_gateway_cache } from './Migration20261125070000_gateway_cache.js';
import { Migration20261125090000_automation_run_counts } from './Migration20261125090000_automation_run_counts.js';
import { Migration20261127064435_gateway_responses } from './Migration20261127064435_gateway_responses.js';
import { Migration20261127100000_tool_approvals } from './Migration20261127100000_tool_approvals.js';
import { Migration20261127110000_api_key_ancestors } from './Migration20261127110000_api_key_ancestors.js';
import { Migration20261127130000_execution_deliveries } from './Migration20261127130000_execution_deliveries.js';
import { Migration20261127190000_response_rows } from './Migration20261127190000_response_rows.js';

export const migrationsList = [
  { name: 'Migration20261122000000_identity', class: Migration20261122000000_identity },
  { name: 'Migration20261122000100_usage', class: Migration20261122000100_usage },
  { name: 'Migration20261122001000_sessions_invitations_audit', class: Migration20261122001000_sessions_invitations_audit },
  { name: 'Migration20261122002000_gateway', class: Migration20261122002000_gateway },
  { name: 'Migration20261122003000_automations', class: Migration20261122003000_automations },
  { name: 'Migration20261122004000_skills', class: Migration20261122004000_skills },
  { name: 'Migration20261122005000_tool_connections', class: Migration20261122005000_tool_connections },
  { name: 'Migration20261122006000_billing', class: Migration20261122006000_billing },
  { name: 'Migration20261122006100_usage_hourly', class: Migration20261122006100_usage_hourly },
  { name: 'Migration20261122007000_webhooks_assistants', class: Migration20261122007000_webhooks_assistants },
  { name: 'Migration20261122008000_automation_skills', class: Migration20261122008000_automation_skills },
  { name: 'Migration20261125020000_run_identity', class: Migration20261125020000_run_identity },
  { name: 'Migration20261125050000_run_retry_of', class: Migration20261125050000_run_retry_of },
  { name: 'Migration20261125060000_api_key_limits', class: Migration20261125060000_api_key_limits },
  { name: 'Migration20261125070000_gateway_cache', class: Migration20261125070000_gateway_cache },
  { name: 'Migration20261125090000_automation_run_counts', class: Migration20261125090000_automation_run_counts },
  { name: 'Migration20261127064435_gateway_responses', class: Migration20261127064435_gateway_responses },
  { name: 'Migration20261127100000_tool_approvals', class: Migration20261127100000_tool_approvals },
  { name: 'Migration20261127110000_api_key_ancestors', class: Migration20261127110000_api_key_ancestors },
  { name: 'Migration20261127130000_execution_deliveries', class: Migration20261127130000_execution_deliveries },
  { name: 'Migration20261127190000_response_rows', class: Migration20261127190000_response_rows },
];
