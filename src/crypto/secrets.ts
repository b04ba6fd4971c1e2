// Secrets at rest: AES-256-GCM with SECRET_KEY (32 bytes). Each value gets a fresh 96-bit nonce;
// the stored form is `v1:<nonce>:<tag>:<ciphertext>` in base64url, so a wrong key or a tampered
// value fails to decrypt instead of returning garbage.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';

export interface SecretBox {
  encrypt(plaintext: string): string;
  decrypt(stored: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('SECRET_KEY must be 32 bytes');
  return {
    encrypt(plaintext) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join(':');
    },
    decrypt(stored) {
      const [version, nonce, tag, ciphertext] = stored.split(':');
      if (version !== 'v1' || !nonce || !tag || ciphertext === undefined) throw new Error('unrecognised secret format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * SECRET_KEY from the environment; in development without one, a key generated once into
 * DATA_DIR/secret.key (mode 0600). Production must set SECRET_KEY.
 */
export function resolveSecretKey(config: Config, logger: Logger): Buffer {
  if (config.SECRET_KEY) return Buffer.from(config.SECRET_KEY, 'base64');
  if (config.NODE_ENV === 'production') {
    throw new Error('Invalid environment variable SECRET_KEY: required in production (32 bytes, base64)');
  }
  const file = path.join(config.dataDir, 'secret.key');
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  fs.mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  logger.warn({ file }, 'SECRET_KEY not set: generated a development key');
  return key;
}
