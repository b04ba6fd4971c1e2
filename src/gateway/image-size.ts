// An image's pixel size read off the first bytes of a `data:` URL (PNG, GIF and JPEG headers), for
// the token estimate of images (tokens.ts): providers bill an image by its pixels. Reads at most the
// first 96 KB (JPEG's size may follow its metadata); undefined for any other format, or a URL.
// Cap and cost: only those 128 KiB of base64 are decoded, whatever the URL's length, and the JPEG
// marker walk moves at least one byte a step within them; the worst we built (a JPEG of 1 MiB of
// empty segments, bench/hostile/pdf-inputs.ts) takes under 1 ms, the same as at 256 KiB.

/** Base64 characters read at most: 96 KB of bytes. */
const HEAD_BASE64 = 128 * 1024;

export interface ImageSize {
  width: number;
  height: number;
}

export function dataUrlImageSize(url: string): ImageSize | undefined {
  if (!url.startsWith('data:image/')) return undefined;
  const comma = url.indexOf(',');
  if (comma < 0 || !url.slice(0, comma).endsWith(';base64')) return undefined;
  const head = Buffer.from(url.slice(comma + 1, comma + 1 + HEAD_BASE64), 'base64');
  const size = pngSize(head) ?? gifSize(head) ?? jpegSize(head);
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG: the IHDR chunk, first after the signature. */
function pngSize(bytes: Buffer): ImageSize | undefined {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** GIF: the logical screen's size, after the version. */
function gifSize(bytes: Buffer): ImageSize | undefined {
  if (bytes.length < 10 || bytes.toString('latin1', 0, 4) !== 'GIF8') return undefined;
  return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
}

/** JPEG: the first start-of-frame segment (SOF0-SOF15 but DHT, JPG and DAC), walking the segments before it. */
function jpegSize(bytes: Buffer): ImageSize | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 9 <= bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: bytes.readUInt16BE(offset + 7), height: bytes.readUInt16BE(offset + 5) };
    }
    offset += 2 + bytes.readUInt16BE(offset + 2);
  }
  return undefined;
}
