import { Migration } from '@mikro-orm/migrations';

// A session opened by exchanging an API key (POST /v1/auth/api-key, the console's key sign-in)
// remembers the key: it ends when the key is revoked (checked on each request), and goes with
// the key's row.
export class Migration20261128203000_session_api_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sessions" add column "api_key_id" uuid null references "api_keys" ("id") on update cascade on delete cascade;`);
    this.addSql(`create index "sessions_api_key_id_index" on "sessions" ("api_key_id") where "api_key_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "sessions" drop column if exists "api_key_id";');
  }
}
