import { Migration } from '@mikro-orm/migrations';

// A stored response is one row (`store: true` within 10% of chat completions): item ids
// now carry their response's id (responses.service.ts ResponseIdSequence), so new responses write
// no gateway_response_items rows; the items stored before stay readable there until they expire,
// and a later migration drops the table. The insert on the answer's path gets cheaper too:
// - no foreign key to organizations: its check locked the organization's row (FOR KEY SHARE) on
//   every insert, from every API process at once. Every read is scoped by organization, so rows
//   of an organization that is gone are unreachable, and the retention purge removes them;
// - ids compare bytewise (collation "C"): they are ASCII, and the primary key's comparisons
//   were the collation's;
// - `expires_at` gets a BRIN index (rows arrive in expiry order) instead of a B-tree: the hourly
//   purge still finds them by range, and an insert no longer updates a second B-tree.
export class Migration20261127190000_response_rows extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "gateway_responses" drop constraint if exists "gateway_responses_organization_id_fkey";');
    this.addSql('alter table "gateway_response_items" alter column "response_id" type varchar(80) collate "C";');
    this.addSql('alter table "gateway_responses" alter column "id" type varchar(80) collate "C";');
    this.addSql('drop index if exists "gateway_responses_expires_at_index";');
    this.addSql('create index "gateway_responses_expires_at_brin" on "gateway_responses" using brin ("expires_at");');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "gateway_responses_expires_at_brin";');
    this.addSql('create index "gateway_responses_expires_at_index" on "gateway_responses" ("expires_at");');
    this.addSql('alter table "gateway_responses" alter column "id" type varchar(80) collate "default";');
    this.addSql('alter table "gateway_response_items" alter column "response_id" type varchar(80) collate "default";');
    this.addSql('delete from "gateway_responses" r where not exists (select 1 from "organizations" o where o."id" = r."organization_id");');
    this.addSql('alter table "gateway_responses" add constraint "gateway_responses_organization_id_fkey" foreign key ("organization_id") references "organizations" ("id") on delete cascade;');
  }
}
