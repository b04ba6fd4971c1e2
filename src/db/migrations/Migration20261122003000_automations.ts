import { Migration } from '@mikro-orm/migrations';

// Automations, their runs (listed per automation, newest first, optionally by status) and the
// channel deliveries that make output delivery idempotent.
export class Migration20261122003000_automations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "automations" (
      "id" uuid primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "created_by" uuid not null,
      "name" varchar(200) not null,
      "description" text not null default '',
      "system_prompt" text not null,
      "model" varchar(200) not null,
      "schedule" varchar(200) not null,
      "timezone" varchar(64) not null,
      "tools" jsonb not null default '[]',
      "channels" jsonb not null default '[]',
      "status" varchar(16) not null,
      "last_run_at" timestamptz(3) null,
      "next_run_at" timestamptz(3) null,
      "skipped_fires" integer not null default 0,
      "state_version" integer not null default 0,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz(3) not null
    );`);
    this.addSql(`create index "automations_org_created_index" on "automations" ("organization_id", "created_at" desc);`);
    this.addSql(`create table "automation_runs" (
      "id" uuid primary key,
      "automation_id" uuid not null references "automations" ("id") on delete cascade,
      "organization_id" uuid not null,
      "trigger" varchar(16) not null,
      "status" varchar(16) not null,
      "started_at" timestamptz(3) not null,
      "completed_at" timestamptz(3) null,
      "duration_ms" integer null,
      "tokens_input" integer not null default 0,
      "tokens_output" integer not null default 0,
      "estimated_cost" double precision not null default 0,
      "output" text null,
      "error" text null,
      "context" jsonb null
    );`);
    this.addSql(`create index "automation_runs_automation_started_index" on "automation_runs" ("automation_id", "started_at" desc, "id" desc);`);
    this.addSql(`create index "automation_runs_automation_status_started_index" on "automation_runs" ("automation_id", "status", "started_at" desc, "id" desc);`);
    this.addSql(`create table "channel_deliveries" (
      "id" varchar(80) primary key,
      "run_id" uuid not null references "automation_runs" ("id") on delete cascade,
      "channel_type" varchar(16) not null,
      "receipt" varchar(500) not null,
      "delivered_at" timestamptz(3) not null
    );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "channel_deliveries" cascade;');
    this.addSql('drop table if exists "automation_runs" cascade;');
    this.addSql('drop table if exists "automations" cascade;');
  }
}
