// The worst PDFs and images we could build for the parsers of tenant bytes in the token bound
// (src/gateway/pdf-pages.ts, src/gateway/image-size.ts), as data: URLs of about 1 MiB of file
// each (pass a size to build smaller ones: the tests compare 256 KiB against 1 MiB to hold the
// cost linear). Each was found worst, or among the worst, for one part of the parser; their
// figures are in the parsers' header comments. bench:hostile runs them; the tests reuse them.
import { deflateSync } from 'node:zlib';

export interface HostileInput {
  name: string;
  dataUrl: string;
}

const MiB = 1024 * 1024;

const pdfUrl = (bytes: Buffer) => `data:application/pdf;base64,${bytes.toString('base64')}`;
const imageUrl = (type: string, bytes: Buffer) => `data:image/${type};base64,${bytes.toString('base64')}`;

/** `unit` repeated to `size` bytes, between a PDF header and trailer. */
function repeated(unit: string | Buffer, size: number): Buffer {
  const body = Buffer.alloc(size, unit);
  return Buffer.concat([Buffer.from('%PDF-1.7\n', 'latin1'), body, Buffer.from('\n%%EOF\n', 'latin1')]);
}

/** One object stream whose Flate data inflates to `inflated` (deflated once: its compressed size is small). */
function objectStreamOf(inflated: Buffer): Buffer {
  const data = deflateSync(inflated, { level: 9 });
  return Buffer.concat([
    Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Type /ObjStm /N 1 /First 0 /Length ${data.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1'),
  ]);
}

/** `pdf` followed by name soup (the scan's slowest bytes) up to `size` bytes. */
function padded(pdf: Buffer, size: number): Buffer {
  return size > pdf.length ? Buffer.concat([pdf, Buffer.alloc(size - pdf.length, '/a')]) : pdf;
}

/** Deterministic noise (a linear congruential generator): bench runs compare like with like. */
function noise(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  let state = seed;
  for (let i = 0; i < size; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

/** The worst PDFs, each about `size` bytes of PDF (1 MiB: past the 1 MiB body limit once in base64). */
export function worstPdfs(size = MiB): HostileInput[] {
  // Just under the inflate cap (1 MiB, and four times the PDF's bytes), so that all of it is inflated and scanned.
  const inflatable = Math.min(MiB, 4 * size) - 64;
  const tiny = Buffer.concat([Buffer.from('1 0 obj<</Type/ObjStm/N 1/First 0/Filter/FlateDecode>>stream\n'), deflateSync('<</Type/Page>>'), Buffer.from('\nendstream endobj\n')]);
  return [
    // The lazy regex and indexOf('endstream') per header this replaced: quadratic, seconds per MiB.
    { name: 'repeated /Type/ObjStm headers', dataUrl: pdfUrl(repeated('/Type/ObjStm ', size)) },
    { name: 'object stream headers, no endstream', dataUrl: pdfUrl(repeated('<</Type/ObjStm/First 0/N 1/Filter/FlateDecode>>stream\n', size)) },
    { name: 'many tiny deflate streams', dataUrl: pdfUrl(repeated(tiny, size)) },
    { name: 'deflate bomb past the cap', dataUrl: pdfUrl(padded(objectStreamOf(Buffer.alloc(8 * MiB, ' ')), size)) },
    // The worst we found: the inflate cap's worth of names, then the file's worth.
    { name: 'object stream of names at the cap', dataUrl: pdfUrl(padded(objectStreamOf(Buffer.alloc(inflatable, '/a')), size)) },
    { name: 'object stream of escaped pages at the cap', dataUrl: pdfUrl(padded(objectStreamOf(Buffer.alloc(inflatable, '/Type/Pag#65')), size)) },
    { name: 'stream with no endstream', dataUrl: pdfUrl(Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj<</Type/ObjStm/Filter/FlateDecode>>stream\n'), noise(size)])) },
    { name: 'name soup /a/a/a', dataUrl: pdfUrl(repeated('/a', size)) },
    { name: '/Type /Page inside one huge name', dataUrl: pdfUrl(repeated('#2FType#20#2FPage', size).fill('/', 9, 10)) },
    { name: 'escaped page names', dataUrl: pdfUrl(repeated('/#54ype/Pag#65', size)) },
    { name: 'dictionary soup <<', dataUrl: pdfUrl(repeated('<<', size)) },
    { name: 'page tree nodes', dataUrl: pdfUrl(repeated('<</Type/Pages/Count 9>>', size)) },
    { name: 'word soup 1 0 R', dataUrl: pdfUrl(repeated('1 0 R ', size)) },
    { name: 'random bytes', dataUrl: pdfUrl(noise(size)) },
  ];
}

/** The worst images for the header reader, each about `size` bytes. */
export function worstImages(size = MiB): HostileInput[] {
  const jpegStart = Buffer.from([0xff, 0xd8]);
  return [
    // Fill bytes: the marker walk's shortest step.
    { name: 'JPEG of fill bytes', dataUrl: imageUrl('jpeg', Buffer.concat([jpegStart, Buffer.alloc(size, 0xff)])) },
    // Empty segments (length 2): a step of four bytes each.
    { name: 'JPEG of empty segments', dataUrl: imageUrl('jpeg', Buffer.concat([jpegStart, Buffer.alloc(size, Buffer.from([0xff, 0xe0, 0x00, 0x02]))])) },
    // Metadata segments of 64 KiB: the walk leaves the 96 KB head read after two.
    { name: 'JPEG of full-size metadata segments (its size past the head read)', dataUrl: imageUrl('jpeg', Buffer.concat([jpegStart, Buffer.alloc(size, Buffer.from([0xff, 0xe1, 0xff, 0xff, ...Buffer.alloc(65533, 0x41)]))])) },
    { name: 'PNG signature then noise', dataUrl: imageUrl('png', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), noise(size)])) },
    { name: 'noise', dataUrl: imageUrl('png', noise(size)) },
  ];
}
