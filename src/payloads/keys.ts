// Payload keys: one AES-256 key per organization (and one for the service's own workflows),
// derived with HKDF-SHA256 from SECRET_KEY, so no per-organization key is ever stored. Every
// SECRET_KEY has a key id (a fingerprint, never the key) written beside each payload; the keys of
// SECRET_KEY_PREVIOUS still decrypt the payloads written under them, so SECRET_KEY rotates
// without losing history.
import { createHmac, hkdfSync } from 'node:crypto';

const SALT = 'ai-workspace/temporal-payloads/v1';

/** The scope a payload key belongs to: an organization, or the service's own workflows. */
export type KeyScope = { organizationId: string } | 'service';

export interface PayloadKeyRing {
  /** Key id of SECRET_KEY: new payloads are encrypted under it. */
  readonly currentKeyId: string;
  /** The derived key of `keyId` for `scope`; undefined when no configured SECRET_KEY has that id. */
  keyFor(keyId: string, scope: KeyScope): Buffer | undefined;
}

/** A key id names the SECRET_KEY without revealing it: 16 hex characters of an HMAC under it. */
export function keyIdOf(secretKey: Buffer): string {
  return createHmac('sha256', secretKey).update('ai-workspace payload key id').digest('hex').slice(0, 16);
}

export function createPayloadKeyRing(secretKey: Buffer, previousKeys: readonly Buffer[] = []): PayloadKeyRing {
  const secrets = new Map<string, Buffer>();
  for (const key of [secretKey, ...previousKeys]) {
    if (key.length !== 32) throw new Error('payload keys are derived from 32-byte secrets');
    if (!secrets.has(keyIdOf(key))) secrets.set(keyIdOf(key), key);
  }
  // Derivation costs a few microseconds; a busy worker converts thousands of payloads a second.
  const derived = new Map<string, Buffer>();
  return {
    currentKeyId: keyIdOf(secretKey),
    keyFor(keyId, scope) {
      const secret = secrets.get(keyId);
      if (!secret) return undefined;
      const info = scope === 'service' ? 'service' : `organization:${scope.organizationId}`;
      const cacheKey = `${keyId}\n${info}`;
      let key = derived.get(cacheKey);
      if (!key) {
        key = Buffer.from(hkdfSync('sha256', secret, SALT, info, 32));
        if (derived.size >= 10_000) derived.clear();
        derived.set(cacheKey, key);
      }
      return key;
    },
  };
}
