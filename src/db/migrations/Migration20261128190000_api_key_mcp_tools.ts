import { Migration } from '@mikro-orm/migrations';

// The MCP gateway: an API key's `mcpTools`, the tools it reaches through /v1/mcp
// (exact names or `<toolId>__*`); null = every tool of its user, [] = none. Set at creation only.
export class Migration20261128190000_api_key_mcp_tools extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "api_keys" add column "mcp_tools" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "api_keys" drop column if exists "mcp_tools";');
  }
}
