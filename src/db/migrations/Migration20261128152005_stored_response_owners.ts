import { Migration } from '@mikro-orm/migrations';

// Stored responses belong to the user who stored them, refer to their conversation instead of
// copying it, and count against a byte quota per organization:
// - `user_id`: the storing user. Rows stored before have none: nobody knows whose they were, so
//   only the organization's owner and admins read or delete them, and nobody continues them
//   (they expire within RESPONSES_RETENTION_DAYS);
// - `previous_response_id`: the response a row continued; the row keeps only its own input items
//   (and `item_reference`s as references), and a read walks the links;
// - `deleted_at`: DELETE empties the row's content and keeps the link, so later responses of the
//   conversation still resolve the rest of it; the emptied row goes with the retention purge;
// - `gateway_response_bytes`: each organization's running total of stored bytes, updated in the
//   statements that insert, empty and purge rows; it starts from every row there is (expired ones
//   too: the purge subtracts them when it deletes them).
export class Migration20261128152005_stored_response_owners extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "gateway_responses" add column "user_id" uuid null;');
    this.addSql('alter table "gateway_responses" add column "previous_response_id" varchar(80) collate "C" null;');
    this.addSql('alter table "gateway_responses" add column "deleted_at" timestamptz(3) null;');
    this.addSql('create table "gateway_response_bytes" ("organization_id" uuid primary key, "bytes" bigint not null default 0);');
    this.addSql(`insert into "gateway_response_bytes" ("organization_id", "bytes")
      select "organization_id", sum(octet_length("payload_ciphertext")) from "gateway_responses" group by "organization_id";`);
  }

  override async down(): Promise<void> {
    // Rows stored since keep only their own part of the conversation, which the code before cannot read.
    this.addSql('delete from "gateway_responses" where "user_id" is not null;');
    this.addSql('drop table if exists "gateway_response_bytes";');
    this.addSql('alter table "gateway_responses" drop column if exists "deleted_at";');
    this.addSql('alter table "gateway_responses" drop column if exists "previous_response_id";');
    this.addSql('alter table "gateway_responses" drop column if exists "user_id";');
  }
}
