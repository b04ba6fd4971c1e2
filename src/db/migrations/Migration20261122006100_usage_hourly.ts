import { Migration } from '@mikro-orm/migrations';

// Billing: an hourly usage rollup beside the daily one. A usage range then reads whole days from
// usage_daily, whole hours of its edge days from usage_hourly and only the partial hours at its
// very ends from usage_records, so its cost no longer grows with the organization's volume.
// One trigger function now keeps both rollups.
export class Migration20261122006100_usage_hourly extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "usage_hourly" (
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "hour" timestamptz(0) not null,
      "model" varchar(200) not null,
      "user_id" uuid not null,
      "requests" bigint not null,
      "input_tokens" bigint not null,
      "output_tokens" bigint not null,
      "cost" double precision not null,
      primary key ("organization_id", "hour", "model", "user_id")
    );`);
    this.addSql('drop trigger if exists "usage_records_daily_rollup" on "usage_records";');
    this.addSql('drop function if exists "usage_daily_rollup"();');
    // One grouped upsert per rollup per INSERT statement (transition table), in key order so
    // concurrent batches lock rollup rows in the same order and cannot deadlock.
    this.addSql(`create function "usage_rollup"() returns trigger language plpgsql as $$
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
  insert into "usage_hourly" as h ("organization_id", "hour", "model", "user_id", "requests", "input_tokens", "output_tokens", "cost")
  select "organization_id", date_trunc('hour', "created_at" at time zone 'UTC') at time zone 'UTC', "model", "user_id",
         count(*), sum("input_tokens"), sum("output_tokens"), sum("cost")
  from inserted
  group by 1, 2, 3, 4
  order by 1, 2, 3, 4
  on conflict ("organization_id", "hour", "model", "user_id") do update set
    "requests" = h."requests" + excluded."requests",
    "input_tokens" = h."input_tokens" + excluded."input_tokens",
    "output_tokens" = h."output_tokens" + excluded."output_tokens",
    "cost" = h."cost" + excluded."cost";
  return null;
end
$$;`);
    this.addSql(`create trigger "usage_records_rollup" after insert on "usage_records"
      referencing new table as inserted for each statement execute function "usage_rollup"();`);
    this.addSql(`insert into "usage_hourly" ("organization_id", "hour", "model", "user_id", "requests", "input_tokens", "output_tokens", "cost")
      select "organization_id", date_trunc('hour', "created_at" at time zone 'UTC') at time zone 'UTC', "model", "user_id",
             count(*), sum("input_tokens"), sum("output_tokens"), sum("cost")
      from "usage_records" group by 1, 2, 3, 4;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "usage_records_rollup" on "usage_records";');
    this.addSql('drop function if exists "usage_rollup"();');
    this.addSql('drop table if exists "usage_hourly" cascade;');
  }
}
