import { Migration } from '@mikro-orm/migrations';

// Keys created with a key: each key's ancestors, nearest first (depth 1 = the key
// that created it). Spend through a key counts against every budgeted key above it, a key's
// limits are read with its ancestors' at authentication, and revoking a key revokes the keys
// created under it. A closure table: both questions ("who is above K", "who is under K") are one
// indexed lookup, and keys never move.
export class Migration20261127110000_api_key_ancestors extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "api_key_ancestors" (
      "key_id" uuid not null references "api_keys" ("id") on delete cascade,
      "ancestor_id" uuid not null references "api_keys" ("id") on delete cascade,
      "depth" integer not null check ("depth" >= 1),
      primary key ("key_id", "ancestor_id"));`);
    this.addSql('create index "api_key_ancestors_ancestor_index" on "api_key_ancestors" ("ancestor_id");');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "api_key_ancestors";');
  }
}
