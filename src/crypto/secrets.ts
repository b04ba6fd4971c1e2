// Secrets at rest: AES-256-GCM with SECRET_KEY (32 bytes). Each value gets a fresh 96-bit nonce;
// the stored form is `v1:<nonce>:<tag>:<ciphertext>` in base64url, so a wrong key or a tampered
// value fails to decrypt instead of returning garbage.
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../config.js';
import type { Logger } from '../logger.js';

/** GCM's full 128-bit tag: a shorter one would be accepted by Node and is far easier to forge. */
const TAG_BYTES = 16;

export interface SecretBox {
  encrypt(plaintext: string): string;
  decrypt(stored: string): string;
  /** HMAC-SHA256 of `message` under a key derived from SECRET_KEY for `purpose` (base64url). */
  sign(purpose: string, message: string): string;
  /** Whether `signature` is `sign(purpose, message)` under the key or a previous one (constant time). */
  verify(purpose: string, message: string, signature: string): boolean;
}

/** A key of its own per purpose, so a signature made for one use is worth nothing for another. */
function signatureOf(key: Buffer, purpose: string, message: string): Buffer {
  const purposeKey = createHmac('sha256', key).update(`signing-key:${purpose}`).digest();
  return createHmac('sha256', purposeKey).update(message).digest();
}

/** Encrypts with `key`; decrypts with it or, after a rotation, with one of `previousKeys` (SECRET_KEY_PREVIOUS). */
export function createSecretBox(key: Buffer, previousKeys: readonly Buffer[] = []): SecretBox {
  for (const candidate of [key, ...previousKeys]) if (candidate.length !== 32) throw new Error('SECRET_KEY must be 32 bytes');
  // Nonces come from a buffer of CSPRNG bytes, each 12 bytes used once: a randomBytes call per
  // value was a system call per value (a stored Responses answer encrypts two).
  let noncePool = Buffer.alloc(0);
  let nonceOffset = 0;
  const nextNonce = (): Buffer => {
    if (nonceOffset + 12 > noncePool.length) {
      noncePool = randomBytes(12 * 256);
      nonceOffset = 0;
    }
    nonceOffset += 12;
    return noncePool.subarray(nonceOffset - 12, nonceOffset);
  };
  return {
    encrypt(plaintext) {
      const nonce = nextNonce();
      const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
      const ciphertext = cipher.update(plaintext, 'utf8');
      // GCM is a stream mode: final() adds no bytes, only computes the tag (no concat, no copy).
      cipher.final();
      return ['v1', nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join(':');
    },
    decrypt(stored) {
      const [version, nonce, tag, ciphertext] = stored.split(':');
      if (version !== 'v1' || !nonce || !tag || ciphertext === undefined) throw new Error('unrecognised secret format');
      const tagBytes = Buffer.from(tag, 'base64url');
      if (tagBytes.length !== TAG_BYTES) throw new Error('secret authentication tag must be 16 bytes');
      let failure: unknown;
      for (const candidate of [key, ...previousKeys]) {
        try {
          const decipher = createDecipheriv('aes-256-gcm', candidate, Buffer.from(nonce, 'base64url'), { authTagLength: TAG_BYTES });
          decipher.setAuthTag(tagBytes);
          return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
        } catch (error) {
          failure = error;
        }
      }
      throw failure;
    },
    sign(purpose, message) {
      return signatureOf(key, purpose, message).toString('base64url');
    },
    verify(purpose, message, signature) {
      const given = Buffer.from(signature, 'base64url');
      return [key, ...previousKeys].some((candidate) => {
        const expected = signatureOf(candidate, purpose, message);
        return given.length === expected.length && timingSafeEqual(given, expected);
      });
    },
  };
}

/**
 * SECRET_KEY from the environment. Only in development and tests (NODE_ENV says so; the built
 * entry points count an unset NODE_ENV as production) is a missing key generated once into
 * DATA_DIR/secret.key (mode 0600): a container loses that file, and with it every stored secret
 * and every encrypted Temporal payload.
 */
export function resolveSecretKey(config: Config, logger: Logger): Buffer {
  if (config.SECRET_KEY) return Buffer.from(config.SECRET_KEY, 'base64');
  if (config.NODE_ENV === 'production') {
    throw new ConfigError('SECRET_KEY', 'required in production: 32 random bytes, base64 (openssl rand -base64 32); set NODE_ENV=development to generate one into DATA_DIR');
  }
  const file = path.join(config.dataDir, 'secret.key');
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  fs.mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  logger.warn({ file }, 'SECRET_KEY not set: generated a development key');
  return key;
}
