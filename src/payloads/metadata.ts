// Names of the payload metadata this service writes (shared by the payload converter, which runs
// inside the workflow sandbox too, and the codec). Values are UTF-8 bytes, as Temporal stores them.
import { decode, encode } from '@temporalio/common/lib/encoding.js';
import type { Payload } from '@temporalio/common';

export const METADATA = {
  encoding: 'encoding',
  /** Organization whose key encrypts the payload; absent = the service key. */
  organizationId: 'organization-id',
  encryptionKeyId: 'encryption-key-id',
  /** `deflate` when the payload was compressed before encryption. */
  compression: 'encryption-compression',
  /** Set by the converter on static summaries (ids and names only): the codec leaves them plaintext. */
  plaintext: 'plaintext',
} as const;

export const ENCRYPTED_ENCODING = 'binary/encrypted';

export function metadataText(payload: Payload, key: string): string | undefined {
  const value = payload.metadata?.[key];
  return value ? decode(value) : undefined;
}

export function withMetadata(payload: Payload, key: string, value: string): Payload {
  return { ...payload, metadata: { ...payload.metadata, [key]: encode(value) } };
}
