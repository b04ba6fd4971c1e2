import { Migration } from '@mikro-orm/migrations';

// Missed fires (docs/design.md "Missed fires"): an automation counts the fires missed while
// workers or the Temporal server were down and not caught up (`missed_fires`, apart from
// overlap's `skipped_fires`); a scheduled or catch-up run records the time its fire was due.
export class Migration20261128200000_missed_fires extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "automations" add column "missed_fires" integer not null default 0;`);
    this.addSql(`alter table "automation_runs" add column "scheduled_for" timestamptz(3) null;`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "automation_runs" drop column if exists "scheduled_for";');
    this.addSql('alter table "automations" drop column if exists "missed_fires";');
  }
}
