import { describe, expect, it } from 'vitest';
import { signBody, signTimestampedBody } from './webhook.js';

describe('webhook signatures', () => {
  const body = '{"id":"d1","event":"automation.run.completed"}';

  it('keeps the spec signature over the body alone', () => {
    expect(signBody('secret', body)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('binds the V2 signature to the timestamp, so a replay under a fresh timestamp does not verify', () => {
    const original = signTimestampedBody('secret', '1700000000', body);
    expect(original).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(signTimestampedBody('secret', '1700000600', body)).not.toBe(original);
    expect(original).not.toBe(signBody('secret', body));
    expect(signTimestampedBody('secret', '1700000000', body)).toBe(original);
  });
});
