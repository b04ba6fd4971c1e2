import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { statusRange, timeRange } from './request-records.js';
import { requestRecordsQuery } from './request-records.schemas.js';

describe('statusRange', () => {
  it('maps success, error, a class and one code to [low, high) HTTP statuses', () => {
    expect(statusRange('success')).toEqual([0, 400]);
    expect(statusRange('error')).toEqual([400, 1000]);
    expect(statusRange('4xx')).toEqual([400, 500]);
    expect(statusRange('429')).toEqual([429, 430]);
  });

  it('is reached only through the schema, which refuses other forms', () => {
    for (const bad of ['6xx', '600', '42', 'errors', '4XX', ' 200']) expect(requestRecordsQuery.safeParse({ status: bad }).success, bad).toBe(false);
  });
});

describe('timeRange', () => {
  it('takes from as it is and a date-only to as the end of that UTC day', () => {
    expect(timeRange({ from: '2026-11-01', to: '2026-11-30' })).toEqual({ from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-12-01T00:00:00Z') });
    expect(timeRange({ from: '2026-11-01T12:00:00+02:00' })).toEqual({ from: new Date('2026-11-01T10:00:00Z') });
  });

  it('refuses a to not after from, naming to', () => {
    const refused = (() => {
      try {
        timeRange({ from: '2026-11-02', to: '2026-11-02T00:00:00Z' });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'bad_request', param: 'to' });
  });

  it('refuses instants outside the years 1-9999 and reads to=9999-12-31 as no upper bound', () => {
    expect(() => timeRange({ from: '0000-12-31' })).toThrow(/from must be a date between/);
    expect(timeRange({ to: '9999-12-31' })).toEqual({});
  });
});
