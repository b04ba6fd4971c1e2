import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { EncryptionCodec, isEncrypted } from './codec.js';
import { OrganizationPayloadConverter } from './converter.js';
import { createPayloadKeyRing } from './keys.js';
import { METADATA, metadataText, withMetadata } from './metadata.js';
import { plaintextSummary } from './plaintext-summaries.js';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const codecWith = (current: Buffer, previous: Buffer[] = [], fallback?: () => string | undefined) =>
  new EncryptionCodec({ keys: createPayloadKeyRing(current, previous), ...(fallback ? { fallbackOrganization: fallback } : {}) });
const converterFor = (organizationId?: string) => new OrganizationPayloadConverter(() => organizationId);
const bytes = (payload: Payload) => Buffer.from(payload.data ?? []).toString('latin1');

describe('EncryptionCodec', () => {
  it('encrypts a payload under its organization and decodes it back', async () => {
    const codec = codecWith(keyA);
    const plain = converterFor('org-1').toPayload({ prompt: 'MARKER-secret prompt' });
    const [encrypted] = await codec.encode([plain]);
    expect(isEncrypted(encrypted!)).toBe(true);
    expect(metadataText(encrypted!, METADATA.organizationId)).toBe('org-1');
    expect(metadataText(encrypted!, METADATA.encryptionKeyId)).toMatch(/^[0-9a-f]{16}$/);
    expect(bytes(encrypted!)).not.toContain('MARKER');
    const [decoded] = await codec.decode([encrypted!]);
    expect(defaultPayloadConverter.fromPayload(decoded!)).toEqual({ prompt: 'MARKER-secret prompt' });
  });

  it('refuses a payload relabelled with another organization', async () => {
    const codec = codecWith(keyA);
    const [encrypted] = await codec.encode([converterFor('org-1').toPayload('text')]);
    const relabelled = withMetadata(encrypted!, METADATA.organizationId, 'org-2');
    await expect(codec.decode([relabelled])).rejects.toThrow(/failed authentication/);
  });

  it('compresses a large payload before encrypting it, and says so in the metadata', async () => {
    const codec = codecWith(keyA);
    const large = converterFor('org-1').toPayload('a'.repeat(100_000));
    const [encrypted] = await codec.encode([large]);
    expect(metadataText(encrypted!, METADATA.compression)).toBe('deflate');
    expect(encrypted!.data!.length).toBeLessThan(2_000);
    const [small] = await codec.encode([converterFor('org-1').toPayload('short')]);
    expect(metadataText(small!, METADATA.compression)).toBeUndefined();
    expect(defaultPayloadConverter.fromPayload((await codec.decode([encrypted!]))[0]!)).toBe('a'.repeat(100_000));
  });

  it('decodes unencrypted payloads unchanged (histories written before encryption)', async () => {
    const plain = defaultPayloadConverter.toPayload({ old: true });
    expect(await codecWith(keyA).decode([plain])).toEqual([plain]);
  });

  it('leaves a registered static summary in plaintext, and nothing else', async () => {
    const codec = codecWith(keyA);
    const converter = converterFor('org-1');
    const summary = converter.toPayload(plaintextSummary('Run r1 of automation a1 (manual)'));
    const again = converter.toPayload('Run r1 of automation a1 (manual)');
    const [kept, encrypted] = await codec.encode([summary, again]);
    expect(kept).toBe(summary);
    expect(isEncrypted(encrypted!)).toBe(true);
  });

  it('encrypts an unlabelled payload for the fallback organization, else under the service key', async () => {
    const plain = defaultPayloadConverter.toPayload('activity result');
    const [scoped] = await codecWith(keyA, [], () => 'org-9').encode([plain]);
    expect(metadataText(scoped!, METADATA.organizationId)).toBe('org-9');
    const [service] = await codecWith(keyA).encode([plain]);
    expect(metadataText(service!, METADATA.organizationId)).toBeUndefined();
    expect(isEncrypted(service!)).toBe(true);
  });

  it('decodes payloads written under a previous SECRET_KEY listed in SECRET_KEY_PREVIOUS', async () => {
    const [old] = await codecWith(keyA).encode([converterFor('org-1').toPayload('history')]);
    const rotated = codecWith(keyB, [keyA]);
    expect(defaultPayloadConverter.fromPayload((await rotated.decode([old!]))[0]!)).toBe('history');
    const [fresh] = await rotated.encode([converterFor('org-1').toPayload('new')]);
    expect(metadataText(fresh!, METADATA.encryptionKeyId)).not.toBe(metadataText(old!, METADATA.encryptionKeyId));
    await expect(codecWith(keyB).decode([old!])).rejects.toThrow(/SECRET_KEY_PREVIOUS/);
  });

  it('decodes for the codec server only the payloads of the caller organization', async () => {
    const codec = codecWith(keyA);
    const [mine] = await codec.encode([converterFor('org-1').toPayload('mine')]);
    const [theirs] = await codec.encode([converterFor('org-2').toPayload('theirs')]);
    const [service] = await codec.encode([converterFor().toPayload('service')]);
    const decoded = codec.decodeForOrganization([mine!, theirs!, service!], 'org-1');
    expect(defaultPayloadConverter.fromPayload(decoded[0]!)).toBe('mine');
    expect(decoded[1]).toBe(theirs);
    expect(decoded[2]).toBe(service);
  });
});
