import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
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
});
