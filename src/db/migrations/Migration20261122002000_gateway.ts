import { Migration } from '@mikro-orm/migrations';

// Gateway request audit log (indexed for per-organization time ranges) and per-organization DLP policies.
export class Migration20261122002000_gateway extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "gateway_requests" (
      "id" uuid primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "user_id" uuid not null,
      "api_key_id" uuid null,
      "source" varchar(16) not null,
      "run_id" varchar(100) null,
      "request_id" varchar(128) null,
      "model_requested" varchar(200) not null,
      "model" varchar(200) null,
      "provider" varchar(100) null,
      "upstream_model" varchar(200) null,
      "stream" boolean not null,
      "attempts" integer not null,
      "outcome" varchar(16) not null,
      "status" integer not null,
      "error_code" varchar(64) null,
      "latency_ms" integer not null,
      "input_tokens" integer not null,
      "output_tokens" integer not null,
      "estimated" boolean not null,
      "cost" double precision not null,
      "dlp_findings" jsonb not null,
      "prompt_text" text null,
      "created_at" timestamptz(3) not null
    );`);
    this.addSql(`create index "gateway_requests_org_created_index" on "gateway_requests" ("organization_id", "created_at");`);
    this.addSql(`create table "dlp_policies" (
      "organization_id" uuid primary key references "organizations" ("id") on delete cascade,
      "actions" jsonb not null,
      "updated_by" uuid null,
      "updated_at" timestamptz(3) not null
    );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "dlp_policies" cascade;');
    this.addSql('drop table if exists "gateway_requests" cascade;');
  }
}
