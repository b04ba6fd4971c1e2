// The per-process policy cache: concurrent misses share one read, and a change made on this
// instance is never overwritten by a read that started before it.
import { describe, expect, it } from 'vitest';
import type { Orm } from '../../db/orm.js';
import { DEFAULT_DLP_POLICY, DlpPolicies } from './policy.js';

/** A database of one policy row whose reads resolve only when the test releases them. */
function slowDatabase() {
  let actions: Record<string, string> = {};
  const pending: (() => void)[] = [];
  let reads = 0;
  const em = {
    findOne: async () => {
      reads++;
      const snapshot = { ...actions };
      await new Promise<void>((resolve) => pending.push(resolve));
      return { actions: snapshot, updatedAt: new Date() };
    },
    execute: async (_sql: string, params: unknown[]) => {
      actions = { ...actions, ...(JSON.parse(params[1] as string) as Record<string, string>) };
    },
  };
  const orm = { em: { fork: () => em } } as unknown as Orm;
  const release = () => pending.splice(0).forEach((resolve) => resolve());
  /** Releases reads until the promise settles. */
  async function settle<T>(promise: Promise<T>): Promise<T> {
    let done = false;
    void promise.finally(() => (done = true)).catch(() => undefined);
    while (!done) {
      release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    return promise;
  }
  return { orm, release, settle, reads: () => reads };
}

const clock = { now: () => new Date() };

describe('DlpPolicies', () => {
  it('answers 50 concurrent calls on a cold cache with one read', async () => {
    const db = slowDatabase();
    const policies = new DlpPolicies(db.orm, clock);
    const calls = Array.from({ length: 50 }, () => policies.policyFor('org-1'));
    db.release();
    const answers = await Promise.all(calls);
    expect(db.reads()).toBe(1);
    expect(answers.every((answer) => answer.email === DEFAULT_DLP_POLICY.email)).toBe(true);
    await policies.policyFor('org-1');
    expect(db.reads()).toBe(1);
  });

  it('does not cache a read that started before a change on this instance', async () => {
    const db = slowDatabase();
    const policies = new DlpPolicies(db.orm, clock);
    // The read starts with the old row and is still in flight when the change lands.
    const stale = policies.policyFor('org-1');
    await db.settle(policies.update('org-1', 'user-1', { email: 'block' }));
    expect((await db.settle(stale)).email).toBe('log');
    const next = db.settle(policies.policyFor('org-1'));
    expect((await next).email).toBe('block');
  });
});
