// The payload codec of the client, the worker and the codec server: every payload leaves for
// Temporal as AES-256-GCM ciphertext under its organization's key (keys.ts), compressed first
// when that pays. Metadata: `encoding: binary/encrypted`, the key id and the organization id,
// all three bound to the ciphertext as additional data, so relabelling a payload fails to
// decrypt. Payloads that are not encrypted (histories from before, plaintext summaries) decode
// unchanged.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Payload, PayloadCodec, SerializationContext } from '@temporalio/common';
import { encode } from '@temporalio/common/lib/encoding.js';
import proto from '@temporalio/proto';
import type { KeyScope, PayloadKeyRing } from './keys.js';
import { ENCRYPTED_ENCODING, METADATA, metadataText } from './metadata.js';

// A CommonJS package: its namespace object is the default export under native ESM.
const { Payload: PayloadMessage } = proto.temporal.api.common.v1;

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Below this, deflate rarely saves more than its own cost. */
export const DEFAULT_COMPRESS_ABOVE_BYTES = 1024;

export interface EncryptionCodecOptions {
  keys: PayloadKeyRing;
  /** Organization of a payload the converter left unlabelled (activity results in the worker). */
  fallbackOrganization?: (context: SerializationContext | undefined) => string | undefined;
  compressAboveBytes?: number;
}

export class PayloadDecryptionError extends Error {
  override name = 'PayloadDecryptionError';
}

export class EncryptionCodec implements PayloadCodec {
  private readonly compressAbove: number;

  constructor(private readonly options: EncryptionCodecOptions) {
    this.compressAbove = options.compressAboveBytes ?? DEFAULT_COMPRESS_ABOVE_BYTES;
  }

  async encode(payloads: Payload[], context?: SerializationContext): Promise<Payload[]> {
    return payloads.map((payload) => {
      if (isEncrypted(payload) || metadataText(payload, METADATA.plaintext)) return payload;
      const organizationId = metadataText(payload, METADATA.organizationId) ?? this.options.fallbackOrganization?.(context);
      return this.encrypt(payload, organizationId);
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => (isEncrypted(payload) ? this.decrypt(payload) : payload));
  }

  /** Codec server: encrypts for the caller's organization, whatever the payloads say. */
  encodeForOrganization(payloads: Payload[], organizationId: string): Payload[] {
    return payloads.map((payload) => (isEncrypted(payload) ? payload : this.encrypt(payload, organizationId)));
  }

  /** Codec server: decrypts the caller's organization's payloads; every other one comes back unchanged. */
  decodeForOrganization(payloads: Payload[], organizationId: string): Payload[] {
    return payloads.map((payload) => {
      if (!isEncrypted(payload) || metadataText(payload, METADATA.organizationId) !== organizationId) return payload;
      try {
        return this.decrypt(payload);
      } catch {
        return payload;
      }
    });
  }

  private encrypt(payload: Payload, organizationId: string | undefined): Payload {
    const keyId = this.options.keys.currentKeyId;
    let plaintext: Buffer = Buffer.from(PayloadMessage.encode(payload).finish());
    let compression: string | undefined;
    if (plaintext.length > this.compressAbove) {
      const compressed = deflateRawSync(plaintext);
      if (compressed.length < plaintext.length) [plaintext, compression] = [compressed, 'deflate'];
    }
    const key = this.options.keys.keyFor(keyId, scopeOf(organizationId))!;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(keyId, organizationId, compression));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    const metadata: Record<string, Uint8Array> = {
      [METADATA.encoding]: encode(ENCRYPTED_ENCODING),
      [METADATA.encryptionKeyId]: encode(keyId),
    };
    if (organizationId) metadata[METADATA.organizationId] = encode(organizationId);
    if (compression) metadata[METADATA.compression] = encode(compression);
    return { metadata, data: Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]) };
  }

  private decrypt(payload: Payload): Payload {
    const keyId = metadataText(payload, METADATA.encryptionKeyId) ?? '';
    const organizationId = metadataText(payload, METADATA.organizationId);
    const compression = metadataText(payload, METADATA.compression);
    const key = this.options.keys.keyFor(keyId, scopeOf(organizationId));
    if (!key) throw new PayloadDecryptionError(`payload encrypted under unknown key id ${keyId}: add its SECRET_KEY to SECRET_KEY_PREVIOUS`);
    const data = Buffer.from(payload.data ?? new Uint8Array());
    if (data.length < NONCE_BYTES + TAG_BYTES) throw new PayloadDecryptionError('encrypted payload too short');
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(additionalData(keyId, organizationId, compression));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    let plaintext: Buffer;
    try {
      plaintext = Buffer.concat([decipher.update(data.subarray(NONCE_BYTES, data.length - TAG_BYTES)), decipher.final()]);
    } catch (error) {
      throw new PayloadDecryptionError('payload failed authentication (wrong key or tampered)', { cause: error });
    }
    if (compression === 'deflate') plaintext = inflateRawSync(plaintext);
    else if (compression) throw new PayloadDecryptionError(`unknown payload compression ${compression}`);
    const inner = PayloadMessage.decode(plaintext);
    return { metadata: inner.metadata, data: inner.data };
  }
}

export function isEncrypted(payload: Payload): boolean {
  return metadataText(payload, METADATA.encoding) === ENCRYPTED_ENCODING;
}

function scopeOf(organizationId: string | undefined): KeyScope {
  return organizationId ? { organizationId } : 'service';
}

function additionalData(keyId: string, organizationId: string | undefined, compression: string | undefined): Buffer {
  return Buffer.from(['v1', keyId, organizationId ?? '', compression ?? ''].join('\n'));
}
