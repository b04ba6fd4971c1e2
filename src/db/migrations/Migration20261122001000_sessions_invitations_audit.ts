import { Migration } from '@mikro-orm/migrations';

// Browser sessions, invitations (tokens stored hashed) and the security audit log.
export class Migration20261122001000_sessions_invitations_audit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sessions" (
      "id" uuid primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "token_hash" varchar(64) not null,
      "method" varchar(16) not null,
      "created_at" timestamptz(3) not null,
      "expires_at" timestamptz(3) not null,
      "absolute_expires_at" timestamptz(3) not null,
      "last_seen_at" timestamptz(3) not null
    );`);
    this.addSql(`create unique index "sessions_token_hash_unique" on "sessions" ("token_hash");`);
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);
    this.addSql(`create table "invitations" (
      "id" uuid primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "token_hash" varchar(64) not null,
      "invited_by" uuid null,
      "expires_at" timestamptz(3) not null,
      "accepted_at" timestamptz(3) null,
      "created_at" timestamptz(3) not null
    );`);
    this.addSql(`create unique index "invitations_token_hash_unique" on "invitations" ("token_hash");`);
    this.addSql(`create index "invitations_user_id_index" on "invitations" ("user_id");`);
    this.addSql(`create table "audit_logs" (
      "id" uuid primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "actor_user_id" uuid null,
      "actor_api_key_id" uuid null,
      "action" varchar(64) not null,
      "target_type" varchar(32) null,
      "target_id" varchar(100) null,
      "metadata" jsonb not null default '{}',
      "request_id" varchar(128) null,
      "created_at" timestamptz(3) not null
    );`);
    this.addSql(`create index "audit_logs_org_created_index" on "audit_logs" ("organization_id", "created_at" desc, "id" desc);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "audit_logs" cascade;');
    this.addSql('drop table if exists "invitations" cascade;');
    this.addSql('drop table if exists "sessions" cascade;');
  }
}
