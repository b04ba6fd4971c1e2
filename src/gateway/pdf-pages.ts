// How many pages a PDF holds, read off its bytes for the budget's input bound (tokens.ts): the
// providers bill a PDF by its pages (each page's text and an image of it), not by its bytes. No PDF
// library: the page objects (`/Type /Page`) are counted where they are written plainly, and inside
// the compressed object streams (`/Type /ObjStm`, PDF 1.5 on) where most writers put them now.
// Where it errs it mostly counts more (an incremental update's older copy of a page counts again);
// it misses the pages of an object stream that does not inflate (a filter other than Flate, which
// writers do not use for them). When no page is found at all (a PDF this reading does not
// understand), the bound takes the most a provider takes in one request.
import { inflateSync } from 'node:zlib';

/** The pages Anthropic and OpenAI take in one request at most: a PDF whose pages are not found counts this many. */
export const UNREAD_PDF_PAGES = 100;
/**
 * Beyond this many bytes a PDF is not read (decoding and scanning it would hold the event loop for
 * tens of milliseconds): it counts UNREAD_PDF_PAGES.
 */
const MAX_READ_BYTES = 8 * 1024 * 1024;
/** What one object stream may inflate to (a deflate bomb stops here). */
const MAX_INFLATED_BYTES = 16 * 1024 * 1024;

/** A page object's type, not the page tree's (`/Pages`). */
const PAGE_OBJECT = /\/Type\s*\/Page(?![A-Za-z])/g;
/** A compressed object stream's dictionary, up to the `stream` keyword that starts its data. */
const OBJECT_STREAM = /\/Type\s*\/ObjStm\b[^]*?stream\r?\n/g;

/** The pages of a `data:application/pdf;base64,` URL, as the budget bound counts them. */
export function pdfPageCount(dataUrl: string): number {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  // Four base64 characters are three bytes.
  if ((base64.length / 4) * 3 > MAX_READ_BYTES) return UNREAD_PDF_PAGES;
  const bytes = Buffer.from(base64, 'base64');
  const text = bytes.toString('latin1');
  let pages = countPages(text);
  for (const inflated of objectStreams(text, bytes)) pages += countPages(inflated);
  return pages > 0 ? pages : UNREAD_PDF_PAGES;
}

function countPages(text: string): number {
  let pages = 0;
  for (PAGE_OBJECT.lastIndex = 0; PAGE_OBJECT.exec(text) !== null; ) pages += 1;
  return pages;
}

/** The inflated contents of the PDF's object streams (latin1), those that inflate (Flate, the filter writers use for them). */
function* objectStreams(text: string, bytes: Buffer): Generator<string> {
  for (const match of text.matchAll(OBJECT_STREAM)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) continue;
    try {
      yield inflateSync(bytes.subarray(start, end), { maxOutputLength: MAX_INFLATED_BYTES }).toString('latin1');
    } catch {
      // Another filter, a stream cut short, or one past the bound: not read.
    }
  }
}
