import { describe, expect, it } from 'vitest';
import { dataUrlImageSize } from './image-size.js';

const dataUrl = (type: string, bytes: Buffer) => `data:image/${type};base64,${bytes.toString('base64')}`;

/** A PNG's signature and IHDR chunk (what the size is read from), then junk. */
function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, Buffer.alloc(100)]);
}

/** A JPEG: SOI, an APP1 segment of `metadata` bytes, a DQT segment, then SOF2 (progressive) with the size. */
function jpeg(width: number, height: number, metadata = 40): Buffer {
  const segment = (marker: number, body: Buffer) => Buffer.concat([Buffer.from([0xff, marker]), Buffer.from([(body.length + 2) >> 8, (body.length + 2) & 0xff]), body]);
  const sof = Buffer.alloc(15);
  sof[0] = 8;
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), segment(0xe1, Buffer.alloc(metadata, 0x41)), segment(0xdb, Buffer.alloc(65)), Buffer.from([0xff]), segment(0xc2, sof), Buffer.alloc(50)]);
}

describe('dataUrlImageSize', () => {
  it('reads a PNG, a GIF and a JPEG (past its metadata and a fill byte) off their headers', () => {
    expect(dataUrlImageSize(dataUrl('png', png(1920, 1080)))).toEqual({ width: 1920, height: 1080 });
    const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([0x40, 0x01, 0xf0, 0x00]), Buffer.alloc(20)]);
    expect(dataUrlImageSize(dataUrl('gif', gif))).toEqual({ width: 320, height: 240 });
    expect(dataUrlImageSize(dataUrl('jpeg', jpeg(4032, 3024)))).toEqual({ width: 4032, height: 3024 });
    expect(dataUrlImageSize(dataUrl('jpeg', jpeg(800, 600, 60_000)))).toEqual({ width: 800, height: 600 });
  });

  it('knows nothing of a URL, another format, a header cut short or a zero size', () => {
    expect(dataUrlImageSize('https://images.example.test/a.png')).toBeUndefined();
    expect(dataUrlImageSize(dataUrl('webp', Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1')))).toBeUndefined();
    expect(dataUrlImageSize(dataUrl('png', png(10, 10).subarray(0, 20)))).toBeUndefined();
    expect(dataUrlImageSize(dataUrl('jpeg', jpeg(640, 480).subarray(0, 30)))).toBeUndefined();
    expect(dataUrlImageSize(dataUrl('png', png(0, 10)))).toBeUndefined();
  });
});
