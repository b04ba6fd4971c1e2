import fs from 'node:fs';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer';
import { afterAll, describe, expect, it } from 'vitest';
import { BpeCounter, MAX_RUN, pieceEnds, PIECE_CHARS, SAMPLE_CHARS, samplePieces } from './bpe-count.js';

const bpe = new BpeCounter();
afterAll(() => bpe.close());

const exact = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

/** Real prose and code of this repository: what "ordinary text" means for the 10% bound. */
const corpus = ['README.md', 'SECURITY.md', 'docs/operations.md', 'docs/gateway-wire-formats.md', 'src/gateway/chat.ts'].map((file) => fs.readFileSync(file, 'utf8'));

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/** The longest run of one character class (spaces or not) inside `piece`. */
function longestRun(piece: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < piece.length; i++) {
    run = i > 0 && isSpace(piece.charCodeAt(i)) === isSpace(piece.charCodeAt(i - 1)) ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** Prose of the corpus's words, with none of its long runs (rules, indentation, URLs) that pieces cut. */
function plainProse(length: number): string {
  const words = corpus.join(' ').split(/\s+/).filter((word) => word.length > 0 && word.length < MAX_RUN);
  let text = '';
  for (let i = 0; text.length < length; i++) text += (i % 17 === 16 ? '.\n' : ' ') + words[(i * 7919) % words.length];
  return text.slice(0, length);
}

describe('countBpeTokens', () => {
  it('counts short prose exactly as o200k does', async () => {
    const text = plainProse(SAMPLE_CHARS);
    expect(longestRun(text)).toBeLessThanOrEqual(MAX_RUN);
    expect(await bpe.count([text])).toBe(exact(text));
  });

  it('counts short markdown within 1% of o200k (its long rules and URLs are cut)', async () => {
    const text = corpus[0]!.slice(0, SAMPLE_CHARS);
    expect(Math.abs((await bpe.count([text])) / exact(text) - 1)).toBeLessThan(0.01);
  });

  it('stays within 10% of o200k on long ordinary text, sampled', async () => {
    for (const text of corpus) {
      expect(text.length).toBeGreaterThan(SAMPLE_CHARS);
      const counted = await bpe.count([text]);
      expect(Math.abs(counted / exact(text) - 1)).toBeLessThan(0.1);
    }
  });

  it('counts several texts as their sum', async () => {
    const texts = ['Summarize the notes.', 'Ünïcödé façade — 東京都の天気は？ 🚀', '{"json": [1, 2]}'];
    expect(await bpe.count(texts)).toBe(texts.reduce((total, text) => total + exact(text), 0));
  });

  it('counts special tokens as the text they are, and never throws', async () => {
    const text = 'before <|endoftext|> after <|im_start|>';
    expect(() => countTokens(text)).toThrow(/Disallowed special token/);
    expect(await bpe.count([text])).toBe(exact(text));
  });

  it('answers a count waiting when it is closed by the byte bound, and counts again after', async () => {
    const counter = new BpeCounter();
    const waiting = counter.count(['héllo wörld']);
    await counter.close();
    expect(await waiting).toBe(Buffer.byteLength('héllo wörld'));
    expect(await counter.count(['hello world'])).toBe(exact('hello world'));
    await counter.close();
  });

  it('counts a megabyte of unbroken letters without tokenizing it whole', async () => {
    let text = '';
    for (let i = 0; i < 1 << 20; i++) text += String.fromCharCode(97 + ((i * 7919) % 26));
    const { pieces } = samplePieces([text]);
    const tokenized = pieces.reduce((total, piece) => total + piece.length, 0);
    expect(tokenized).toBeLessThanOrEqual(2 * SAMPLE_CHARS);
    const counted = await bpe.count([text]);
    // Unbroken letters are about two or three characters a token: the sample scales to that.
    expect(counted).toBeGreaterThan(text.length / 6);
    expect(counted).toBeLessThan(text.length);
  });
});

describe('pieceEnds', () => {
  it('cuts prose at word boundaries, so its pieces count what the whole counts', () => {
    const text = plainProse(3 * SAMPLE_CHARS);
    let start = 0;
    let tokens = 0;
    for (const end of pieceEnds(text)) {
      tokens += exact(text.slice(start, end));
      start = end;
    }
    expect(tokens).toBe(exact(text));
  });

  it('holds its bounds on any text: pieces tile the text, no run past MAX_RUN, no surrogate pair split, linear in count', () => {
    const spacey = fc.string({ unit: fc.constantFrom(' ', '\n', 'a', 'b', '7', '.', '東', '🚀') as fc.Arbitrary<string>, maxLength: 4000 });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 4000 }), spacey), (text) => {
        const ends = pieceEnds(text);
        expect(ends.at(-1)).toBe(text.length);
        let start = 0;
        for (const end of ends) {
          expect(end).toBeGreaterThanOrEqual(start);
          const piece = text.slice(start, end);
          expect(longestRun(piece)).toBeLessThanOrEqual(MAX_RUN + 1);
          if (end < text.length) expect(text.charCodeAt(end) >= 0xdc00 && text.charCodeAt(end) <= 0xdfff).toBe(false);
          start = end;
        }
        expect(ends.length).toBeLessThanOrEqual(text.length + 1);
      }),
      { numRuns: 500 },
    );
  });

  it('samples at most about SAMPLE_CHARS characters, whatever the texts', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 60_000 }), { maxLength: 8 }), (texts) => {
        const { pieces, scale } = samplePieces(texts);
        const sampled = pieces.reduce((total, piece) => total + piece.length, 0);
        expect(sampled).toBeLessThanOrEqual(SAMPLE_CHARS + (SAMPLE_CHARS / PIECE_CHARS) * (MAX_RUN + 16));
        expect(Number.isFinite(scale)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });
});
