// Stored Responses API answers (`store`, the default): per organization and storing user, one row
// per response with the response object and the input items of its own request (earlier turns by
// `previousResponseId`, referenced items by reference: never copied); an item id names its
// response, so an `item_reference` reads that row.
// Everything a client sent or got back is kept only as SecretBox ciphertext (AES-256-GCM under
// SECRET_KEY); ids, owners, links and times stay in clear. Rows past `expiresAt`, and deleted
// ones (`deletedAt`: content emptied, link kept), read as absent.
import { EntitySchema } from '@mikro-orm/core';

export class StoredResponse {
  /** `resp_...` */
  id!: string;
  organizationId!: string;
  /** The user whose key (or session) stored it; null for rows stored before owners were kept. */
  userId!: string | null;
  /** The response it continued (`previous_response_id`), whose conversation it does not copy. */
  previousResponseId!: string | null;
  /**
   * SecretBox ciphertext of `{response, input}` (responses.service.ts); rows stored before
   * conversations were referred to keep `{response, conversation}`; empty once deleted.
   */
  payloadCiphertext!: string;
  createdAt!: Date;
  expiresAt!: Date;
  /** When DELETE emptied it; the row stays (without content) until it expires, for the link. */
  deletedAt!: Date | null;
}

export const StoredResponseSchema = new EntitySchema<StoredResponse>({
  class: StoredResponse,
  tableName: 'gateway_responses',
  properties: {
    id: { type: 'string', length: 80, primary: true },
    organizationId: { type: 'uuid' },
    userId: { type: 'uuid', nullable: true },
    previousResponseId: { type: 'string', length: 80, nullable: true },
    payloadCiphertext: { type: 'text', hidden: true },
    createdAt: { type: 'datetime', length: 3 },
    expiresAt: { type: 'datetime', length: 3 },
    deletedAt: { type: 'datetime', length: 3, nullable: true },
  },
});

/**
 * An output item kept on its own row, as responses were stored before item ids named their
 * response (Migration20261127190000_response_rows): read for `item_reference` until they expire;
 * nothing writes these any more.
 */
export class StoredResponseItem {
  /** The output item's id (`msg_...`, `fc_...`). */
  id!: string;
  organizationId!: string;
  responseId!: string;
  /** SecretBox ciphertext of the item as an input item. */
  itemCiphertext!: string;
  expiresAt!: Date;
}

export const StoredResponseItemSchema = new EntitySchema<StoredResponseItem>({
  class: StoredResponseItem,
  tableName: 'gateway_response_items',
  properties: {
    id: { type: 'string', length: 80, primary: true },
    organizationId: { type: 'uuid' },
    responseId: { type: 'string', length: 80 },
    itemCiphertext: { type: 'text', hidden: true },
    expiresAt: { type: 'datetime', length: 3 },
  },
});
