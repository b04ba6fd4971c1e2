import { Migration } from '@mikro-orm/migrations';

// Run identity and user lifecycle.
// - Automations and assistants get `owner_id`: the user whose role, connections and skills a run
//   uses. Backfilled from the creator, who was that user until now.
// - Assistants pin `skill_version` like automations do, and every automation or assistant that
//   names a skill without a pin is pinned to that skill's current version: a new skill version
//   no longer changes what an existing automation runs until its owner re-pins.
// - Users are unique per (organization, email) instead of globally, so inviting an address that
//   has an account in another organization succeeds like any other invitation (it used to answer
//   409, telling the inviter the address has an account elsewhere).
export class Migration20261125020000_run_identity extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "automations" add column "owner_id" uuid null;');
    this.addSql('update "automations" set "owner_id" = "created_by";');
    this.addSql('alter table "automations" alter column "owner_id" set not null;');
    this.addSql('create index "automations_owner_index" on "automations" ("organization_id", "owner_id");');
    this.addSql(`update "automations" as a set "skill_version" = s."current_version"
      from "skills" as s
      where a."skill_id" = s."id" and a."skill_version" is null and s."current_version" > 0;`);

    this.addSql('alter table "assistants" add column "owner_id" uuid null, add column "skill_version" integer null;');
    this.addSql('update "assistants" set "owner_id" = "created_by";');
    this.addSql('alter table "assistants" alter column "owner_id" set not null;');
    this.addSql('create index "assistants_owner_index" on "assistants" ("organization_id", "owner_id");');
    this.addSql(`update "assistants" as a set "skill_version" = s."current_version"
      from "skills" as s
      where a."skill_id" = s."id"::text and s."current_version" > 0;`);

    this.addSql('drop index if exists "users_email_unique";');
    this.addSql('create unique index "users_organization_email_unique" on "users" ("organization_id", "email");');
    this.addSql('create index "users_email_index" on "users" ("email");');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "users_email_index";');
    this.addSql('drop index if exists "users_organization_email_unique";');
    this.addSql('create unique index "users_email_unique" on "users" ("email");');
    this.addSql('alter table "assistants" drop column if exists "owner_id", drop column if exists "skill_version";');
    this.addSql('alter table "automations" drop column if exists "owner_id";');
  }
}
