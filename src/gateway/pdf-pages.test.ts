// What the budget bound reads off a PDF, and the attacker's tests: a spelling that hides pages,
// a /Count that says more than the objects, inputs built to make the scan slow or inflate much.
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { worstPdfs } from '../../bench/hostile/pdf-inputs.js';
import { pdfPageCount, UNREAD_PDF_PAGES } from './pdf-pages.js';

const dataUrl = (pdf: Buffer | string) => `data:application/pdf;base64,${Buffer.from(pdf).toString('base64')}`;

/** A PDF whose page objects are written plainly (PDF 1.4 and before), its page tree (`/Pages`) beside them. */
function plainPdf(pages: number): string {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [] /Count ${pages} >>`];
  for (let i = 0; i < pages; i += 1) objects.push(i % 2 === 0 ? '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>' : '<</Type/Page/Parent 2 0 R>>');
  return `%PDF-1.4\n${objects.map((body, i) => `${i + 1} 0 obj\n${body}\nendobj\n`).join('')}trailer\n<< /Root 1 0 R >>\n%%EOF\n`;
}

/** A PDF 1.5 whose page objects are in a Flate-compressed object stream (as most writers make them now). */
function objectStreamPdf(pages: number, filter = '/FlateDecode', compress = (data: Buffer) => deflateSync(data)): Buffer {
  const inStream = Array.from({ length: pages }, (_, i) => `<< /Type /Page /Parent 2 0 R /Contents ${10 + i} 0 R >>`).join('\n');
  const data = compress(Buffer.from(`<< /Type /Pages /Count ${pages} >>\n${inStream}`, 'latin1'));
  return Buffer.concat([
    Buffer.from(`%PDF-1.5\n%\xe2\xe3\xcf\xd3\n5 0 obj\n<< /Type /ObjStm /N ${pages + 1} /First 10 /Length ${data.length} /Filter ${filter} >>\nstream\r\n`, 'latin1'),
    data,
    Buffer.from('\r\nendstream\nendobj\nstartxref\n0\n%%EOF\n', 'latin1'),
  ]);
}

/** A PDF of the given objects, numbered from 1, padded with a comment to `size` bytes when asked. */
function pdfOf(objects: (string | Buffer)[], size = 0): Buffer {
  const parts = objects.flatMap((body, i) => [Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(body), Buffer.from('\nendobj\n')]);
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), ...parts, Buffer.from('%%EOF\n')]);
  return pdf.length < size ? Buffer.concat([pdf, Buffer.from(`%${'x'.repeat(size - pdf.length - 2)}\n`)]) : pdf;
}

/** An object stream holding `pages` page objects (`dictionary` adds to or replaces its stream dictionary). */
function objectStream(pages: number, { dictionary = '/Type /ObjStm /N 1 /First 0 /Filter /FlateDecode', end = '\nendstream' } = {}): Buffer {
  const data = deflateSync(Buffer.from('<< /Type /Page >> '.repeat(pages)));
  return Buffer.concat([Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`), data, Buffer.from(end)]);
}

const MiB = 1024 * 1024;
let hostileOnce: ReturnType<typeof worstPdfs> | undefined;
/** The bench's hostile PDFs of 1 MiB, built once for this file (deflating them takes a while). */
const hostile = () => (hostileOnce ??= worstPdfs(MiB));

/**
 * The least CPU time of a few runs, in ms. CPU time, not the clock: on a shared machine a longer run
 * is descheduled more often, which would read as worse than linear.
 */
function leastCpuTime(run: () => void, runs = 5): number {
  let least = Infinity;
  for (let i = 0; i < runs; i += 1) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    least = Math.min(least, (used.user + used.system) / 1000);
  }
  return least;
}

describe('pdfPageCount', () => {
  it('counts the page objects written plainly, not the page tree', () => {
    expect(pdfPageCount(dataUrl(plainPdf(3)))).toBe(3);
    expect(pdfPageCount(dataUrl(plainPdf(1)))).toBe(1);
  });

  it('counts the page objects inside compressed object streams', () => {
    expect(pdfPageCount(dataUrl(objectStreamPdf(7)))).toBe(7);
  });

  it('counts the most a provider takes when it finds no page: not a PDF it can read, a stream it cannot inflate', () => {
    expect(pdfPageCount(dataUrl('%PDF-1.7\nnot really a pdf'))).toBe(UNREAD_PDF_PAGES);
    expect(pdfPageCount(dataUrl(objectStreamPdf(2, '/LZWDecode', (data) => Buffer.from(data.toString('hex')))))).toBe(UNREAD_PDF_PAGES);
  });

  it('stops inflating a stream at its bound (a deflate bomb), and does not read a PDF past its size bound', () => {
    // A page object past 16 MiB of inflated spaces: read to its end, it would count 1.
    const bomb = objectStreamPdf(0, '/FlateDecode', () => deflateSync(Buffer.concat([Buffer.alloc(20 * 1024 * 1024, ' '), Buffer.from('<< /Type /Page >>')])));
    expect(pdfPageCount(dataUrl(bomb))).toBe(UNREAD_PDF_PAGES);
    expect(pdfPageCount(`data:application/pdf;base64,${'A'.repeat(12 * 1024 * 1024)}`)).toBe(UNREAD_PDF_PAGES);
  });

  it('decodes #xx escapes in names: /Pag#65 and /#54ype are a page, plainly and in an object stream', () => {
    const escaped = ['<< /Type /Pag#65 >>', '<< /#54ype /Page >>', '<< /#54#79#70#65 /#50#61#67#65 >>', '<</Type/Page#00 a reader in C stops at the NUL>>'];
    expect(pdfPageCount(dataUrl(pdfOf(escaped)))).toBe(4);
    const escapedStream = objectStream(3, { dictionary: '/#54ype /Obj#53tm /N 3 /First 0 /#46ilter /Fl#61teDecode' });
    expect(pdfPageCount(dataUrl(pdfOf([escapedStream, '<< /Type /Page >>'])))).toBe(4);
  });

  it('counts page names a comment or a string would hide from a stateful reading (a parser can be steered; a name can not)', () => {
    expect(pdfPageCount(dataUrl(pdfOf(['(%) << /Type /Page >>', '<< /Type % a comment\n /Page >>', '<< /Title (unbalanced \\( /Type /Page >>'])))).toBe(3);
  });

  it('takes the page tree\'s /Count when it says more than the page objects found', () => {
    const pdf = pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 12 >>', '<< /Type /Page /Parent 2 0 R >>']);
    expect(pdfPageCount(dataUrl(pdf))).toBe(12);
    expect(pdfPageCount(dataUrl(pdfOf(['<< /Type /Pages /Count 5000 >>', '<< /Type /Page >>'])))).toBe(5000); // no cap above: the provider refuses it
    // An outline's /Count (negative when closed) is not the page tree's.
    expect(pdfPageCount(dataUrl(pdfOf(['<< /Type /Outlines /Count -3 /First 4 0 R >>', '<< /Type /Page >>', '<< /Type /Page >>'])))).toBe(2);
  });

  it('counts UNREAD_PDF_PAGES when the page tree\'s /Count is not a non-negative integer', () => {
    for (const count of ['-1', '2.5', '7 0 R', '(3)', '/Three']) {
      expect(pdfPageCount(dataUrl(pdfOf([`<< /Type /Pages /Count ${count} /Kids [2 0 R] >>`, '<< /Type /Page >>']))), count).toBe(UNREAD_PDF_PAGES);
    }
  });

  it('reads an object stream typed only by /First and /N, and one left without endstream (to the next one or the end)', () => {
    expect(pdfPageCount(dataUrl(pdfOf([objectStream(3, { dictionary: '/N 3 /First 0 /Filter /FlateDecode' }), '<< /Type /Page >>'])))).toBe(4);
    const unended = pdfOf([objectStream(2, { end: '' }), objectStream(5, { end: '' })], 8192);
    expect(pdfPageCount(dataUrl(unended))).toBe(7);
  });

  it('counts UNREAD_PDF_PAGES for an object stream it cannot read: another filter after Flate, a predictor, an indirect filter, bytes that do not inflate', () => {
    const pages = '<< /Type /Page >>';
    for (const dictionary of ['/Type /ObjStm /Filter [/FlateDecode /ASCIIHexDecode]', '/Type /ObjStm /Filter /FlateDecode /DecodeParms << /Predictor 12 >>', '/Type /ObjStm /Filter 9 0 R', '/Type /ObjStm /Filter [/FlateDecode 9 0 R]', '/Type /ObjStm /Filter /DCTDecode']) {
      expect(pdfPageCount(dataUrl(pdfOf([objectStream(1, { dictionary }), pages]))), dictionary).toBe(UNREAD_PDF_PAGES);
    }
    expect(pdfPageCount(dataUrl(pdfOf(['<< /Type /ObjStm /Filter /FlateDecode >>\nstream\nnot deflate\nendstream', pages])))).toBe(UNREAD_PDF_PAGES);
  });

  it('counts UNREAD_PDF_PAGES past its caps: object streams (64, one per 4 KiB) and bytes inflated (1 MiB, four times the PDF)', () => {
    const streams = (n: number) => Array.from({ length: n }, () => objectStream(1));
    expect(pdfPageCount(dataUrl(pdfOf(streams(64), 64 * 4096)))).toBe(64);
    expect(pdfPageCount(dataUrl(pdfOf(streams(65), 65 * 4096)))).toBe(UNREAD_PDF_PAGES);
    expect(pdfPageCount(dataUrl(pdfOf(streams(2), 4096)))).toBe(UNREAD_PDF_PAGES); // two in one 4 KiB
    // 120 pages inflate to ~2 KiB: read in a PDF of 1 KiB, not in the bare one of a few hundred bytes.
    expect(pdfPageCount(dataUrl(pdfOf([objectStream(120)], 1024)))).toBe(120);
    expect(pdfPageCount(dataUrl(pdfOf([objectStream(120)])))).toBe(UNREAD_PDF_PAGES);
  });

  it('counts the pages found when a doubt comes with more of them than UNREAD_PDF_PAGES', () => {
    const many = Array.from({ length: 150 }, () => '<< /Type /Page >>');
    expect(pdfPageCount(dataUrl(pdfOf([...many, objectStream(1, { dictionary: '/Type /ObjStm /Filter /LZWDecode' })])))).toBe(150);
  });

  it('gives a bounded count for each hostile PDF of ~1 MiB (the worst the bench knows)', () => {
    const expected: Record<string, number> = {
      'escaped page names': Math.floor(MiB / '/#54ype/Pag#65'.length),
      'object stream of escaped pages at the cap': Math.floor((MiB - 64) / '/Type/Pag#65'.length),
    };
    for (const { name, dataUrl: url } of hostile()) expect(pdfPageCount(url), name).toBe(expected[name] ?? UNREAD_PDF_PAGES);
  });

  it('takes linear time on hostile PDFs: 1 MiB costs under 8 times 256 KiB (repeated /Type/ObjStm took seconds before)', () => {
    const small = worstPdfs(256 * 1024);
    const large = hostile();
    for (const { dataUrl: url } of large) pdfPageCount(url); // warm: V8 optimises the scan
    for (const [i, { name }] of small.entries()) {
      const [smallMs, largeMs] = [leastCpuTime(() => pdfPageCount(small[i]!.dataUrl)), leastCpuTime(() => pdfPageCount(large[i]!.dataUrl))];
      // Under 5 ms counts as 5: GC bursts of ~20 ms come and go on a shared machine; a quadratic scan takes seconds.
      expect(largeMs, `${name}: ${largeMs.toFixed(1)} ms for 1 MiB, ${smallMs.toFixed(1)} ms for 256 KiB`).toBeLessThan(8 * Math.max(smallMs, 5));
    }
  });
});
