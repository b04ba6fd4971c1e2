import { Migration } from '@mikro-orm/migrations';

// Organizations, users and API keys.
export class Migration20261122000000_identity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "organizations" (
      "id" uuid primary key,
      "name" varchar(200) not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz(3) not null
    );`);
    this.addSql(`create table "users" (
      "id" uuid primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "email" varchar(320) not null,
      "name" varchar(200) not null default '',
      "role" varchar(16) not null check ("role" in ('owner', 'admin', 'member')),
      "status" varchar(16) not null check ("status" in ('active', 'invited', 'disabled')),
      "password_hash" text null,
      "last_login_at" timestamptz(3) null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz(3) not null
    );`);
    this.addSql(`create unique index "users_email_unique" on "users" ("email");`);
    this.addSql(`create index "users_organization_id_index" on "users" ("organization_id");`);
    this.addSql(`create table "api_keys" (
      "id" uuid primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "name" varchar(200) not null,
      "key_hash" varchar(64) not null,
      "prefix" varchar(20) not null,
      "created_at" timestamptz(3) not null,
      "last_used_at" timestamptz(3) null,
      "revoked_at" timestamptz(3) null
    );`);
    this.addSql(`create unique index "api_keys_key_hash_unique" on "api_keys" ("key_hash");`);
    this.addSql(`create index "api_keys_organization_id_index" on "api_keys" ("organization_id");`);
    this.addSql(`create index "api_keys_user_id_index" on "api_keys" ("user_id");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "api_keys" cascade;');
    this.addSql('drop table if exists "users" cascade;');
    this.addSql('drop table if exists "organizations" cascade;');
  }
}
