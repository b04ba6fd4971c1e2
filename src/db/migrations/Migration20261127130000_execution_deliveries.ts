import { Migration } from '@mikro-orm/migrations';

// Deliveries of assistants' webhook executions are recorded too (one agent-run
// pipeline): a `channel_deliveries` row belongs to an automation run or to a webhook execution,
// exactly one of the two.
export class Migration20261127130000_execution_deliveries extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "channel_deliveries" alter column "run_id" drop not null;');
    this.addSql('alter table "channel_deliveries" add column "execution_id" varchar(64) null references "webhook_executions" ("id") on delete cascade;');
    this.addSql('alter table "channel_deliveries" add constraint "channel_deliveries_one_owner" check (num_nonnulls("run_id", "execution_id") = 1);');
    this.addSql('create index "channel_deliveries_execution_index" on "channel_deliveries" ("execution_id") where "execution_id" is not null;');
  }

  override async down(): Promise<void> {
    this.addSql('delete from "channel_deliveries" where "run_id" is null;');
    this.addSql('drop index if exists "channel_deliveries_execution_index";');
    this.addSql('alter table "channel_deliveries" drop constraint if exists "channel_deliveries_one_owner";');
    this.addSql('alter table "channel_deliveries" drop column if exists "execution_id";');
    this.addSql('alter table "channel_deliveries" alter column "run_id" set not null;');
  }
}
