// API key material: `svc_live_` + 40 base62 characters from a CSPRNG (~238 bits). Only the
// SHA-256 hex digest is stored; incoming keys are hashed and looked up by that digest.
import { hash, randomInt } from 'node:crypto';

export const API_KEY_PREFIX = 'svc_live_';
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const RANDOM_LENGTH = 40;
const API_KEY_PATTERN = /^svc_live_[A-Za-z0-9]{32,}$/;

export function generateApiKey(): string {
  let body = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) body += BASE62[randomInt(BASE62.length)];
  return API_KEY_PREFIX + body;
}

export function isWellFormedApiKey(key: string): boolean {
  return key.length <= 256 && API_KEY_PATTERN.test(key);
}

export function hashApiKey(key: string): string {
  // The one-shot digest: a fifth of createHash's cost, on every authenticated request.
  return hash('sha256', key, 'hex');
}

/** What the portal shows to tell keys apart: `svc_live_AbCd`. */
export function displayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 4);
}
