import { Migration } from '@mikro-orm/migrations';

// Assistants, their (and automations') webhooks, and webhook executions. Automation ids carry no
// foreign key: the automations table belongs to its own migration, and a webhook of a deleted
// automation simply fails its executions.
export class Migration20261122007000_webhooks_assistants extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "assistants" (
      "id" uuid primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "created_by" uuid not null,
      "name" varchar(200) not null,
      "description" text not null default '',
      "system_prompt" text not null,
      "model" varchar(200) not null,
      "skill_id" varchar(100) null,
      "tools" jsonb not null default '[]',
      "channels" jsonb not null default '[]',
      "trigger_type" varchar(16) null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz(3) not null
    );`);
    this.addSql(`create index "assistants_org_created_index" on "assistants" ("organization_id", "created_at");`);

    this.addSql(`create table "webhooks" (
      "id" uuid primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "assistant_id" uuid null references "assistants" ("id") on delete cascade,
      "automation_id" uuid null,
      "token_hash" varchar(64) not null unique,
      "token_encrypted" text not null,
      "token_hint" varchar(16) not null,
      "created_by" uuid not null,
      "created_at" timestamptz(3) not null,
      "revoked_at" timestamptz(3) null,
      constraint "webhooks_one_target" check (("assistant_id" is null) <> ("automation_id" is null))
    );`);
    this.addSql(`create index "webhooks_assistant_index" on "webhooks" ("assistant_id");`);
    this.addSql(`create index "webhooks_automation_index" on "webhooks" ("organization_id", "automation_id");`);

    this.addSql(`create table "webhook_executions" (
      "id" varchar(64) primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "webhook_id" uuid not null,
      "assistant_id" uuid null,
      "automation_id" uuid null,
      "status" varchar(16) not null,
      "output" text null,
      "error" text null,
      "run_id" varchar(100) null,
      "model" varchar(200) null,
      "input_tokens" integer null,
      "output_tokens" integer null,
      "cost" double precision null,
      "received_at" timestamptz(3) not null,
      "started_at" timestamptz(3) null,
      "completed_at" timestamptz(3) null
    );`);
    this.addSql(`create index "webhook_executions_webhook_index" on "webhook_executions" ("webhook_id", "received_at");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "webhook_executions" cascade;');
    this.addSql('drop table if exists "webhooks" cascade;');
    this.addSql('drop table if exists "assistants" cascade;');
  }
}
