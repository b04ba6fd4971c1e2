import { describe, expect, it } from 'vitest';
import { InvalidScheduleError, nextFireTime, validateSchedule } from './schedule.js';

const at = (iso: string) => new Date(iso);
const iso = (date: Date | null) => date?.toISOString() ?? null;

function fires(cron: string, timezone: string, after: string, count: number): string[] {
  const result: string[] = [];
  let cursor = at(after);
  for (let i = 0; i < count; i += 1) {
    const next = nextFireTime(cron, timezone, cursor);
    if (!next) break;
    result.push(next.toISOString());
    cursor = next;
  }
  return result;
}

describe('nextFireTime', () => {
  it('returns the next minute boundary in UTC, strictly after the given instant', () => {
    expect(iso(nextFireTime('* * * * *', 'UTC', at('2026-05-01T10:00:00.000Z')))).toBe('2026-05-01T10:01:00.000Z');
    expect(iso(nextFireTime('* * * * *', 'UTC', at('2026-05-01T10:00:30.500Z')))).toBe('2026-05-01T10:01:00.000Z');
  });

  it('applies the time zone to the wall clock', () => {
    expect(iso(nextFireTime('0 9 * * *', 'Europe/Paris', at('2026-07-01T00:00:00Z')))).toBe('2026-07-01T07:00:00.000Z');
    expect(iso(nextFireTime('0 9 * * *', 'Asia/Kolkata', at('2026-07-01T00:00:00Z')))).toBe('2026-07-01T03:30:00.000Z');
    expect(iso(nextFireTime('0 9 * * 1', 'America/Los_Angeles', at('2026-01-01T00:00:00Z')))).toBe('2026-01-05T17:00:00.000Z');
  });

  it('fires a time inside the spring-forward gap once, at the end of the gap (America/New_York 2026-03-08)', () => {
    // 02:30 does not exist on 2026-03-08: clocks jump from 02:00 EST to 03:00 EDT (07:00Z).
    expect(fires('30 2 * * *', 'America/New_York', '2026-03-07T12:00:00Z', 3)).toEqual([
      '2026-03-08T07:00:00.000Z',
      '2026-03-09T06:30:00.000Z',
      '2026-03-10T06:30:00.000Z',
    ]);
    // Every 15 minutes: the four missing wall times collapse into one fire at 03:00 EDT.
    expect(fires('*/15 * * * *', 'America/New_York', '2026-03-08T06:40:00Z', 4)).toEqual([
      '2026-03-08T06:45:00.000Z',
      '2026-03-08T07:00:00.000Z',
      '2026-03-08T07:15:00.000Z',
      '2026-03-08T07:30:00.000Z',
    ]);
  });

  it('fires a time inside the repeated hour once, at its first occurrence (America/New_York 2026-11-01)', () => {
    // 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST): only the first fires.
    expect(fires('30 1 * * *', 'America/New_York', '2026-10-31T12:00:00Z', 2)).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
    ]);
    expect(fires('0 * * * *', 'America/New_York', '2026-11-01T04:30:00Z', 3)).toEqual([
      '2026-11-01T05:00:00.000Z',
      '2026-11-01T07:00:00.000Z',
      '2026-11-01T08:00:00.000Z',
    ]);
    // Asked from inside the second pass of the hour, the next fire is after it.
    expect(iso(nextFireTime('*/20 * * * *', 'America/New_York', at('2026-11-01T06:05:00Z')))).toBe('2026-11-01T07:00:00.000Z');
  });

  it('understands the @ macros', () => {
    const after = at('2026-05-01T10:15:00Z');
    expect(iso(nextFireTime('@hourly', 'UTC', after))).toBe('2026-05-01T11:00:00.000Z');
    expect(iso(nextFireTime('@daily', 'UTC', after))).toBe('2026-05-02T00:00:00.000Z');
    expect(iso(nextFireTime('@weekly', 'UTC', after))).toBe('2026-05-03T00:00:00.000Z');
    expect(iso(nextFireTime('@monthly', 'Europe/Berlin', after))).toBe('2026-05-31T22:00:00.000Z');
    expect(iso(nextFireTime('@yearly', 'UTC', after))).toBe('2027-01-01T00:00:00.000Z');
  });

  it('supports a seconds field', () => {
    expect(fires('*/5 * * * * *', 'UTC', '2026-05-01T10:00:02Z', 2)).toEqual(['2026-05-01T10:00:05.000Z', '2026-05-01T10:00:10.000Z']);
  });

  it('returns null for an expression that never fires', () => {
    expect(nextFireTime('0 0 30 2 *', 'UTC', at('2026-01-01T00:00:00Z'))).toBeNull();
  });

  it('rejects malformed expressions and unknown time zones, naming the field', () => {
    for (const cron of ['', '* * *', '61 * * * *', 'every day', '* * * * * * * *']) {
      expect(() => nextFireTime(cron, 'UTC', at('2026-01-01T00:00:00Z')), cron).toThrow(InvalidScheduleError);
    }
    try {
      nextFireTime('* * * * *', 'Mars/Olympus_Mons', at('2026-01-01T00:00:00Z'));
      expect.fail('accepted an unknown time zone');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidScheduleError);
      expect((error as InvalidScheduleError).param).toBe('timezone');
    }
  });
});

describe('validateSchedule', () => {
  const now = at('2026-05-01T10:00:00Z');

  it('accepts a 5-field cron at the default minimum interval', () => {
    expect(() => validateSchedule('* * * * *', 'UTC', 60, now)).not.toThrow();
    expect(() => validateSchedule('@daily', 'Europe/London', 60, now)).not.toThrow();
  });

  it('rejects a seconds field unless the minimum interval is below a minute', () => {
    expect(() => validateSchedule('0 * * * * *', 'UTC', 60, now)).toThrow(/seconds field/);
    expect(() => validateSchedule('*/2 * * * * *', 'UTC', 1, now)).not.toThrow();
  });

  it('rejects schedules firing more often than the minimum interval', () => {
    expect(() => validateSchedule('*/2 * * * * *', 'UTC', 5, now)).toThrow(/more often/);
    expect(() => validateSchedule('*/5 * * * *', 'UTC', 600, now)).toThrow(/more often/);
  });

  it('rejects an expression that never fires', () => {
    expect(() => validateSchedule('0 0 30 2 *', 'UTC', 60, now)).toThrow(/never fires/);
  });
});
