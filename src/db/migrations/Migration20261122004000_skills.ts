import { Migration } from '@mikro-orm/migrations';

// Skills and their immutable versions. (skill_id, version) is the primary key, so two
// concurrent version creations can never share a number; a trigger refuses any UPDATE of a
// version's content, so immutability holds for every code path, not only the API. (Only
// created_by_id may change: deleting a user sets it to null.)
export class Migration20261122004000_skills extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "skills" (
      "id" uuid primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "created_by_id" uuid null references "users" ("id") on delete set null,
      "name" varchar(100) not null,
      "description" varchar(2000) not null,
      "category" varchar(40) not null,
      "visibility" varchar(16) not null check ("visibility" in ('private', 'team', 'public')),
      "status" varchar(16) not null check ("status" in ('draft', 'published')),
      "current_version" integer not null default 0 check ("current_version" >= 0),
      "published_at" timestamptz(3) null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz(3) not null
    );`);
    this.addSql(`create index "skills_organization_created_index" on "skills" ("organization_id", "created_at" desc);`);
    this.addSql(`create index "skills_public_created_index" on "skills" ("created_at" desc) where "visibility" = 'public';`);
    this.addSql(`create table "skill_versions" (
      "skill_id" uuid not null references "skills" ("id") on delete cascade,
      "version" integer not null check ("version" >= 1),
      "system_prompt" text not null,
      "tools" jsonb not null default '[]',
      "model_tier" varchar(16) not null check ("model_tier" in ('standard', 'premium', 'enterprise')),
      "notes" text null,
      "created_by_id" uuid null references "users" ("id") on delete set null,
      "created_at" timestamptz(3) not null,
      constraint "skill_versions_pkey" primary key ("skill_id", "version")
    );`);
    this.addSql(`create function "skill_versions_refuse_update"() returns trigger language plpgsql as $$
      begin
        if (new."skill_id", new."version", new."system_prompt", new."tools", new."model_tier", new."notes", new."created_at")
          is distinct from (old."skill_id", old."version", old."system_prompt", old."tools", old."model_tier", old."notes", old."created_at") then
          raise exception 'skill versions are immutable' using errcode = 'restrict_violation';
        end if;
        return new;
      end;
    $$;`);
    this.addSql(`create trigger "skill_versions_immutable" before update on "skill_versions"
      for each row execute function "skill_versions_refuse_update"();`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "skill_versions" cascade;');
    this.addSql('drop function if exists "skill_versions_refuse_update"();');
    this.addSql('drop table if exists "skills" cascade;');
  }
}
