// Cron schedules: when an automation fires next. Pure and deterministic (no clock, no I/O), so
// the entity workflow calls it directly and replay computes the same instants.
//
// DST rules (docs/design.md "Decisions"): croner walks the wall clock of the time zone; a wall time that
// does not exist (spring-forward gap) fires once at the first valid instant after the gap, and a
// wall time that exists twice (fall-back repeated hour) fires once, at its first occurrence.
import { Cron } from 'croner';

export class InvalidScheduleError extends Error {
  constructor(readonly param: 'schedule' | 'timezone', message: string) {
    super(message);
    this.name = 'InvalidScheduleError';
  }
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Guards the walk through a repeated hour of a per-second cron (3,600 wall times at most). */
const MAX_WALL_STEPS = 10_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone: timezone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new InvalidScheduleError('timezone', `Unknown time zone: ${timezone}`);
    }
    formatters.set(timezone, formatter);
  }
  return formatter;
}

/** Throws InvalidScheduleError unless `timezone` is an IANA name the runtime knows. */
export function assertTimezone(timezone: string): void {
  if (!timezone || timezone.trim() !== timezone) throw new InvalidScheduleError('timezone', `Unknown time zone: ${timezone}`);
  formatterFor(timezone);
}

/** UTC offset of `timezone` at `instant`, in ms (local = instant + offset). */
function offsetAt(timezone: string, instant: number): number {
  const whole = Math.floor(instant / 1000) * 1000;
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timezone).formatToParts(new Date(whole))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return local - whole;
}

/** The wall clock of `instant` in `timezone`, as a UTC-based epoch (a "floating" time). */
function wallOf(timezone: string, instant: number): number {
  return instant + offsetAt(timezone, instant);
}

/**
 * The first instant at which the wall clock of `timezone` shows `wall`: the first occurrence in
 * a repeated hour, the end of the gap when the wall time was skipped.
 */
function instantOfWall(timezone: string, wall: number): number {
  const before = offsetAt(timezone, wall - DAY_MS);
  const after = offsetAt(timezone, wall + DAY_MS);
  const candidates = [...new Set([wall - before, wall - after])]
    .filter((instant) => wallOf(timezone, instant) === wall)
    .sort((a, b) => a - b);
  if (candidates[0] !== undefined) return candidates[0];
  return transitionInstant(timezone, wall - before - DAY_MS, wall - before);
}

/** Binary search for the first instant in (low, high] whose offset differs from low's. */
function transitionInstant(timezone: string, low: number, high: number): number {
  const initial = offsetAt(timezone, low);
  let lo = low;
  let hi = high;
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2000) * 1000;
    if (mid <= lo) break;
    if (offsetAt(timezone, mid) === initial) lo = mid;
    else hi = mid;
  }
  return hi;
}

function parseCron(cron: string): Cron {
  try {
    // The pattern is evaluated on the floating wall clock (UTC), the zone is applied by us.
    return new Cron(cron, { timezone: 'UTC', paused: true });
  } catch (error) {
    throw new InvalidScheduleError('schedule', `Invalid cron expression: ${(error as Error).message}`);
  }
}

/** The number of fields of a cron expression (macros count as 5). */
export function cronFieldCount(cron: string): number {
  const trimmed = cron.trim();
  return trimmed.startsWith('@') ? 5 : trimmed.split(/\s+/).length;
}

/**
 * The first fire of `cron` in `timezone` strictly after `after`, or null when the expression
 * never fires again. Throws InvalidScheduleError for a bad expression or time zone.
 */
export function nextFireTime(cron: string, timezone: string, after: Date): Date | null {
  assertTimezone(timezone);
  const pattern = parseCron(cron);
  const afterMs = after.getTime();
  let cursor = wallOf(timezone, afterMs);
  for (let step = 0; step < MAX_WALL_STEPS; step += 1) {
    const wall = pattern.nextRun(new Date(cursor));
    if (!wall) return null;
    const instant = instantOfWall(timezone, wall.getTime());
    // A wall time already passed (the second pass of a repeated hour) does not fire again.
    if (instant > afterMs) return new Date(instant);
    cursor = wall.getTime();
  }
  return null;
}

/**
 * Checks an expression for use as an automation schedule: valid syntax and zone, fires at all,
 * a seconds field only when the minimum interval is below a minute, and no two of the next fires
 * closer than `minIntervalSeconds`.
 */
export function validateSchedule(cron: string, timezone: string, minIntervalSeconds: number, now: Date): void {
  assertTimezone(timezone);
  if (cronFieldCount(cron) === 6 && minIntervalSeconds >= 60) {
    throw new InvalidScheduleError('schedule', 'A seconds field is not allowed; use 5 cron fields');
  }
  let previous = nextFireTime(cron, timezone, now);
  if (!previous) throw new InvalidScheduleError('schedule', 'The cron expression never fires');
  for (let i = 0; i < 20; i += 1) {
    const next = nextFireTime(cron, timezone, previous);
    if (!next) return;
    if (next.getTime() - previous.getTime() < minIntervalSeconds * 1000) {
      throw new InvalidScheduleError('schedule', `The schedule fires more often than every ${minIntervalSeconds} seconds`);
    }
    previous = next;
  }
}
