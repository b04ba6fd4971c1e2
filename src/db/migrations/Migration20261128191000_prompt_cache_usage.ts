import { Migration } from '@mikro-orm/migrations';

// Prompt caching: request and usage records keep the prompt tokens read from and
// written to the upstream's cache (the 1-hour share of the writes apart), usage records what the
// reads saved (USD, their cost at the input price less their cost at the read price), and both
// rollups sum reads, writes and the saving so usage reports show them over any range. Existing
// rows count 0: nothing before this was priced as cached. The rollup function is replaced whole
// (same trigger, same lock order).
export class Migration20261128191000_prompt_cache_usage extends Migration {
  override async up(): Promise<void> {
    for (const table of ['gateway_requests', 'usage_records']) {
      this.addSql(`alter table "${table}" add column "cache_read_tokens" integer not null default 0,
        add column "cache_write_tokens" integer not null default 0,
        add column "cache_write_1h_tokens" integer not null default 0;`);
    }
    this.addSql('alter table "usage_records" add column "cache_saving" double precision not null default 0;');
    for (const table of ['usage_hourly', 'usage_daily']) {
      this.addSql(`alter table "${table}" add column "cache_read_tokens" bigint not null default 0,
        add column "cache_write_tokens" bigint not null default 0,
        add column "cache_saving" double precision not null default 0;`);
    }
    this.addSql(rollupFunction(true));
  }

  override async down(): Promise<void> {
    this.addSql(rollupFunction(false));
    for (const table of ['usage_hourly', 'usage_daily']) {
      this.addSql(`alter table "${table}" drop column "cache_read_tokens", drop column "cache_write_tokens", drop column "cache_saving";`);
    }
    this.addSql('alter table "usage_records" drop column "cache_saving";');
    for (const table of ['gateway_requests', 'usage_records']) {
      this.addSql(`alter table "${table}" drop column "cache_read_tokens", drop column "cache_write_tokens", drop column "cache_write_1h_tokens";`);
    }
  }
}

/** The rollup trigger's function (Migration20261122006100_usage_hourly), with or without the cache columns. */
function rollupFunction(withCache: boolean): string {
  const columns = withCache ? ', "cache_read_tokens", "cache_write_tokens", "cache_saving"' : '';
  const sums = withCache ? ', sum("cache_read_tokens"), sum("cache_write_tokens"), sum("cache_saving")' : '';
  const added = (alias: string) =>
    withCache
      ? `,
    "cache_read_tokens" = ${alias}."cache_read_tokens" + excluded."cache_read_tokens",
    "cache_write_tokens" = ${alias}."cache_write_tokens" + excluded."cache_write_tokens",
    "cache_saving" = ${alias}."cache_saving" + excluded."cache_saving"`
      : '';
  return `create or replace function "usage_rollup"() returns trigger language plpgsql as $$
begin
  insert into "usage_daily" as d ("organization_id", "day", "model", "user_id", "requests", "input_tokens", "output_tokens", "cost"${columns})
  select "organization_id", ("created_at" at time zone 'UTC')::date, "model", "user_id",
         count(*), sum("input_tokens"), sum("output_tokens"), sum("cost")${sums}
  from inserted
  group by 1, 2, 3, 4
  order by 1, 2, 3, 4
  on conflict ("organization_id", "day", "model", "user_id") do update set
    "requests" = d."requests" + excluded."requests",
    "input_tokens" = d."input_tokens" + excluded."input_tokens",
    "output_tokens" = d."output_tokens" + excluded."output_tokens",
    "cost" = d."cost" + excluded."cost"${added('d')};
  insert into "usage_hourly" as h ("organization_id", "hour", "model", "user_id", "requests", "input_tokens", "output_tokens", "cost"${columns})
  select "organization_id", date_trunc('hour', "created_at" at time zone 'UTC') at time zone 'UTC', "model", "user_id",
         count(*), sum("input_tokens"), sum("output_tokens"), sum("cost")${sums}
  from inserted
  group by 1, 2, 3, 4
  order by 1, 2, 3, 4
  on conflict ("organization_id", "hour", "model", "user_id") do update set
    "requests" = h."requests" + excluded."requests",
    "input_tokens" = h."input_tokens" + excluded."input_tokens",
    "output_tokens" = h."output_tokens" + excluded."output_tokens",
    "cost" = h."cost" + excluded."cost"${added('h')};
  return null;
end
$$;`;
}
