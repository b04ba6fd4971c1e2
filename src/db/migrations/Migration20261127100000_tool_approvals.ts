import { Migration } from '@mikro-orm/migrations';

// Human approval of tool calls: the policy columns (an automation's and an assistant's
// `toolApprovals`, a connection's default, a skill version's `approvalRequired`; all empty by
// default, so nothing changes for existing rows) and one row per approval request. A request
// belongs to a run (`run_id`, gone with the run) or to a webhook execution (`execution_id`);
// `notified_channels` lists the channel indexes the request was sent to (a retried send skips them).
export class Migration20261127100000_tool_approvals extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "automations" add column "tool_approvals" jsonb not null default '{}';`);
    this.addSql(`alter table "assistants" add column "tool_approvals" jsonb not null default '{}';`);
    this.addSql(`alter table "tool_connections" add column "tool_approvals" jsonb not null default '{}';`);
    this.addSql(`alter table "skill_versions" add column "approval_required" jsonb not null default '[]';`);
    this.addSql(`create table "tool_approvals" (
      "id" uuid primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "workflow_id" varchar(200) not null,
      "run_id" uuid null references "automation_runs" ("id") on delete cascade,
      "automation_id" uuid null,
      "execution_id" varchar(64) null,
      "assistant_id" uuid null,
      "owner_id" uuid not null,
      "tool" varchar(320) not null,
      "arguments" text not null,
      "requested_at" timestamptz(3) not null,
      "expires_at" timestamptz(3) not null,
      "status" varchar(16) not null,
      "decided_at" timestamptz(3) null,
      "decided_by" uuid null,
      "decided_via" varchar(16) null,
      "decided_channel" varchar(500) null,
      "reason" text null,
      "notified_channels" jsonb not null default '[]'
    );`);
    this.addSql(`create index "tool_approvals_organization_index" on "tool_approvals" ("organization_id", "status", "requested_at");`);
    this.addSql(`create index "tool_approvals_run_index" on "tool_approvals" ("run_id");`);
    this.addSql(`create index "tool_approvals_execution_index" on "tool_approvals" ("execution_id");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "tool_approvals";');
    this.addSql('alter table "skill_versions" drop column if exists "approval_required";');
    this.addSql('alter table "tool_connections" drop column if exists "tool_approvals";');
    this.addSql('alter table "assistants" drop column if exists "tool_approvals";');
    this.addSql('alter table "automations" drop column if exists "tool_approvals";');
  }
}
