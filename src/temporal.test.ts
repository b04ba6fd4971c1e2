import { ServiceError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { boundedRetryOptions, isTemporalUnavailable, UNAVAILABLE_ATTEMPTS } from './temporal.js';

const grpcError = (code: number, details: string) => Object.assign(new Error(`${code} ${details}`), { code, details, metadata: { get: () => [] } });
const status = (code: number) => ({ code, details: '', metadata: {} as never });

describe('Temporal availability', () => {
  it('gives up on an unavailable frontend after a few seconds of backoff, not the SDK default of ~20 s', () => {
    const options = boundedRetryOptions();
    expect(options.retryableDecider(UNAVAILABLE_ATTEMPTS - 1, status(14))).toBe(true);
    expect(options.retryableDecider(UNAVAILABLE_ATTEMPTS, status(14))).toBe(false);
    // Backoff up to the last attempt, at most (100 ms x 1.7^n, +20% jitter).
    let total = 0;
    for (let attempt = 1; attempt < UNAVAILABLE_ATTEMPTS; attempt++) total += 100 * 1.7 ** attempt * 1.2;
    expect(total).toBeLessThan(4_000);
    // Other retryable codes keep the SDK's budget.
    expect(options.retryableDecider(UNAVAILABLE_ATTEMPTS, status(8))).toBe(true);
  });

  it('tells an unreachable frontend (wrapped by the client) from a refusal', () => {
    expect(isTemporalUnavailable(new ServiceError('Failed to start Workflow', { cause: grpcError(14, 'No connection established') }))).toBe(true);
    expect(isTemporalUnavailable(grpcError(4, 'Deadline exceeded'))).toBe(true);
    expect(isTemporalUnavailable(new ServiceError('Failed to start Workflow', { cause: grpcError(3, 'invalid argument') }))).toBe(false);
    expect(isTemporalUnavailable(new Error('connect ECONNREFUSED'))).toBe(false);
  });
});
