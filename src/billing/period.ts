// Billing periods are UTC calendar months: the monthly budget cap applies to the spend of the
// month a reservation is made in, and usage summaries default to the current month.

export interface BillingPeriod {
  /** `YYYY-MM`, the key of the period's spend counter. */
  key: string;
  /** First instant of the month (inclusive). */
  start: Date;
  /** First instant of the next month (exclusive). */
  end: Date;
}

export function billingPeriodOf(at: Date): BillingPeriod {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  return {
    key: `${year}-${String(month + 1).padStart(2, '0')}`,
    start: new Date(Date.UTC(year, month, 1)),
    end: new Date(Date.UTC(year, month + 1, 1)),
  };
}

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

/** The start of the UTC hour or day (`unitMs`) at or before `at`. */
export function floorTo(at: Date, unitMs: number): Date {
  return new Date(Math.floor(at.getTime() / unitMs) * unitMs);
}

/** The start of the UTC hour or day (`unitMs`) at or after `at`. */
export function ceilTo(at: Date, unitMs: number): Date {
  return new Date(Math.ceil(at.getTime() / unitMs) * unitMs);
}

/** `YYYY-MM-DD` of a UTC midnight. */
export function utcDayString(at: Date): string {
  return at.toISOString().slice(0, 10);
}
