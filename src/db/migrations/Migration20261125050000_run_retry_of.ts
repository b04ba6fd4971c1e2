import { Migration } from '@mikro-orm/migrations';

// Runs may retry an earlier run (POST /automations/{id}/runs/{runId}/retry): the new
// manual run names the one it retries. No foreign key: deleting old runs never fails on a retry.
export class Migration20261125050000_run_retry_of extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "automation_runs" add column "retry_of" uuid null;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "automation_runs" drop column if exists "retry_of";');
  }
}
