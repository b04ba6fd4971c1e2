import { Migration } from '@mikro-orm/migrations';

// Run counts per automation and status, kept by triggers (lists at 1M rows): the runs
// page's `total` and the automation's run summary were `count(*)` over every run of the
// automation (~300 ms at 1M runs); now they read at most three rows. Insert and delete move the
// run's status count; an update moves it only when the status changed. Concurrent runs of one
// automation serialise briefly on its counter row, once per run start and finish. A bulk load of
// many runs of one automation in one transaction (bench/lists) disables the insert trigger and
// fills the counts with one grouped insert instead, as the backfill below does.
export class Migration20261125090000_automation_run_counts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "automation_run_counts" (
      "automation_id" uuid not null references "automations" ("id") on delete cascade,
      "status" varchar(16) not null,
      "runs" bigint not null default 0,
      primary key ("automation_id", "status")
    );`);
    this.addSql(`create function "automation_run_counts_apply"() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then
          update "automation_run_counts" set "runs" = "runs" - 1
            where "automation_id" = old."automation_id" and "status" = old."status";
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          insert into "automation_run_counts" ("automation_id", "status", "runs") values (new."automation_id", new."status", 1)
            on conflict ("automation_id", "status") do update set "runs" = "automation_run_counts"."runs" + 1;
        end if;
        return null;
      end $$;`);
    this.addSql(`create trigger "automation_run_counts_insert_delete" after insert or delete on "automation_runs"
      for each row execute function "automation_run_counts_apply"();`);
    this.addSql(`create trigger "automation_run_counts_status" after update of "status" on "automation_runs"
      for each row when (old."status" is distinct from new."status" or old."automation_id" is distinct from new."automation_id")
      execute function "automation_run_counts_apply"();`);
    this.addSql(`insert into "automation_run_counts" ("automation_id", "status", "runs")
      select "automation_id", "status", count(*) from "automation_runs" group by "automation_id", "status";`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "automation_run_counts_status" on "automation_runs";');
    this.addSql('drop trigger if exists "automation_run_counts_insert_delete" on "automation_runs";');
    this.addSql('drop function if exists "automation_run_counts_apply"();');
    this.addSql('drop table if exists "automation_run_counts";');
  }
}
