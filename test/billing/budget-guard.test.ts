// The budget guard on the real stack: the cap race on the guard itself (one runtime, and two
// runtimes sharing Redis), expiry of an abandoned reservation, release, spend loaded from
// usage_records, and cap changes reaching every instance at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BudgetLedger } from '../../src/billing/budget-ledger.js';
import { ManualClock } from '../../src/clock.js';
import { AppError } from '../../src/errors.js';
import { metrics } from '../../src/metrics.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { seedUsage } from './seed.js';

const TTL_SECONDS = 120;
const clock = new ManualClock(new Date('2026-11-20T12:00:00Z'));
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ worker: false, clock, env: { BUDGET_RESERVATION_TTL_SECONDS: String(TTL_SECONDS) } });
});
afterAll(async () => stack?.stop());

function ledgerOf(target: Stack): BudgetLedger {
  expect(target.runtime.budget).toBeInstanceOf(BudgetLedger);
  return target.runtime.budget as BudgetLedger;
}

async function setCap(target: Stack, org: TestOrganization, monthlyCap: number | null): Promise<void> {
  const res = await call(target.baseUrl, 'PUT', '/billing/budget', { key: org.owner.key, body: { monthlyCap } });
  expect(res.status).toBe(200);
}

async function overruns(): Promise<number> {
  return (await metrics.budgetOverruns.get()).values[0]?.value ?? 0;
}

async function expectBudgetExceeded(promise: Promise<unknown>): Promise<void> {
  await expect(promise).rejects.toSatisfy((error) => error instanceof AppError && error.code === 'budget_exceeded' && error.status === 402);
}

/** Fires reservations all at once; returns how many were admitted and the refusals' codes. */
async function race(reserve: () => Promise<unknown>, count: number) {
  const outcomes = await Promise.allSettled(Array.from({ length: count }, reserve));
  const admitted = outcomes.filter((outcome) => outcome.status === 'fulfilled');
  const refusedCodes = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [(outcome.reason as AppError).code] : []));
  return { admitted: admitted.map((outcome) => (outcome as PromiseFulfilledResult<Awaited<ReturnType<typeof reserve>>>).value), refusedCodes };
}

describe('the cap race on the guard', () => {
  it('admits exactly one of 20 parallel reservations when the budget covers one, and settled spend stays within the cap', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const worstCase = 0.0125;
    await setCap(stack, org, worstCase);
    const ledger = ledgerOf(stack);

    const { admitted, refusedCodes } = await race(() => ledger.reserve(org.id, worstCase), 20);

    expect(admitted).toHaveLength(1);
    expect(refusedCodes).toEqual(Array(19).fill('budget_exceeded'));
    await ledger.settle(admitted[0] as never, worstCase);
    const status = await ledger.status(org.id);
    expect(status.spent).toBeCloseTo(worstCase, 9);
    expect(status.spent).toBeLessThanOrEqual(worstCase);
    expect(status.reserved).toBe(0);
    expect(status.remaining).toBe(0);
    await expectBudgetExceeded(ledger.reserve(org.id, 0.000001));
  });

  it('admits at most one of 20 reservations split across two runtimes sharing Redis', async (context) => {
    if (stack.runtime.shared.kind !== 'redis') context.skip();
    const second = await startStack({ worker: false, clock, shareWith: stack, env: { BUDGET_RESERVATION_TTL_SECONDS: String(TTL_SECONDS) } });
    try {
      const org = await createTestOrganization(stack.runtime.orm);
      const worstCase = 0.5;
      await setCap(stack, org, worstCase);
      const ledgers = [ledgerOf(stack), ledgerOf(second)];
      let turn = 0;

      const { admitted, refusedCodes } = await race(() => ledgers[turn++ % 2]!.reserve(org.id, worstCase), 20);

      expect(admitted.length).toBeLessThanOrEqual(1);
      expect(admitted).toHaveLength(1);
      expect(refusedCodes).toEqual(Array(19).fill('budget_exceeded'));
      await ledgers[1]!.settle(admitted[0] as never, 0.3);
      const [fromFirst, fromSecond] = await Promise.all(ledgers.map((ledger) => ledger.status(org.id)));
      expect(fromFirst!.spent).toBeCloseTo(0.3, 9);
      expect(fromSecond).toEqual(fromFirst);
      expect(fromFirst!.spent).toBeLessThanOrEqual(worstCase);
    } finally {
      await second.stop();
    }
  });

  it('applies a cap change on one instance to reservations on another at once', async (context) => {
    if (stack.runtime.shared.kind !== 'redis') context.skip();
    const second = await startStack({ worker: false, clock, shareWith: stack });
    try {
      const org = await createTestOrganization(stack.runtime.orm);
      const other = ledgerOf(second);
      const held = await other.reserve(org.id, 1);
      await other.release(held);

      await setCap(stack, org, 0.5);
      await expectBudgetExceeded(other.reserve(org.id, 1));
      await setCap(stack, org, null);
      await other.release(await other.reserve(org.id, 1));
    } finally {
      await second.stop();
    }
  });
});

describe('reservations', () => {
  it('frees the budget of an abandoned reservation once it expires', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    await setCap(stack, org, 1);
    const ledger = ledgerOf(stack);
    await ledger.reserve(org.id, 1); // never settled: its caller "crashed"

    await expectBudgetExceeded(ledger.reserve(org.id, 1));
    clock.advance(TTL_SECONDS * 1000 - 1);
    await expectBudgetExceeded(ledger.reserve(org.id, 1));
    clock.advance(2);
    const renewed = await ledger.reserve(org.id, 1);

    expect((await ledger.status(org.id)).reserved).toBe(1);
    await ledger.release(renewed);
  });

  it('returns a released reservation to the budget without spending it', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    await setCap(stack, org, 2);
    const ledger = ledgerOf(stack);

    const first = await ledger.reserve(org.id, 2);
    await ledger.release(first);
    const second = await ledger.reserve(org.id, 2);

    expect(await ledger.status(org.id)).toMatchObject({ spent: 0, reserved: 2, remaining: 2 });
    await ledger.release(second);
  });

  it('settles to the real cost, not the worst case', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    await setCap(stack, org, 1);
    const ledger = ledgerOf(stack);

    await ledger.settle(await ledger.reserve(org.id, 0.8), 0.25);
    const next = await ledger.reserve(org.id, 0.75);

    expect(await ledger.status(org.id)).toMatchObject({ spent: 0.25, reserved: 0.75, remaining: 0.75 });
    await expectBudgetExceeded(ledger.reserve(org.id, 0.000000001));
    await ledger.release(next);
  });

  it('keeps a renewed reservation past its first expiry, and never revives a lapsed one', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    await setCap(stack, org, 1);
    const ledger = ledgerOf(stack);
    const held = await ledger.reserve(org.id, 1);

    clock.advance(TTL_SECONDS * 1000 - 1);
    expect(await ledger.renew(held)).toBe(true);
    clock.advance(TTL_SECONDS * 1000 - 1);
    await expectBudgetExceeded(ledger.reserve(org.id, 1));
    clock.advance(1);
    expect(await ledger.renew(held)).toBe(false);
    const next = await ledger.reserve(org.id, 1);

    expect(await ledger.renew(next)).toBe(true);
    await ledger.release(next);
    expect(await ledger.renew(next)).toBe(false);
    expect((await ledger.status(org.id)).reserved).toBe(0);
  });

  it('spends the real cost of a settlement above its reservation, and flags the overrun', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    await setCap(stack, org, 1);
    const ledger = ledgerOf(stack);
    const overrunsBefore = await overruns();

    await ledger.settle(await ledger.reserve(org.id, 0.25), 0.4);

    expect(await ledger.status(org.id)).toMatchObject({ spent: 0.4, reserved: 0 });
    expect(await overruns()).toBe(overrunsBefore + 1);
    const warning = stack.logs.map((line) => JSON.parse(line)).find((line) => line.organizationId === org.id && /above its reservation/.test(line.msg));
    expect(warning).toMatchObject({ reserved: 0.25, actual: 0.4 });
    await ledger.settle(await ledger.reserve(org.id, 0.25), 0.25);
    expect(await overruns()).toBe(overrunsBefore + 1);
  });

  it('never refuses without a cap', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const ledger = ledgerOf(stack);
    const { admitted } = await race(() => ledger.reserve(org.id, 1000), 5);
    expect(admitted).toHaveLength(5);
    expect(await ledger.status(org.id)).toMatchObject({ monthlyCap: null, remaining: null, reserved: 5000 });
  });
});

describe('spend loaded from usage_records', () => {
  it('counts the current month of usage records against the cap, and not earlier months', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    await seedUsage(stack.runtime.orm, org.id, [
      { at: '2026-10-31T23:59:59Z', userId: org.owner.id, model: 'm', inputTokens: 1, outputTokens: 1, cost: 5 },
      { at: '2026-11-01T00:00:00Z', userId: org.owner.id, model: 'm', inputTokens: 1, outputTokens: 1, cost: 0.5 },
      { at: '2026-11-03T08:00:00Z', userId: org.member.id, model: 'm', inputTokens: 1, outputTokens: 1, cost: 0.2 },
    ]);
    await setCap(stack, org, 1);
    const ledger = ledgerOf(stack);

    await expectBudgetExceeded(ledger.reserve(org.id, 0.31));
    const held = await ledger.reserve(org.id, 0.3);

    expect(await ledger.status(org.id)).toMatchObject({ spent: 0.7, reserved: 0.3 });
    await ledger.release(held);
  });

  it('reloads the spend from usage_records when the Redis counter is lost', async (context) => {
    if (stack.runtime.shared.kind !== 'redis') context.skip();
    const org = await createTestOrganization(stack.runtime.orm);
    await setCap(stack, org, 10);
    const ledger = ledgerOf(stack);
    await ledger.settle(await ledger.reserve(org.id, 1), 0.9);
    await seedUsage(stack.runtime.orm, org.id, [
      { at: '2026-11-20T12:00:00Z', userId: org.owner.id, model: 'm', inputTokens: 1, outputTokens: 1, cost: 0.9 },
      { at: '2026-11-19T12:00:00Z', userId: org.owner.id, model: 'm', inputTokens: 1, outputTokens: 1, cost: 4 },
    ]);
    expect((await ledger.status(org.id)).spent).toBeCloseTo(0.9, 9); // the counter, not yet reconciled

    await stack.runtime.shared.redis!.del(`budget:{${org.id}}:2026-11`, `budget:{${org.id}}:cap`);

    expect(await ledger.status(org.id)).toMatchObject({ monthlyCap: 10, spent: 4.9, reserved: 0 });
  });
});
