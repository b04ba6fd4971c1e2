import { Migration } from '@mikro-orm/migrations';

// Automations may run with a skill: the skill and an optional pinned version
// on the automation, and on each run the skill version it actually used (resolved once, when the
// run starts, so an unpinned run keeps one version even if a newer one is published mid-run).
// No foreign key to skills: a deleted or hidden skill fails the run with a visible reason
// instead of silently running without it. Also revokes the webhooks of automations deleted
// before deleting an automation revoked them.
export class Migration20261122008000_automation_skills extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "automations"
      add column "skill_id" uuid null,
      add column "skill_version" integer null,
      add constraint "automations_skill_version_check" check ("skill_version" is null or ("skill_id" is not null and "skill_version" >= 1));`);
    this.addSql(`alter table "automation_runs"
      add column "skill_id" uuid null,
      add column "skill_version" integer null;`);
    this.addSql(`update "webhooks" set "revoked_at" = now()
      where "automation_id" is not null and "revoked_at" is null
        and not exists (select 1 from "automations" where "automations"."id" = "webhooks"."automation_id");`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "automation_runs" drop column if exists "skill_id", drop column if exists "skill_version";');
    this.addSql('alter table "automations" drop constraint if exists "automations_skill_version_check", drop column if exists "skill_id", drop column if exists "skill_version";');
  }
}
