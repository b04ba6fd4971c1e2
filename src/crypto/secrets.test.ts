import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secrets.js';

describe('createSecretBox', () => {
  const box = createSecretBox(randomBytes(32));

  it('round-trips a value and never stores the plaintext', () => {
    const stored = box.encrypt('ghp_supersecret');
    expect(stored).not.toContain('ghp_supersecret');
    expect(box.decrypt(stored)).toBe('ghp_supersecret');
  });

  it('uses a fresh nonce for every encryption', () => {
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('rejects a tampered value and a value sealed with another key', () => {
    const stored = box.encrypt('value');
    const parts = stored.split(':');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.decrypt(parts.join(':'))).toThrow();
    expect(() => createSecretBox(randomBytes(32)).decrypt(stored)).toThrow();
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
