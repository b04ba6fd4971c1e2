import { Migration } from '@mikro-orm/migrations';

// Stored Responses API answers: the response and its conversation, and each output
// item for `item_reference`, as ciphertext only; rows go with their organization.
export class Migration20261127064435_gateway_responses extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "gateway_responses" (
      "id" varchar(80) primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "payload_ciphertext" text not null,
      "created_at" timestamptz(3) not null,
      "expires_at" timestamptz(3) not null
    );`);
    this.addSql('create index "gateway_responses_expires_at_index" on "gateway_responses" ("expires_at");');
    this.addSql(`create table "gateway_response_items" (
      "id" varchar(80) primary key,
      "organization_id" uuid not null references "organizations" ("id") on delete cascade,
      "response_id" varchar(80) not null references "gateway_responses" ("id") on delete cascade,
      "item_ciphertext" text not null,
      "expires_at" timestamptz(3) not null
    );`);
    this.addSql('create index "gateway_response_items_response_id_index" on "gateway_response_items" ("response_id");');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "gateway_response_items";');
    this.addSql('drop table if exists "gateway_responses";');
  }
}
