import { describe, expect, it } from 'vitest';
import { AppError, ERROR_STATUS, isRetryableCode, type ErrorCode } from './errors.js';

describe('AppError', () => {
  it('maps every code through the one status table', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(new AppError(code as keyof typeof ERROR_STATUS, 'x').status).toBe(status);
    }
  });

  it('renders the OpenAI-shaped body with param and safe details', () => {
    const error = new AppError('bad_request', 'temperature must be between 0 and 2', { param: 'temperature', details: { hint: 'x' } });
    expect(error.toBody()).toEqual({
      error: { code: 'bad_request', message: 'temperature must be between 0 and 2', type: 'invalid_request_error', param: 'temperature', hint: 'x' },
    });
  });

  it('never lets details override the contract fields', () => {
    const error = new AppError('forbidden', 'no', { details: { code: 'owned', param: 'p' } });
    expect(error.toBody().error).toMatchObject({ code: 'forbidden', param: null });
  });
});

describe('isRetryableCode (the retry rule of agent runs)', () => {
  it('retries server-side and upstream failures (5xx) and rate limiting (429), and no other client error', () => {
    const retried = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter(isRetryableCode).sort();
    expect(retried).toEqual(['internal_error', 'provider_error', 'provider_unavailable', 'rate_limited', 'service_unavailable']);
  });
});
