// How many pages a PDF holds, read off its bytes for the budget's input bound (tokens.ts): the
// providers bill a PDF by its pages, so a count that falls short is a budget bypass, and a slow
// count holds the API's event loop. No PDF library: one pass over the bytes counts every name
// `/Page` (`#xx` escapes decoded: `/Pag#65` is `/Page`), notes each page tree node's `/Count` and
// where the object streams (PDF 1.5 on) lie; the same pass then reads each inflated object stream.
// The count is the larger of the pages named and the largest page tree /Count. Names count
// wherever they are, in strings, comments and stream data too: a reading that follows strings can
// be steered by the PDF (a `(` in binary data opens one), a name can not, so the count errs high.
//
// Caps. A PDF past 8 MiB is not read. Object streams: 64 read at most, and one per 4 KiB of PDF
// begun. Inflated bytes: 1 MiB at most in all, and four times the PDF's own bytes (real PDFs
// inflate theirs to a fraction of their size: 0.16 and 0.36 of the two measured, with 4 and 7
// object streams). Every doubt counts at least UNREAD_PDF_PAGES: a cap reached, an object stream
// that does not inflate or has another filter or a predictor, a page tree /Count that is not a
// non-negative integer, no page found. The result is never below the pages found nor a page tree
// /Count, and has no cap above: a PDF that claims 5,000 pages counts 5,000.
//
// Cost: linear, one pass plus zlib. Measured with bench/hostile/pdf-inputs.ts (Node 20, CPU time
// on a shared 2-core VM at load 15-30, so upper figures that vary by half from run to run): 5-15
// ms per MiB of PDF (15 for dense tokens: object stream headers), ~10 ms per MiB inflated, ~10 µs
// per object stream. The worst PDF we built at the 1 MiB body limit (768 KiB: an object stream of
// names up to the inflate cap, then names) took 16-27 ms with a 2 MiB cap, which put the request's
// longest stall past 50 ms in bench:hostile: the cap is 1 MiB; 768 KiB of repeated `/Type/ObjStm` took 3 s before
// this scan, 5-12 ms now. A PDF at the 8 MiB bound (only with BODY_LIMIT_BYTES raised past ~11
// MiB) takes 80-240 ms. The first PDFs after start-up run before V8 optimises the scan, up to 4
// times slower.
//
// Known limits: a page a lenient reader finds without `/Type /Page` (an untyped leaf, a page listed
// twice in /Kids) counts only through /Count; so do the pages of an object stream whose dictionary
// writes obj, endobj, stream or endstream inside a string (this scan does not follow strings).
// The caps are per PDF: 4,400 PDFs of 109 bytes, each with an object stream, fill a 1 MiB body and
// take ~46 ms (zlib's set-up); how many PDFs a request may hold is the caller's to bound.
import { inflateSync } from 'node:zlib';

/** The pages Anthropic and OpenAI take in one request at most: a PDF whose pages are not found counts this many. */
export const UNREAD_PDF_PAGES = 100;
/** Beyond this many bytes a PDF is not read: it counts UNREAD_PDF_PAGES. */
const MAX_READ_BYTES = 8 * 1024 * 1024;
/** Object streams read at most: 64, and one per 4 KiB begun (so that small PDFs cost no more per byte). */
const MAX_OBJECT_STREAMS = 64;
const PDF_BYTES_PER_OBJECT_STREAM = 4 * 1024;
/** Bytes inflated at most, across a PDF's object streams: 1 MiB, and four times its own bytes. */
const MAX_INFLATED_BYTES = 1024 * 1024;
const INFLATED_PER_PDF_BYTE = 4;
/** The innermost dictionaries followed (a ring: deeper ones displace the outermost; a page tree node is innermost but for its /Resources). */
const DEPTHS = 32;
/** A /Count past a billion reads as a billion (the bound refuses it either way; digits stay finite). */
const MOST_PAGES = 1_000_000_000;

/** The pages of a `data:application/pdf;base64,` URL, as the budget bound counts them. Never throws. */
export function pdfPageCount(dataUrl: string): number {
  try {
    return countPages(dataUrl);
  } catch {
    return UNREAD_PDF_PAGES;
  }
}

function countPages(dataUrl: string): number {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  // Four base64 characters are three bytes.
  if ((base64.length / 4) * 3 > MAX_READ_BYTES) return UNREAD_PDF_PAGES;
  const bytes = Buffer.from(base64, 'base64');
  const tally: Tally = {
    pages: 0, largestCount: 0, unread: false,
    objectStreamsLeft: Math.min(MAX_OBJECT_STREAMS, Math.ceil(bytes.length / PDF_BYTES_PER_OBJECT_STREAM)),
    inflateLeft: Math.min(MAX_INFLATED_BYTES, INFLATED_PER_PDF_BYTE * bytes.length),
  };
  const objectStreams: Span[] = [];
  scan(bytes, tally, objectStreams);
  for (const span of objectStreams) readObjectStream(bytes.subarray(span.start, span.end), tally);
  const claimed = Math.max(tally.pages, tally.largestCount);
  return tally.unread || tally.pages === 0 ? Math.max(UNREAD_PDF_PAGES, claimed) : claimed;
}

/** What the scans found, across the file and its object streams. */
interface Tally {
  pages: number;
  /** The largest /Count of a page tree node (`/Type /Pages`). */
  largestCount: number;
  /** A doubt: the count is at least UNREAD_PDF_PAGES. */
  unread: boolean;
  /** What the caps leave: object streams to read, bytes to inflate. */
  objectStreamsLeft: number;
  inflateLeft: number;
}

/** Where an object stream's Flate data lies in the file. */
interface Span {
  start: number;
  end: number;
}

function readObjectStream(deflated: Uint8Array, tally: Tally): void {
  if (tally.unread) return; // a doubt already counts the most; inflate no more
  try {
    const inflated = inflateSync(deflated, { maxOutputLength: Math.max(1, tally.inflateLeft) });
    tally.inflateLeft -= inflated.length;
    if (tally.inflateLeft < 0) tally.unread = true;
    else scan(inflated, tally, undefined);
  } catch {
    tally.unread = true; // not Flate, cut short, or past the cap
  }
}

// ---- The scan: bytes to tokens (names, words, `<<`, `>>`, `[`, `]`), one pass, no backtracking.

const REGULAR = 0;
const SPACE = 1;
const DELIMITER = 2;
/**
 * PDF character classes. Bytes outside printable ASCII end a name or word here (PDF calls them
 * regular): a reader that keeps them reads a longer, different name, so the count can only grow.
 */
const CHAR_CLASS = new Uint8Array(256).map((_, byte) => {
  if ('()<>[]{}/%'.includes(String.fromCharCode(byte))) return DELIMITER;
  return byte <= 0x20 || byte >= 0x7f ? SPACE : REGULAR;
});
const HEX_VALUE = new Int8Array(256).map((_, byte) => {
  const digit = '0123456789abcdef'.indexOf(String.fromCharCode(byte).toLowerCase());
  return byte < 0x80 ? digit : -1;
});
const [HASH, PERCENT, SLASH, LESS, GREATER, OPEN_ARRAY, CLOSE_ARRAY] = [0x23, 0x25, 0x2f, 0x3c, 0x3e, 0x5b, 0x5d]; // # % / < > [ ]
/** Name bytes compared at most: longer names are none of those the scan looks for. */
const NAME_BYTES = 16;

/** Where one scan is: the tokens just read, the dictionaries open, the object stream being read. */
interface Scan {
  readonly tally: Tally;
  /** Where the file's object streams are collected; undefined inside one (they do not nest). */
  readonly objectStreams: Span[] | undefined;
  /** The decoded bytes of the name being read (its first NAME_BYTES). */
  readonly name: Uint8Array;
  previousName: number;
  /** After a /Count key: 1 its value awaited, 2 an integer read, 3 `n g` read (an `R` makes it indirect). */
  countStage: number;
  countValue: number;
  /** After a /Filter key: 1 its value awaited, 2 inside its array. */
  filterStage: number;
  depth: number;
  /** Per dictionary depth (modulo DEPTHS): a `/Type /Pages` node, and its /Count (NO_COUNT, BAD_COUNT or the value). */
  readonly treeNode: Uint8Array;
  readonly nodeCount: Float64Array;
  /** What the current object's dictionary said (FLAG_* bits), reset at obj, endobj, stream, endstream. */
  flags: number;
  /** Where the data of the object stream being read starts; -1 when none is open. */
  openStream: number;
}

const NO_COUNT = -1;
const BAD_COUNT = -2;

function scan(bytes: Uint8Array, tally: Tally, objectStreams: Span[] | undefined): void {
  const state: Scan = {
    tally, objectStreams, name: new Uint8Array(NAME_BYTES), previousName: 0, countStage: 0, countValue: 0, filterStage: 0,
    depth: 0, treeNode: new Uint8Array(DEPTHS), nodeCount: new Float64Array(DEPTHS), flags: 0, openStream: -1,
  };
  let at = 0;
  while (at < bytes.length) {
    const byte = bytes[at]!;
    if (CHAR_CLASS[byte] === REGULAR) at = readWord(bytes, at, state);
    else if (byte === SLASH) at = readName(bytes, at + 1, state);
    else if (byte === LESS && bytes[at + 1] === LESS) at = punctuation(state, OPEN_DICTIONARY, at + 2);
    else if (byte === GREATER && bytes[at + 1] === GREATER) at = punctuation(state, CLOSE_DICTIONARY, at + 2);
    else if (byte === OPEN_ARRAY || byte === CLOSE_ARRAY) at = punctuation(state, byte === OPEN_ARRAY ? OPEN_ARRAY_TOKEN : CLOSE_ARRAY_TOKEN, at + 1);
    else if (CHAR_CLASS[byte] === DELIMITER && byte !== PERCENT) at = punctuation(state, OTHER_PUNCTUATION, at + 1); // a string's ( or <
    else at += 1;
  }
  if (state.openStream >= 0) objectStreams?.push({ start: state.openStream, end: bytes.length }); // no endstream: to the end
  closeObject(state);
}

/** A name: `#xx` escapes decoded, and a decoded NUL ends it (a reader in C would stop there). */
function readName(bytes: Uint8Array, at: number, state: Scan): number {
  let hash = FNV_OFFSET;
  let length = 0;
  let ended = false;
  while (at < bytes.length && CHAR_CLASS[bytes[at]!] === REGULAR) {
    let byte = bytes[at]!;
    at += 1;
    if (byte === HASH && at + 1 < bytes.length && HEX_VALUE[bytes[at]!]! >= 0 && HEX_VALUE[bytes[at + 1]!]! >= 0) {
      byte = HEX_VALUE[bytes[at]!]! * 16 + HEX_VALUE[bytes[at + 1]!]!;
      at += 2;
    }
    if (byte === 0) ended = true;
    if (ended) continue;
    if (length < NAME_BYTES) state.name[length] = byte;
    hash = Math.imul(hash ^ byte, FNV_PRIME);
    length += 1;
  }
  onName(state, lookUp(NAMES, hash, state.name, 0, length));
  return at;
}

/** A run of regular characters not after `/`: a number or a keyword (obj, stream, R...). */
function readWord(bytes: Uint8Array, at: number, state: Scan): number {
  const start = at;
  let hash = FNV_OFFSET;
  let value = 0;
  let digits = true;
  for (; at < bytes.length && CHAR_CLASS[bytes[at]!] === REGULAR; at += 1) {
    const byte = bytes[at]!;
    hash = Math.imul(hash ^ byte, FNV_PRIME);
    if (byte >= 0x30 && byte <= 0x39) value = Math.min(value * 10 + byte - 0x30, MOST_PAGES);
    else digits = false;
  }
  const keyword = lookUp(KEYWORDS, hash, bytes, start, at - start);
  onWord(state, digits ? INTEGER : keyword, value);
  if (keyword === STREAM) startStream(state, dataStart(bytes, at), start);
  if (keyword === ENDSTREAM) endStream(state, start);
  return at;
}

/** Stream data starts after the keyword's end of line (CR LF, LF, or a lone CR some writers put). */
function dataStart(bytes: Uint8Array, at: number): number {
  if (bytes[at] === 0x0d) at += 1;
  if (bytes[at] === 0x0a) at += 1;
  return at;
}

// ---- Name and keyword tables: FNV-1a hashes of the bytes into 1,024 slots, checked byte for byte.

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const SLOTS = 1024;

type Table = ({ bytes: Uint8Array; id: number }[] | undefined)[];

function table(entries: [number, string[]][]): Table {
  const slots: Table = new Array(SLOTS);
  for (const [id, spellings] of entries) {
    for (const spelling of spellings) {
      const bytes = Buffer.from(spelling, 'latin1');
      const slot = bytes.reduce((hash, byte) => Math.imul(hash ^ byte, FNV_PRIME), FNV_OFFSET) & (SLOTS - 1);
      (slots[slot] ??= []).push({ bytes, id });
    }
  }
  return slots;
}

/** The id of the spelling held in `bytes` from `offset` for `length` bytes (hashed to `hash`), else 0. */
function lookUp(slots: Table, hash: number, bytes: Uint8Array, offset: number, length: number): number {
  const candidates = slots[hash & (SLOTS - 1)];
  if (candidates === undefined || length > NAME_BYTES) return 0;
  for (const { bytes: spelling, id } of candidates) {
    if (spelling.length !== length) continue;
    let same = true;
    for (let i = 0; i < length && same; i += 1) same = spelling[i] === bytes[offset + i];
    if (same) return id;
  }
  return 0;
}

// ---- Tokens to facts: pages, page tree counts, object streams.

// Names the scan looks for (0: any other). A filter name not here is one this scan cannot read.
const [OTHER, PAGE, PAGES, TYPE, COUNT, OBJSTM, FIRST, N, FILTER, FLATE, IMAGE_FILTER, DECODE_PARMS] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const NAMES = table([
  [PAGE, ['Page']], [PAGES, ['Pages']], [TYPE, ['Type']], [COUNT, ['Count']], [OBJSTM, ['ObjStm']], [FIRST, ['First']], [N, ['N']],
  [FILTER, ['Filter']], [FLATE, ['FlateDecode', 'Fl']], [DECODE_PARMS, ['DecodeParms', 'DP']],
  [IMAGE_FILTER, ['DCTDecode', 'DCT', 'JPXDecode', 'JBIG2Decode', 'CCITTFaxDecode', 'CCF']],
]);
// Words (0: any other): keywords, and integers.
const [OBJ, ENDOBJ, STREAM, ENDSTREAM, REFERENCE, INTEGER] = [1, 2, 3, 4, 5, 6];
const KEYWORDS = table([[OBJ, ['obj']], [ENDOBJ, ['endobj']], [STREAM, ['stream']], [ENDSTREAM, ['endstream']], [REFERENCE, ['R']]]);
// Punctuation.
const [OPEN_DICTIONARY, CLOSE_DICTIONARY, OPEN_ARRAY_TOKEN, CLOSE_ARRAY_TOKEN, OTHER_PUNCTUATION] = [1, 2, 3, 4, 5];

// What an object's dictionary said, for its stream: an object stream (by its type, or by /First
// and /N, which is all some readers check) and its filter.
const FLAG_OBJSTM = 1;
const FLAG_FIRST = 2;
const FLAG_N = 4;
const FLAG_FLATE = 8;
const FLAG_IMAGE_FILTER = 16;
/** A filter other than Flate, decode parameters (a predictor), or a filter this scan cannot see (indirect). */
const FLAG_UNREADABLE = 32;

function onName(state: Scan, name: number): void {
  state.tally.pages += name === PAGE ? 1 : 0;
  if (name === OTHER && state.filterStage === 0 && state.countStage === 0) {
    state.previousName = OTHER; // most names: nothing to settle or note
    return;
  }
  settleFilter(state, name === FLATE ? FLAG_FLATE : name === IMAGE_FILTER ? FLAG_IMAGE_FILTER : FLAG_UNREADABLE);
  settleCount(state);
  if (name === PAGES && state.previousName === TYPE) state.treeNode[state.depth % DEPTHS] = 1;
  else if (name === COUNT) state.countStage = 1;
  else if (name === FILTER) state.filterStage = 1;
  else if (name === OBJSTM) state.flags |= FLAG_OBJSTM;
  else if (name === FIRST) state.flags |= FLAG_FIRST;
  else if (name === N) state.flags |= FLAG_N;
  else if (name === DECODE_PARMS) state.flags |= FLAG_UNREADABLE;
  state.previousName = name;
}

function onWord(state: Scan, word: number, value: number): void {
  if (word === OTHER && state.filterStage === 0 && state.countStage === 0) {
    state.previousName = OTHER; // most words: nothing to settle or note
    return;
  }
  settleFilter(state, FLAG_UNREADABLE); // a filter given by a number is an indirect one
  if (state.countStage === 1 && word === INTEGER) {
    state.countStage = 2;
    state.countValue = value;
  } else if (state.countStage === 2 && word === INTEGER) state.countStage = 3;
  else if (state.countStage === 3 && word === REFERENCE) setCount(state, BAD_COUNT); // `/Count 7 0 R`: not read here
  else settleCount(state);
  state.previousName = OTHER;
  if (word === OBJ || word === ENDOBJ) closeObject(state);
}

function punctuation(state: Scan, token: number, next: number): number {
  if (token === OPEN_ARRAY_TOKEN && state.filterStage === 1) state.filterStage = 2;
  else if (token === CLOSE_ARRAY_TOKEN && state.filterStage === 2) state.filterStage = 0;
  else settleFilter(state, FLAG_UNREADABLE);
  settleCount(state);
  state.previousName = OTHER;
  if (token === OPEN_DICTIONARY) openDictionary(state);
  if (token === CLOSE_DICTIONARY) closeDictionary(state);
  return next;
}

/** A token after /Filter (or inside its array) says what the filter is: `flag` (Flate, an image filter, or unreadable). */
function settleFilter(state: Scan, flag: number): void {
  if (state.filterStage === 0) return;
  state.flags |= flag;
  if (state.filterStage === 1) state.filterStage = 0;
}

/** A token after /Count's value settles it: the integer read, or bad when no integer came first. */
function settleCount(state: Scan): void {
  if (state.countStage === 1) setCount(state, BAD_COUNT);
  else if (state.countStage > 1) setCount(state, state.countValue);
}

function setCount(state: Scan, count: number): void {
  state.countStage = 0;
  if (state.depth < 1) return;
  const level = state.depth % DEPTHS;
  const known = state.nodeCount[level]!;
  state.nodeCount[level] = known === BAD_COUNT || count === BAD_COUNT ? BAD_COUNT : Math.max(known, count);
}

function openDictionary(state: Scan): void {
  state.depth += 1;
  forget(state, state.depth % DEPTHS);
}

/** A page tree node closes: its /Count is a claim the result must meet; a bad one is a doubt. */
function closeDictionary(state: Scan): void {
  if (state.depth < 1) return;
  const level = state.depth % DEPTHS;
  if (state.treeNode[level] === 1) {
    const count = state.nodeCount[level]!;
    if (count === BAD_COUNT) state.tally.unread = true;
    else state.tally.largestCount = Math.max(state.tally.largestCount, count);
  }
  forget(state, level);
  state.depth -= 1;
}

function forget(state: Scan, level: number): void {
  state.treeNode[level] = 0;
  state.nodeCount[level] = NO_COUNT;
}

/** At obj, endobj, stream, endstream and the end: dictionaries left open close, the object's flags clear. */
function closeObject(state: Scan): void {
  settleFilter(state, FLAG_UNREADABLE);
  settleCount(state);
  while (state.depth > 0) closeDictionary(state);
  state.flags = 0;
}

/**
 * A stream's data starts. When the dictionary before it makes it an object stream (and this is the
 * file, not an object stream, read): note where its Flate data starts, or count it a doubt (past
 * the cap, another filter). Typed /ObjStm with an image filter is a doubt too.
 */
function startStream(state: Scan, start: number, keywordAt: number): void {
  const flags = state.flags;
  closeObject(state);
  const objectStream = (flags & FLAG_OBJSTM) !== 0 || ((flags & FLAG_FIRST) !== 0 && (flags & FLAG_N) !== 0);
  if (state.objectStreams === undefined || !objectStream) return;
  // Untyped and an image filter: an image (/N, its colour components) in the object of an outline's /First.
  if ((flags & FLAG_OBJSTM) === 0 && (flags & FLAG_IMAGE_FILTER) !== 0) return;
  if (state.openStream >= 0) endStream(state, keywordAt); // one left open (no endstream) ends where this starts
  state.tally.objectStreamsLeft -= 1;
  if (state.tally.objectStreamsLeft < 0 || (flags & (FLAG_UNREADABLE | FLAG_IMAGE_FILTER)) !== 0) state.tally.unread = true;
  else if ((flags & FLAG_FLATE) !== 0) state.openStream = start;
  // No filter: its objects are plain bytes, counted by this scan already.
}

function endStream(state: Scan, end: number): void {
  closeObject(state);
  if (state.openStream < 0) return;
  state.objectStreams?.push({ start: state.openStream, end });
  state.openStream = -1;
}
