import { Migration } from '@mikro-orm/migrations';

// Usage records, indexed for per-organization time-range aggregation (billing).
export class Migration20261122000100_usage extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "usage_records" (
      "id" uuid primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "user_id" uuid not null,
      "api_key_id" uuid null,
      "source" varchar(16) not null,
      "run_id" varchar(100) null,
      "request_id" varchar(128) null,
      "model" varchar(200) not null,
      "provider" varchar(100) not null,
      "upstream_model" varchar(200) not null,
      "input_tokens" integer not null,
      "output_tokens" integer not null,
      "cost" double precision not null,
      "estimated" boolean not null default false,
      "created_at" timestamptz(3) not null
    );`);
    this.addSql(`create index "usage_records_org_created_index" on "usage_records" ("organization_id", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "usage_records" cascade;');
  }
}
