// The image header reader's promises, on inputs fast-check makes up: random bytes behind each
// format's signature, JPEG marker walks of hostile segments (fill bytes, lengths of 0, 1 and
// 65535, markers without a length), and random URLs. Whatever it is given, it ends, never throws,
// and gives no size or a size of two positive whole numbers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataUrlImageSize } from './image-size.js';

const SIGNATURES: Record<string, number[]> = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52],
  gif: [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
  jpeg: [0xff, 0xd8],
  webp: [0x52, 0x49, 0x46, 0x46],
};

const dataUrl = (type: string, bytes: Uint8Array) => `data:image/${type};base64,${Buffer.from(bytes).toString('base64')}`;

/** A JPEG segment as an attacker writes it: any marker, any declared length, a body of any size. */
const segment = fc
  .record({
    fill: fc.nat({ max: 4 }),
    marker: fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0xc0, 0xc2, 0xc4, 0xd9, 0xda, 0xe1, 0xff)),
    length: fc.oneof(fc.constantFrom(0, 1, 2, 0xffff), fc.integer({ min: 0, max: 0xffff })),
    body: fc.uint8Array({ maxLength: 32 }),
  })
  .map(({ fill, marker, length, body }) => [...Array<number>(fill).fill(0xff), 0xff, marker, length >> 8, length & 0xff, ...body]);
const jpeg = fc.array(segment, { maxLength: 40 }).map((segments) => Uint8Array.from([0xff, 0xd8, ...segments.flat()]));

function expectNoneOrASize(size: ReturnType<typeof dataUrlImageSize>): void {
  if (size === undefined) return;
  for (const side of [size.width, size.height]) {
    expect(Number.isInteger(side)).toBe(true);
    expect(side).toBeGreaterThan(0);
  }
}

describe('dataUrlImageSize (property)', () => {
  it('gives no size or a positive one for random bytes behind each signature', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(SIGNATURES)), fc.uint8Array({ maxLength: 2048 }), (type, tail) => {
        expectNoneOrASize(dataUrlImageSize(dataUrl(type, Uint8Array.from([...SIGNATURES[type]!, ...tail]))));
        expectNoneOrASize(dataUrlImageSize(dataUrl(type, tail)));
      }),
      { numRuns: 500 },
    );
  });

  it('walks any JPEG segments an attacker writes to an end, never throwing', () => {
    fc.assert(fc.property(jpeg, (bytes) => expectNoneOrASize(dataUrlImageSize(dataUrl('jpeg', bytes)))), { numRuns: 500 });
  });

  it('gives no size for a URL that is not a base64 image, whatever its text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        expectNoneOrASize(dataUrlImageSize(text));
        expectNoneOrASize(dataUrlImageSize(`data:image/png;base64,${text}`));
      }),
      { numRuns: 300 },
    );
  });
});
