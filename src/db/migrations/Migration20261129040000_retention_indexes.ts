import { Migration } from '@mikro-orm/migrations';

// Retention (src/retention/retention.ts) deletes each organization's runs and webhook executions
// older than RUNS_RETENTION_DAYS in batches; these indexes find them without reading the
// organization's whole history (the tables' own indexes lead with the automation and the webhook).
export class Migration20261129040000_retention_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index "automation_runs_org_started_index" on "automation_runs" ("organization_id", "started_at");');
    this.addSql('create index "webhook_executions_org_received_index" on "webhook_executions" ("organization_id", "received_at");');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "webhook_executions_org_received_index";');
    this.addSql('drop index if exists "automation_runs_org_started_index";');
  }
}
