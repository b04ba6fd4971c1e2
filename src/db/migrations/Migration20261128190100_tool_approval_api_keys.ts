import { Migration } from '@mikro-orm/migrations';

// The MCP gateway: an approval request may be a /v1/mcp call waiting for a person,
// made with an API key (no run, no execution). The index finds a key's live request for the same
// call when the client retries it.
export class Migration20261128190100_tool_approval_api_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "tool_approvals" add column "api_key_id" uuid null;`);
    this.addSql(`create index "tool_approvals_api_key_index" on "tool_approvals" ("api_key_id", "tool") where "api_key_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "tool_approvals_api_key_index";');
    this.addSql('alter table "tool_approvals" drop column if exists "api_key_id";');
  }
}
