import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { heartbeatingWhenTimed } from './heartbeats.js';

const { slow } = heartbeatingWhenTimed({
  slow: async (ms: number) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return `slept ${ms}`;
  },
});

/** Runs `slow` for `ms` in an activity with `info`, counting its heartbeats (and any after it returned). */
async function heartbeatsOf(info: ConstructorParameters<typeof MockActivityEnvironment>[0], ms: number) {
  const env = new MockActivityEnvironment(info);
  let beats = 0;
  env.on('heartbeat', () => {
    beats += 1;
  });
  await expect(env.run(slow, ms)).resolves.toBe(`slept ${ms}`);
  const during = beats;
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { during, after: beats - during };
}

describe('heartbeatingWhenTimed', () => {
  it('heartbeats several times per heartbeat timeout while an activity with one runs, and stops when it returns', async () => {
    // Timeout 500 ms: a beat every 100 ms, so about 6 during 650 ms.
    const { during, after } = await heartbeatsOf({ heartbeatTimeoutMs: 500 }, 650);
    expect(during).toBeGreaterThanOrEqual(4);
    expect(after).toBe(0);
  });

  it('does not heartbeat an activity without a heartbeat timeout, nor a local one', async () => {
    expect((await heartbeatsOf({ heartbeatTimeoutMs: undefined }, 400)).during).toBe(0);
    expect((await heartbeatsOf({ heartbeatTimeoutMs: 500, isLocal: true }, 400)).during).toBe(0);
  });

  it('runs a function called outside any activity as it is', async () => {
    await expect(slow(10)).resolves.toBe('slept 10');
  });

  it('heartbeats at most every 2 s however long the timeout', async () => {
    // Timeout 60 s: a fifth would be 12 s; the beat is every 2 s, so one within 2.5 s.
    expect((await heartbeatsOf({ heartbeatTimeoutMs: 60_000 }, 2_500)).during).toBe(1);
  });
});
