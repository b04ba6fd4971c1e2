// The page count's promises, on inputs fast-check makes up: random bytes, and mixtures of the
// tokens the scan acts on (names spelt plainly and escaped, /Count values good and bad, stream
// keywords with and without their ends, deflated fragments) around page dictionaries and page
// tree nodes written plainly. Whatever the mixture, the count ends, is a whole number of at least
// one, and is never below the pages or the page tree /Count written plainly in it.
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pdfPageCount } from './pdf-pages.js';

const dataUrl = (pdf: Uint8Array) => `data:application/pdf;base64,${Buffer.from(pdf).toString('base64')}`;

/** A piece of a made-up PDF, and what it writes plainly: page dictionaries, a page tree /Count. */
interface Piece {
  bytes: Buffer;
  pages: number;
  count: number;
}

const TOKENS = [
  '/Type', '/Page', '/Pages', '/Count', '/ObjStm', '/First', '/N', '/Filter', '/FlateDecode', '/Fl', '/ASCIIHexDecode', '/DCTDecode',
  '/DecodeParms', '/Pag', '/Pag#65', '/#54ype', '/Obj#53tm', '#65', '#', '#0', '#00', 'stream\n', 'stream\r\n', 'stream', 'endstream',
  'obj', 'endobj', 'R', '0', '7', '-1', '2.5', '99999999999999999999', '<<', '>>', '<', '>', '[', ']', '(', ')', '%', '/', ' ', '\n', '\r',
];

const plain = (text: string, pages = 0, count = 0): Piece => ({ bytes: Buffer.from(text, 'latin1'), pages, count });
const token = fc.constantFrom(...TOKENS).map((text) => plain(text));
const pageDictionary = fc.constantFrom('<< /Type /Page >>', '<</Type/Page/Parent 2 0 R>>', '<< /Type\n/Page /MediaBox [0 0 612 792] >>').map((text) => plain(text, 1));
const pageTreeNode = fc.nat({ max: 400 }).map((count) => plain(`<< /Type /Pages /Kids [] /Count ${count} >>`, 0, count));
const tokenRun = fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((run) => run.join(' '));
const deflated = tokenRun.map((run) => ({ bytes: deflateSync(Buffer.from(run, 'latin1')), pages: 0, count: 0 }));
/** An object stream of a token run, its dictionary sometimes without a filter or an end. */
const objectStream = fc.record({ run: tokenRun, filter: fc.constantFrom('/Filter /FlateDecode', '', '/Filter [/FlateDecode]'), end: fc.boolean() }).map(({ run, filter, end }) => ({
  bytes: Buffer.concat([Buffer.from(`<< /Type /ObjStm /N 1 /First 0 ${filter} >>\nstream\n`), deflateSync(Buffer.from(run, 'latin1')), Buffer.from(end ? '\nendstream\n' : '')]),
  pages: 0,
  count: 0,
}));
const noise = fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ bytes: Buffer.from(bytes), pages: 0, count: 0 }));
const mixture = fc.array(fc.oneof({ arbitrary: token, weight: 6 }, pageDictionary, pageTreeNode, deflated, objectStream, noise), { maxLength: 150 });

function expectACount(pages: number): void {
  expect(Number.isInteger(pages)).toBe(true);
  expect(pages).toBeGreaterThanOrEqual(1);
}

describe('pdfPageCount (property)', () => {
  it('ends, never throws and counts a whole number of at least one page on random bytes and random URLs', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => expectACount(pdfPageCount(dataUrl(bytes)))),
      { numRuns: 300 },
    );
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (url) => expectACount(pdfPageCount(url))), { numRuns: 300 });
  });

  it('counts at least the page dictionaries and the largest page tree /Count written plainly, whatever tokens surround them', () => {
    fc.assert(
      fc.property(mixture, (pieces) => {
        const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), ...pieces.map((piece) => piece.bytes), Buffer.from('\n%%EOF\n')]);
        const pages = pdfPageCount(dataUrl(pdf));
        expectACount(pages);
        expect(pages).toBeGreaterThanOrEqual(pieces.reduce((sum, piece) => sum + piece.pages, 0));
        expect(pages).toBeGreaterThanOrEqual(Math.max(0, ...pieces.map((piece) => piece.count)));
      }),
      { numRuns: 500 },
    );
  });
});
