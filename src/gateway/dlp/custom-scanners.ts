// Hand-written scanners for the shapes a backtracking regex scans in quadratic time: a match
// attempt that reads a long run and fails is retried from every later start inside that run
// (`a.a.a.…` for e-mail, `eyJ-eyJ-…` for JWTs, PEM headers without an END line). These find the
// fixed part first (the '@', `eyJ`, `-----BEGIN `) with indexOf, read each run once and resume
// past what they read, so every character is read a bounded number of times. Each gives the same
// matches as the regex it replaces (kept in the comments), within the stated bounds.

/** A match starting in [at, to), or none; `next` is where the search resumes (reading past `to` is allowed). */
export type CustomFind = (text: string, at: number, to: number, memo: ScanMemo) => { start: number; end: number; next: number } | { start?: undefined; next: number };

/** Per text and detector: what a scanner learned that stays true for the rest of the text. */
export interface ScanMemo {
  /** private_key: no END line starts at or after this position. */
  noEndFrom?: number;
  /** The last search per literal: its first occurrence at or after `from` is `found` (-1: none). */
  searches?: Record<string, { from: number; found: number }>;
  /** email: the last two '@'s read, each with its domain's end (-1: none) and its local run's start. */
  email?: [{ q: number; end: number; lo: number }, { q: number; end: number; lo: number }];
}

/**
 * The first occurrence of `literal` at or after `from`. Searches for the literal's rarest
 * character (`rare`, its index in the literal: an uncommon letter finds fewer false starts than
 * 'e' of `eyJ`), and remembers the answer: the next slice's search from a later position gets it
 * without reading the text between again.
 */
function search(text: string, literal: string, rare: number, from: number, memo: ScanMemo): number {
  const searches = (memo.searches ??= {});
  const last = (searches[literal] ??= { from: Infinity, found: -1 });
  if (last.from <= from && (last.found === -1 || last.found >= from)) return last.found;
  let found = -1;
  const char = literal[rare]!;
  for (let i = text.indexOf(char, from + rare); i !== -1; i = text.indexOf(char, i + 1)) {
    if (text.startsWith(literal, i - rare)) {
      found = i - rare;
      break;
    }
  }
  last.from = from;
  last.found = found;
  return found;
}

// Character classes as bit flags of one table lookup (these loops run for every character read).
const WORD = 1; // [A-Za-z0-9_]
const ALPHA = 2; // [A-Za-z]
const LOCAL = 4; // [A-Za-z0-9._%+-]
const LABEL = 8; // [A-Za-z0-9-]
const B64URL = 16; // [A-Za-z0-9_-]
const CLASSES = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  const alnum = /[A-Za-z0-9]/.test(ch);
  CLASSES[c] = (alnum || ch === '_' ? WORD : 0) | (/[A-Za-z]/.test(ch) ? ALPHA : 0) | (alnum || '._%+-'.includes(ch) ? LOCAL : 0)
    | (alnum || ch === '-' ? LABEL : 0) | (alnum || ch === '_' || ch === '-' ? B64URL : 0);
}
const has = (c: number, flag: number) => c < 128 && (CLASSES[c]! & flag) !== 0;
const isWord = (c: number) => has(c, WORD);
const isAlpha = (c: number) => has(c, ALPHA);
const isLocal = (c: number) => has(c, LOCAL);
const isLabel = (c: number) => has(c, LABEL);
const isB64Url = (c: number) => has(c, B64URL);

function wordBoundary(text: string, i: number): boolean {
  const before = i > 0 && isWord(text.charCodeAt(i - 1));
  const after = i < text.length && isWord(text.charCodeAt(i));
  return before !== after;
}

function runEnd(text: string, from: number, inRun: (c: number) => boolean): number {
  let i = from;
  while (i < text.length && inRun(text.charCodeAt(i))) i++;
  return i;
}

/**
 * E-mail: `\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b`, searched from
 * each '@' outward: the local part is the '@''s run of local characters back to its leftmost word
 * boundary, the domain the run after it. Neither kind of run contains an '@', so each character
 * is read at most twice (as a domain, then as the next address's local part), whatever the text.
 */
export const findEmail: CustomFind = (text, at, to, memo) => {
  for (let q = search(text, '@', 0, at + 1, memo); q !== -1; q = search(text, '@', 0, q + 1, memo)) {
    // Each '@' is read once: the slice that stops at it (its address would start in a later
    // slice) leaves it to the next, which takes what was read from here.
    // At most two '@'s lie past a slice's end yet are read by it (the first one after the end,
    // whose run may reach back into the slice, and the next, which stops the slice).
    // Kept in two reused slots: this loop may run for every other character.
    const read = (memo.email ??= [{ q: -1, lo: 0, end: -1 }, { q: -1, lo: 0, end: -1 }]);
    let atSign = read[0]!.q === q ? read[0]! : read[1]!.q === q ? read[1]! : undefined;
    if (!atSign) {
      let lo = q;
      while (lo > at && isLocal(text.charCodeAt(lo - 1))) lo--;
      atSign = read[1]!;
      read[1] = read[0]!;
      read[0] = atSign;
      atSign.q = q;
      atSign.lo = lo;
      atSign.end = domainEnd(text, q + 1);
    }
    // `lo` may have stopped at an earlier `at`: the run then covers [at, q) too.
    const lo = Math.max(atSign.lo, at);
    // This '@''s address would start in a later slice, and so would every later one's.
    if (lo >= to) break;
    if (atSign.end === -1) continue;
    for (let i = lo; i < q; i++) {
      if (wordBoundary(text, i)) return { start: i, end: atSign.end, next: atSign.end };
    }
  }
  return { next: to };
};

/**
 * The end of `[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b` at `from`, or -1. The regex takes
 * the most labels it can: the last label (second or later) whose leading letters, two or more, end
 * at a word boundary.
 */
function domainEnd(text: string, from: number): number {
  let best = -1;
  let labels = 0;
  for (let i = from; ;) {
    let j = i;
    while (j < text.length && isLabel(text.charCodeAt(j))) j++;
    if (j === i) break;
    labels++;
    if (labels >= 2) {
      let m = i;
      while (m < j && isAlpha(text.charCodeAt(m))) m++;
      if (m - i >= 2 && (m === text.length || !isWord(text.charCodeAt(m)))) best = m;
    }
    if (j >= text.length || text.charCodeAt(j) !== 46) break;
    i = j + 1;
  }
  return best;
}

/**
 * JWT: `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}`. A start that fails
 * fails for every later start inside the same header run, so the search resumes past that run.
 */
export const findJwt: CustomFind = (text, at, to, memo) => {
  let resume = to;
  for (let p = search(text, 'eyJ', 2, at, memo); p !== -1 && p < to;) {
    if (p > 0 && isWord(text.charCodeAt(p - 1))) {
      p = search(text, 'eyJ', 2, p + 1, memo);
      continue;
    }
    const header = runEnd(text, p + 3, isB64Url);
    if (header - (p + 3) >= 8 && text.charCodeAt(header) === 46 && text.startsWith('eyJ', header + 1)) {
      const payload = runEnd(text, header + 4, isB64Url);
      if (payload - (header + 4) >= 8 && text.charCodeAt(payload) === 46) {
        const signature = runEnd(text, payload + 1, isB64Url);
        if (signature - (payload + 1) >= 16) return { start: p, end: signature, next: signature };
      }
    }
    resume = Math.max(resume, header);
    p = search(text, 'eyJ', 2, Math.max(header, p + 1), memo);
  }
  return { next: resume };
};

// Linear on their own (checked in dlp-linear.test.ts); only ever tried at an indexOf hit.
const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]{1,40} ){0,8}PRIVATE KEY-----/y;
const PEM_END = /-----END (?:[A-Z0-9]{1,40} ){0,8}PRIVATE KEY-----/y;
export const PEM_PATTERNS = [PEM_BEGIN, PEM_END] as const;

/**
 * PEM private key: `-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----)?`.
 * The lazy body is the search for the first END line; once a search finds none, no later header
 * searches again (the regex rescans to the end of the text for every header).
 */
export const findPrivateKey: CustomFind = (text, at, to, memo) => {
  for (let p = search(text, '-----BEGIN ', 5, at, memo); p !== -1 && p < to; p = search(text, '-----BEGIN ', 5, p + 1, memo)) {
    PEM_BEGIN.lastIndex = p;
    const header = PEM_BEGIN.exec(text);
    if (!header) continue;
    const headerEnd = p + header[0].length;
    const end = endLine(text, headerEnd, memo) ?? headerEnd;
    return { start: p, end, next: end };
  }
  return { next: to };
};

function endLine(text: string, from: number, memo: ScanMemo): number | undefined {
  if (memo.noEndFrom !== undefined && from >= memo.noEndFrom) return undefined;
  for (let q = search(text, '-----END ', 5, from, memo); q !== -1; q = search(text, '-----END ', 5, q + 1, memo)) {
    PEM_END.lastIndex = q;
    const end = PEM_END.exec(text);
    if (end) return q + end[0].length;
  }
  memo.noEndFrom = from;
  return undefined;
}
