// splitRange: every range is covered exactly once, at the coarsest grain that fits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitRange, type UsageRange } from './usage.queries.js';

const range = (from: string, to: string): UsageRange => ({ from: new Date(from), to: new Date(to) });
const iso = (r: UsageRange) => [r.from.toISOString(), r.to.toISOString()];

describe('splitRange', () => {
  it('reads whole days from the daily rollup, whole edge hours from the hourly one, the rest from records', () => {
    const split = splitRange(range('2026-11-05T10:30:00Z', '2026-11-20T15:45:00Z'));
    expect(split.days.map(iso)).toEqual([['2026-11-06T00:00:00.000Z', '2026-11-20T00:00:00.000Z']]);
    expect(split.hours.map(iso)).toEqual([
      ['2026-11-05T11:00:00.000Z', '2026-11-06T00:00:00.000Z'],
      ['2026-11-20T00:00:00.000Z', '2026-11-20T15:00:00.000Z'],
    ]);
    expect(split.records.map(iso)).toEqual([
      ['2026-11-05T10:30:00.000Z', '2026-11-05T11:00:00.000Z'],
      ['2026-11-20T15:00:00.000Z', '2026-11-20T15:45:00.000Z'],
    ]);
  });

  it('uses only the daily rollup for whole days and nothing for an empty range', () => {
    expect(splitRange(range('2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z'))).toEqual({
      records: [], hours: [], days: [range('2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z')],
    });
    expect(splitRange(range('2026-11-05T10:00:00Z', '2026-11-05T10:00:00Z'))).toEqual({ records: [], hours: [], days: [] });
  });

  it('covers any range exactly once, without overlaps or gaps', () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 90 * 86_400_000 }), fc.integer({ min: 0, max: 90 * 86_400_000 }), (a, b) => {
        const whole = { from: new Date(start + Math.min(a, b)), to: new Date(start + Math.max(a, b)) };
        const split = splitRange(whole);
        const pieces = [...split.records, ...split.hours, ...split.days].sort((x, y) => x.from.getTime() - y.from.getTime());
        let cursor = whole.from.getTime();
        for (const piece of pieces) {
          expect(piece.from.getTime()).toBe(cursor);
          expect(piece.to.getTime()).toBeGreaterThan(piece.from.getTime());
          cursor = piece.to.getTime();
        }
        expect(cursor).toBe(whole.to.getTime());
        expect(pieces.length === 0).toBe(whole.from.getTime() === whole.to.getTime());
        for (const hour of split.hours) expect(hour.from.getTime() % 3_600_000).toBe(0);
        for (const day of split.days) expect([day.from.getTime() % 86_400_000, day.to.getTime() % 86_400_000]).toEqual([0, 0]);
        expect(split.records.reduce((sum, r) => sum + r.to.getTime() - r.from.getTime(), 0)).toBeLessThan(2 * 3_600_000);
      }),
      { numRuns: 500 },
    );
  });
});
