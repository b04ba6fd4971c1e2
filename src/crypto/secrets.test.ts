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

  it('never repeats a nonce across refills of its buffer of random bytes', () => {
    const sealed = Array.from({ length: 1000 }, () => box.encrypt('same'));
    expect(new Set(sealed.map((value) => value.split(':')[1])).size).toBe(1000);
    for (const value of sealed.slice(250, 260)) expect(box.decrypt(value)).toBe('same');
  });

  it('rejects a tampered value and a value sealed with another key', () => {
    const stored = box.encrypt('value');
    const parts = stored.split(':');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.decrypt(parts.join(':'))).toThrow();
    expect(() => createSecretBox(randomBytes(32)).decrypt(stored)).toThrow();
  });

  it('refuses a truncated authentication tag (GCM would otherwise accept a short, forgeable one)', () => {
    const parts = box.encrypt('value').split(':');
    parts[2] = Buffer.from(parts[2]!, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => box.decrypt(parts.join(':'))).toThrow(/16 bytes/);
  });

  it('decrypts a value sealed under a previous key, and seals new values under the current one', () => {
    const oldKey = randomBytes(32);
    const stored = createSecretBox(oldKey).encrypt('rotated');
    const rotated = createSecretBox(randomBytes(32), [oldKey]);
    expect(rotated.decrypt(stored)).toBe('rotated');
    expect(() => createSecretBox(oldKey).decrypt(rotated.encrypt('fresh'))).toThrow();
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
