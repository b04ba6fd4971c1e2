import { ApplicationFailure } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE, outlastingDatabaseOutages } from './database-outages.js';

const startingUp = () => Object.assign(new Error('the database system is starting up'), { code: '57P03' });
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

function failingTimes(failures: Array<() => Error>) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    async activity(value: string): Promise<string> {
      calls += 1;
      const failure = failures[calls - 1];
      if (failure) throw failure();
      return `done ${value}`;
    },
  };
}

describe('outlastingDatabaseOutages', () => {
  it('runs an activity again within its attempt while the database starts up, then returns its result', async () => {
    const probe = failingTimes([refused, startingUp, startingUp]);
    const { activity } = outlastingDatabaseOutages({ activity: (value: string) => probe.activity(value) });
    const env = new MockActivityEnvironment({ startToCloseTimeoutMs: 60_000, currentAttemptScheduledTimestampMs: Date.now() });
    await expect(env.run(activity, 'x')).resolves.toBe('done x');
    expect(probe.calls).toBe(4);
  });

  it('leaves any other failure as it is, at once', async () => {
    const failure = ApplicationFailure.nonRetryable('The automation or run no longer exists', 'not_found');
    let calls = 0;
    const { activity } = outlastingDatabaseOutages({
      activity: async () => {
        calls += 1;
        throw failure;
      },
    });
    const env = new MockActivityEnvironment({ startToCloseTimeoutMs: 60_000, currentAttemptScheduledTimestampMs: Date.now() });
    await expect(env.run(activity)).rejects.toBe(failure);
    expect(calls).toBe(1);
  });

  it('fails retryable (never non-retryable) when the outage outlasts the attempt', async () => {
    const { activity } = outlastingDatabaseOutages({ activity: async () => Promise.reject(startingUp()) });
    const env = new MockActivityEnvironment({ startToCloseTimeoutMs: 3_500, currentAttemptScheduledTimestampMs: Date.now() });
    const error = await env.run(activity).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect(error).toMatchObject({ type: DATABASE_UNAVAILABLE, nonRetryable: false });
    expect((error as Error).message).toContain('the database system is starting up');
  });
});
