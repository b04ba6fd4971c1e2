import { Migration } from '@mikro-orm/migrations';

// Users' connections to MCP connectors; the connector variables are stored encrypted.
export class Migration20261122005000_tool_connections extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "tool_connections" (
      "id" uuid primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "tool_id" varchar(100) not null,
      "name" varchar(200) not null,
      "env_ciphertext" text not null,
      "env_names" jsonb not null,
      "status" varchar(16) not null check ("status" in ('connected', 'error')),
      "connected_at" timestamptz(3) null,
      "last_tested_at" timestamptz(3) null,
      "test_result" text null,
      "tool_names" jsonb null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz(3) not null
    );`);
    this.addSql(`create index "tool_connections_owner_index" on "tool_connections" ("organization_id", "user_id", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "tool_connections" cascade;');
  }
}
