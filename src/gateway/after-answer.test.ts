import { setImmediate as nextCheckPhase } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { AfterAnswer } from './after-answer.js';

const ignore = () => {};

describe('AfterAnswer', () => {
  it('runs deferred work after the code of the current turn, answers written in it included', async () => {
    const after = new AfterAnswer(ignore);
    const order: string[] = [];
    after.defer(() => order.push('record'));
    await Promise.resolve();
    order.push('answer written');
    await nextCheckPhase();
    expect(order).toEqual(['answer written', 'record']);
  });

  it('runs the work of one turn together, in the order it was deferred', async () => {
    const after = new AfterAnswer(ignore);
    const order: number[] = [];
    for (let i = 0; i < 3; i++) after.defer(() => order.push(i));
    await nextCheckPhase();
    expect(order).toEqual([0, 1, 2]);
  });

  it('runs what is still queued on flush, and only once', async () => {
    const after = new AfterAnswer(ignore);
    let runs = 0;
    after.defer(() => (runs += 1));
    after.flush();
    expect(runs).toBe(1);
    await nextCheckPhase();
    expect(runs).toBe(1);
  });

  it('logs a failing piece of work and still runs the rest', async () => {
    const failures: unknown[] = [];
    const after = new AfterAnswer((error) => failures.push(error));
    let ran = false;
    after.defer(() => {
      throw new Error('boom');
    });
    after.defer(() => (ran = true));
    await nextCheckPhase();
    expect(ran).toBe(true);
    expect(failures).toEqual([new Error('boom')]);
  });
});
