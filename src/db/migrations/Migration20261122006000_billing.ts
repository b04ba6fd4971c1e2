import { Migration } from '@mikro-orm/migrations';

// Billing: the monthly budget cap per organization, and a daily usage rollup kept by a
// statement-level trigger so usage summaries over long ranges read a few thousand rollup rows
// instead of every usage record (raw records are read only for the partial days at the edges).
export class Migration20261122006000_billing extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "organization_budgets" (
      "organization_id" uuid primary key references "organizations" ("id") on delete cascade,
      "monthly_cap" double precision null check ("monthly_cap" >= 0),
      "version" bigint not null default 1,
      "updated_by" uuid null,
      "updated_at" timestamptz(3) not null
    );`);
    this.addSql(`create table "usage_daily" (
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "day" date not null,
      "model" varchar(200) not null,
      "user_id" uuid not null,
      "requests" bigint not null,
      "input_tokens" bigint not null,
      "output_tokens" bigint not null,
      "cost" double precision not null,
      primary key ("organization_id", "day", "model", "user_id")
    );`);
    // One grouped upsert per INSERT statement (transition table), in key order so concurrent
    // batches lock rollup rows in the same order and cannot deadlock.
    this.addSql(`create function "usage_daily_rollup"() returns trigger language plpgsql as $$
begin
  insert into "usage_daily" as d ("organization_id", "day", "model", "user_id", "requests", "input_tokens", "output_tokens", "cost")
  select "organization_id", ("created_at" at time zone 'UTC')::date, "model", "user_id",
         count(*), sum("input_tokens"), sum("output_tokens"), sum("cost")
  from inserted
  group by 1, 2, 3, 4
  order by 1, 2, 3, 4
  on conflict ("organization_id", "day", "model", "user_id") do update set
    "requests" = d."requests" + excluded."requests",
    "input_tokens" = d."input_tokens" + excluded."input_tokens",
    "output_tokens" = d."output_tokens" + excluded."output_tokens",
    "cost" = d."cost" + excluded."cost";
  return null;
end
$$;`);
    this.addSql(`create trigger "usage_records_daily_rollup" after insert on "usage_records"
      referencing new table as inserted for each statement execute function "usage_daily_rollup"();`);
    this.addSql(`insert into "usage_daily" ("organization_id", "day", "model", "user_id", "requests", "input_tokens", "output_tokens", "cost")
      select "organization_id", ("created_at" at time zone 'UTC')::date, "model", "user_id",
             count(*), sum("input_tokens"), sum("output_tokens"), sum("cost")
      from "usage_records" group by 1, 2, 3, 4;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "usage_records_daily_rollup" on "usage_records";');
    this.addSql('drop function if exists "usage_daily_rollup"();');
    this.addSql('drop table if exists "usage_daily" cascade;');
    this.addSql('drop table if exists "organization_budgets" cascade;');
  }
}
