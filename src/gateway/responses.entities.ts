// Stored Responses API answers (`store`, the default): per organization, one row per response with
// the response object and the conversation it answered; an item id names its response, so an
// `item_reference` reads that row.
// Everything a client sent or got back is kept only as SecretBox ciphertext (AES-256-GCM under
// SECRET_KEY); ids, owner and times stay in clear. Rows past `expiresAt` read as absent.
import { EntitySchema } from '@mikro-orm/core';

export class StoredResponse {
  /** `resp_...` */
  id!: string;
  organizationId!: string;
  /** SecretBox ciphertext of `{response, conversation}` (responses.service.ts). */
  payloadCiphertext!: string;
  createdAt!: Date;
  expiresAt!: Date;
}

export const StoredResponseSchema = new EntitySchema<StoredResponse>({
  class: StoredResponse,
  tableName: 'gateway_responses',
  properties: {
    id: { type: 'string', length: 80, primary: true },
    organizationId: { type: 'uuid' },
    payloadCiphertext: { type: 'text', hidden: true },
    createdAt: { type: 'datetime', length: 3 },
    expiresAt: { type: 'datetime', length: 3 },
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
