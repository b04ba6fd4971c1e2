import { Migration } from '@mikro-orm/migrations';

// Gateway response cache: a request answered from the cache is audited and metered like any
// other, flagged `cached` (its usage record costs 0: nothing was called upstream).
export class Migration20261125070000_gateway_cache extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "gateway_requests" add column "cached" boolean not null default false;');
    this.addSql('alter table "usage_records" add column "cached" boolean not null default false;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "usage_records" drop column "cached";');
    this.addSql('alter table "gateway_requests" drop column "cached";');
  }
}
