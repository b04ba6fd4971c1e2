import { Migration } from '@mikro-orm/migrations';

// Per-key gateway controls: an allow-list of model and tier ids (null = every
// model), a monthly budget in USD and a requests-per-minute limit (null = the organization's
// defaults). The index serves a key's spend this month (budget initialisation, GET /api-keys).
export class Migration20261125060000_api_key_limits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "api_keys"
      add column "models" jsonb null,
      add column "monthly_budget" double precision null check ("monthly_budget" >= 0),
      add column "rate_limit_per_minute" integer null check ("rate_limit_per_minute" >= 1);`);
    this.addSql(`create index "usage_records_api_key_created_index" on "usage_records" ("api_key_id", "created_at") where "api_key_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "usage_records_api_key_created_index";');
    this.addSql('alter table "api_keys" drop column if exists "models", drop column if exists "monthly_budget", drop column if exists "rate_limit_per_minute";');
  }
}
