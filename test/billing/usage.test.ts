// GET /v1/billing/usage and PUT /v1/billing/budget on the real stack: every query parameter
// combination and error, groups that add up to the totals, roles, and organization scoping.
// Time is fixed at 2026-11-20T15:30Z so the default period (the UTC month) is known.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { seedUsage, type SeedRecord } from './seed.js';

const NOW = '2026-11-20T15:30:00.000Z';
let stack: Stack;
let org: TestOrganization;
let records: SeedRecord[];
const removedUserId = randomUUID();

beforeAll(async () => {
  stack = await startStack({ worker: false, clock: new ManualClock(new Date(NOW)) });
  org = await createTestOrganization(stack.runtime.orm);
  const at = (iso: string, userId: string, model: string, inputTokens: number, outputTokens: number, cost: number): SeedRecord => ({
    at: iso, userId, model, inputTokens, outputTokens, cost,
  });
  records = [
    at('2026-10-31T23:59:59.999Z', org.owner.id, 'fast-model', 100, 10, 0.5), // previous month
    // Prompt-cache reads and writes are parts of the input, summed apart in every range split.
    { ...at('2026-11-01T00:00:00.000Z', org.owner.id, 'fast-model', 1000, 200, 0.00027), cacheReadTokens: 800, cacheWriteTokens: 100, cacheSaving: 0.000108 },
    { ...at('2026-11-05T10:00:00.000Z', org.member.id, 'smart-model', 2000, 300, 0.0125), cacheWriteTokens: 1500 },
    at('2026-11-05T18:00:00.000Z', org.member.id, 'fast-model', 50, 5, 0.0000105),
    { ...at('2026-11-10T12:00:00.000Z', removedUserId, 'smart-model', 700, 70, 0.0042), source: 'automation' }, // a run's call counts too
    at('2026-11-10T23:59:59.999Z', org.admin.id, 'fast-model', 10, 1, 0.000002),
    { ...at('2026-11-20T09:00:00.000Z', org.owner.id, 'smart-model', 3000, 900, 0.03), cacheReadTokens: 2500, cacheSaving: 0.00675 },
    { ...at('2026-11-20T15:10:00.000Z', org.member.id, 'smart-model', 5, 5, 0.00001), cacheReadTokens: 3, cacheSaving: 0.0000081 }, // in the partial hour before now
    at('2026-11-20T16:00:00.000Z', org.owner.id, 'fast-model', 1, 1, 0.1), // after "now"
  ];
  await seedUsage(stack.runtime.orm, org.id, records);
});
afterAll(async () => stack?.stop());

/** The oracle: totals of the seeded records in [from, to), computed without SQL. */
function expectedTotals(from: string, to: string) {
  const inRange = records.filter((r) => Date.parse(r.at) >= Date.parse(from) && Date.parse(r.at) < Date.parse(to));
  return {
    requests: inRange.length,
    inputTokens: inRange.reduce((sum, r) => sum + r.inputTokens, 0),
    outputTokens: inRange.reduce((sum, r) => sum + r.outputTokens, 0),
    estimatedCost: inRange.reduce((sum, r) => sum + r.cost, 0),
    cacheReadTokens: inRange.reduce((sum, r) => sum + (r.cacheReadTokens ?? 0), 0),
    cacheWriteTokens: inRange.reduce((sum, r) => sum + (r.cacheWriteTokens ?? 0), 0),
    cacheSaving: inRange.reduce((sum, r) => sum + (r.cacheSaving ?? 0), 0),
  };
}

function expectTotals(actual: any, expected: ReturnType<typeof expectedTotals>) {
  expect({ ...actual, estimatedCost: undefined, cacheSaving: undefined }).toEqual({ ...expected, estimatedCost: undefined, cacheSaving: undefined });
  expect(actual.estimatedCost).toBeCloseTo(expected.estimatedCost, 9);
  expect(actual.cacheSaving).toBeCloseTo(expected.cacheSaving, 9);
}

async function usage(query: string, key = org.admin.key) {
  return call<any>(stack.baseUrl, 'GET', `/billing/usage${query}`, { key });
}

function sumGroups(groups: any[]) {
  return groups.reduce(
    (sum, g) => ({
      requests: sum.requests + g.requests,
      inputTokens: sum.inputTokens + g.inputTokens,
      outputTokens: sum.outputTokens + g.outputTokens,
      estimatedCost: sum.estimatedCost + g.estimatedCost,
      cacheReadTokens: sum.cacheReadTokens + g.cacheReadTokens,
      cacheWriteTokens: sum.cacheWriteTokens + g.cacheWriteTokens,
      cacheSaving: sum.cacheSaving + g.cacheSaving,
    }),
    { requests: 0, inputTokens: 0, outputTokens: 0, estimatedCost: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cacheSaving: 0 },
  );
}

describe('GET /billing/usage summary', () => {
  it('defaults to the current UTC month up to now, with no cap', async () => {
    const res = await usage('');
    expect(res.status).toBe(200);
    expect(res.body.period).toEqual({ from: '2026-11-01T00:00:00.000Z', to: NOW });
    expectTotals(res.body.totals, expectedTotals('2026-11-01T00:00:00Z', NOW));
    expect(res.body.totals.requests).toBe(7);
    expect(res.body).toMatchObject({ budgetCap: null, budgetRemaining: null });
    expect(Object.keys(res.body).sort()).toEqual(['budgetCap', 'budgetRemaining', 'period', 'totals']);
  });

  it('takes from alone (a date) up to now', async () => {
    const res = await usage('?from=2026-11-05');
    expect(res.status).toBe(200);
    expect(res.body.period).toEqual({ from: '2026-11-05T00:00:00.000Z', to: NOW });
    expectTotals(res.body.totals, expectedTotals('2026-11-05T00:00:00Z', NOW));
  });

  it('takes to alone (a date) from the start of the month through the end of that day', async () => {
    const res = await usage('?to=2026-11-10');
    expect(res.status).toBe(200);
    expect(res.body.period).toEqual({ from: '2026-11-01T00:00:00.000Z', to: '2026-11-11T00:00:00.000Z' });
    expectTotals(res.body.totals, expectedTotals('2026-11-01T00:00:00Z', '2026-11-11T00:00:00Z'));
    expect(res.body.totals.requests).toBe(5);
  });

  it('reads a range of date-times as [from, to): a record at from counts, one at to does not', async () => {
    const res = await usage('?from=2026-11-05T10:00:00Z&to=2026-11-20T09:00:00Z');
    expect(res.status).toBe(200);
    expect(res.body.period).toEqual({ from: '2026-11-05T10:00:00.000Z', to: '2026-11-20T09:00:00.000Z' });
    expectTotals(res.body.totals, expectedTotals('2026-11-05T10:00:00Z', '2026-11-20T09:00:00Z'));
    expect(res.body.totals.requests).toBe(4);
  });

  it('accepts time-zone offsets and ranges across months', async () => {
    const res = await usage('?from=2026-10-31T20:00:00-04:00&to=2026-11-05T12:00:00%2B02:00');
    expect(res.status).toBe(200);
    expect(res.body.period).toEqual({ from: '2026-11-01T00:00:00.000Z', to: '2026-11-05T10:00:00.000Z' });
    expectTotals(res.body.totals, expectedTotals('2026-11-01T00:00:00Z', '2026-11-05T10:00:00Z'));
    const wide = await usage('?from=2026-10-01&to=2026-11-30');
    expectTotals(wide.body.totals, expectedTotals('2026-10-01T00:00:00Z', '2026-12-01T00:00:00Z'));
    expect(wide.body.totals.requests).toBe(records.length);
  });

  it('reads partial hours at both ends of a range from the records themselves', async () => {
    const res = await usage('?from=2026-11-05T09:30:00Z&to=2026-11-20T15:20:00Z');
    expectTotals(res.body.totals, expectedTotals('2026-11-05T09:30:00Z', '2026-11-20T15:20:00Z'));
    expect(res.body.totals.requests).toBe(6);
    const within = await usage('?from=2026-11-20T15:05:00Z&to=2026-11-20T15:15:00Z&groupBy=model');
    expect(within.body.groups).toEqual([
      { model: 'smart-model', requests: 1, inputTokens: 5, outputTokens: 5, estimatedCost: 0.00001, cacheReadTokens: 3, cacheWriteTokens: 0, cacheSaving: 0.0000081 },
    ]);
  });

  it('covers one whole day when from and to are the same date, and nothing for an empty instant range', async () => {
    const day = await usage('?from=2026-11-05&to=2026-11-05');
    expectTotals(day.body.totals, expectedTotals('2026-11-05T00:00:00Z', '2026-11-06T00:00:00Z'));
    expect(day.body.totals.requests).toBe(2);
    const empty = await usage('?from=2026-11-05T10:00:00Z&to=2026-11-05T10:00:00Z');
    expect(empty.status).toBe(200);
    expect(empty.body.totals).toEqual({ requests: 0, inputTokens: 0, outputTokens: 0, estimatedCost: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cacheSaving: 0 });
  });

  it('shows the cap and what remains of it this month once the owner sets one', async () => {
    const other = await createTestOrganization(stack.runtime.orm);
    await seedUsage(stack.runtime.orm, other.id, [
      { at: '2026-11-02T00:00:00Z', userId: other.owner.id, model: 'm', inputTokens: 1, outputTokens: 1, cost: 1.25 },
    ]);
    const put = await call<any>(stack.baseUrl, 'PUT', '/billing/budget', { key: other.owner.key, body: { monthlyCap: 10 } });
    expect(put.status).toBe(200);

    const res = await usage('?from=2026-11-03', other.owner.key);
    expect(res.body).toMatchObject({ budgetCap: 10, budgetRemaining: 8.75 });
    expect(res.body.totals.requests).toBe(0);
  });

  it("never shows another organization's usage", async () => {
    const other = await createTestOrganization(stack.runtime.orm);
    const res = await usage('?from=2026-01-01&to=2026-12-31', other.admin.key);
    expect(res.body.totals).toEqual({ requests: 0, inputTokens: 0, outputTokens: 0, estimatedCost: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cacheSaving: 0 });
    const groups = await usage('?from=2026-01-01&to=2026-12-31&groupBy=user', other.admin.key);
    expect(groups.body).toEqual({ groups: [] });
  });
});

describe('GET /billing/usage groups', () => {
  const ranges = [
    '',
    '?from=2026-11-05T10:00:00Z&to=2026-11-20T09:00:00Z',
    '?from=2026-11-05T09:59:00Z&to=2026-11-20T15:11:00Z',
    '?from=2026-10-01&to=2026-11-30',
    '?from=2026-11-05&to=2026-11-05',
    // One end given, the other defaulted (to = now, from = start of the month).
    '?from=2026-11-05',
    '?from=2026-11-05T18:00:00Z',
    '?to=2026-11-10',
    '?to=2026-11-20T15:20:00Z',
  ];

  for (const range of ranges) {
    it(`adds every groupBy up to the totals (${range || 'default range'})`, async () => {
      const summary = await usage(range);
      expectTotals(summary.body.totals, expectedTotals(summary.body.period.from, summary.body.period.to));
      for (const groupBy of ['model', 'user', 'day']) {
        const res = await usage(`${range}${range ? '&' : '?'}groupBy=${groupBy}`);
        expect(res.status, groupBy).toBe(200);
        expect(Object.keys(res.body)).toEqual(['groups']);
        const sum = sumGroups(res.body.groups);
        expect({ ...sum, estimatedCost: 0, cacheSaving: 0 }, groupBy).toEqual({ ...summary.body.totals, estimatedCost: 0, cacheSaving: 0 });
        expect(sum.estimatedCost, groupBy).toBeCloseTo(summary.body.totals.estimatedCost, 9);
        expect(sum.cacheSaving, groupBy).toBeCloseTo(summary.body.totals.cacheSaving, 9);
      }
    });
  }

  it('groups by model with the model as key', async () => {
    const res = await usage('?groupBy=model');
    expect(res.body.groups.map((g: any) => g.model)).toEqual(['fast-model', 'smart-model']);
    const fast = res.body.groups[0];
    expect(fast).toEqual({
      model: 'fast-model', requests: 3, inputTokens: 1060, outputTokens: 206, estimatedCost: expect.closeTo(0.0002825, 9),
      cacheReadTokens: 800, cacheWriteTokens: 100, cacheSaving: expect.closeTo(0.000108, 9),
    });
  });

  it('groups by user with userId and email, a removed user keeping its usage with a null email', async () => {
    const res = await usage('?groupBy=user');
    const byUser = Object.fromEntries(res.body.groups.map((g: any) => [g.userId, g]));
    expect(Object.keys(byUser).sort()).toEqual([org.owner.id, org.admin.id, org.member.id, removedUserId].sort());
    expect(byUser[org.member.id]).toEqual({
      userId: org.member.id, email: org.member.email, requests: 3, inputTokens: 2055, outputTokens: 310, estimatedCost: expect.closeTo(0.0125205, 9),
      cacheReadTokens: 3, cacheWriteTokens: 1500, cacheSaving: expect.closeTo(0.0000081, 9),
    });
    expect(byUser[removedUserId].email).toBeNull();
    expect(byUser[org.owner.id].requests).toBe(2);
  });

  it('groups by UTC day as YYYY-MM-DD, in order', async () => {
    const res = await usage('?groupBy=day');
    expect(res.body.groups.map((g: any) => [g.day, g.requests])).toEqual([
      ['2026-11-01', 1], ['2026-11-05', 2], ['2026-11-10', 2], ['2026-11-20', 2],
    ]);
    const partial = await usage('?from=2026-11-05T12:00:00Z&to=2026-11-10T23:00:00Z&groupBy=day');
    expect(partial.body.groups.map((g: any) => [g.day, g.requests])).toEqual([['2026-11-05', 1], ['2026-11-10', 1]]);
  });
});

describe('GET /billing/usage errors and roles', () => {
  const invalid: Array<[string, string]> = [
    ['?from=yesterday', 'from'],
    ['?from=2026-13-01', 'from'],
    ['?to=2026-11-31T00:00:00Z', 'to'],
    ['?to=2026-11-05T10:00:00', 'to'], // no time zone: ambiguous
    ['?from=', 'from'],
    ['?from=2026-11-01&from=2026-11-02', 'from'],
    ['?from=2026-11-10&to=2026-11-09', 'to'],
    ['?from=2026-11-05T10:00:00Z&to=2026-11-05T09:59:59Z', 'to'],
    ['?from=2026-11-21', 'from'], // after now, the default to
    ['?groupBy=team', 'groupBy'],
    ['?groupBy=', 'groupBy'],
    ['?groupBy=MODEL', 'groupBy'],
    ['?from=2026-11-01&groupBy=week', 'groupBy'],
  ];
  for (const [query, param] of invalid) {
    it(`answers 400 bad_request naming ${param} for ${query}`, async () => {
      const res = await usage(query);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', type: 'invalid_request_error', param });
    });
  }

  it('answers 403 to a member and 200 to an admin and the owner', async () => {
    const member = await usage('', org.member.key);
    expect(member.status).toBe(403);
    expect(member.body.error.code).toBe('forbidden');
    expect((await usage('', org.admin.key)).status).toBe(200);
    expect((await usage('', org.owner.key)).status).toBe(200);
  });

  it('answers 401 without a key', async () => {
    expect((await call(stack.baseUrl, 'GET', '/billing/usage')).status).toBe(401);
  });
});

describe('PUT /billing/budget', () => {
  it('sets the cap for the owner and returns it with the period, spend and what remains', async () => {
    const owned = await createTestOrganization(stack.runtime.orm);
    await seedUsage(stack.runtime.orm, owned.id, [
      { at: '2026-11-03T00:00:00Z', userId: owned.member.id, model: 'm', inputTokens: 1, outputTokens: 1, cost: 2.5 },
      { at: '2026-10-03T00:00:00Z', userId: owned.member.id, model: 'm', inputTokens: 1, outputTokens: 1, cost: 99 },
    ]);
    const set = await call<any>(stack.baseUrl, 'PUT', '/billing/budget', { key: owned.owner.key, body: { monthlyCap: 20 } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ monthlyCap: 20, periodStart: '2026-11-01T00:00:00.000Z', spent: 2.5, remaining: 17.5 });

    const below = await call<any>(stack.baseUrl, 'PUT', '/billing/budget', { key: owned.owner.key, body: { monthlyCap: 1 } });
    expect(below.body).toEqual({ monthlyCap: 1, periodStart: '2026-11-01T00:00:00.000Z', spent: 2.5, remaining: 0 });

    const cleared = await call<any>(stack.baseUrl, 'PUT', '/billing/budget', { key: owned.owner.key, body: { monthlyCap: null } });
    expect(cleared.body).toEqual({ monthlyCap: null, periodStart: '2026-11-01T00:00:00.000Z', spent: 2.5, remaining: null });

    const zero = await call<any>(stack.baseUrl, 'PUT', '/billing/budget', { key: owned.owner.key, body: { monthlyCap: 0 } });
    expect(zero.body).toMatchObject({ monthlyCap: 0, remaining: 0 });
  });

  it('records every change in the audit log, with the previous and new cap', async () => {
    const owned = await createTestOrganization(stack.runtime.orm);
    await call(stack.baseUrl, 'PUT', '/billing/budget', { key: owned.owner.key, body: { monthlyCap: 3 } });
    await call(stack.baseUrl, 'PUT', '/billing/budget', { key: owned.owner.key, body: { monthlyCap: 4.5 } });
    await call(stack.baseUrl, 'PUT', '/billing/budget', { key: owned.admin.key, body: { monthlyCap: 1000 } }); // refused: not audited

    const res = await call<any>(stack.baseUrl, 'GET', '/audit-logs', { key: owned.owner.key });
    // The test clock stands still, so both events carry the same time: order them by version.
    const events = res.body.auditLogs
      .filter((event: any) => event.action === 'budget.updated')
      .sort((a: any, b: any) => a.metadata.version - b.metadata.version);
    expect(events.map((event: any) => event.metadata)).toEqual([
      { previousCap: null, monthlyCap: 3, version: 1 },
      { previousCap: 3, monthlyCap: 4.5, version: 2 },
    ]);
    expect(events[0]).toMatchObject({ actorUserId: owned.owner.id, targetType: 'organization', targetId: owned.id });
  });

  it('answers 403 to an admin and to a member, leaving the cap unchanged', async () => {
    const owned = await createTestOrganization(stack.runtime.orm);
    for (const user of [owned.admin, owned.member]) {
      const res = await call<any>(stack.baseUrl, 'PUT', '/billing/budget', { key: user.key, body: { monthlyCap: 5 } });
      expect(res.status, user.role).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    const summary = await usage('', owned.owner.key);
    expect(summary.body.budgetCap).toBeNull();
  });

  const invalidBodies: Array<[string, unknown, string | null]> = [
    ['a negative cap', { monthlyCap: -1 }, 'monthlyCap'],
    ['a string', { monthlyCap: '10' }, 'monthlyCap'],
    ['a missing cap', {}, 'monthlyCap'],
    ['an unknown field', { monthlyCap: 1, currency: 'EUR' }, 'currency'],
    ['an absurd cap', { monthlyCap: 1e12 }, 'monthlyCap'],
    ['an array body', [1], null],
  ];
  for (const [what, body, param] of invalidBodies) {
    it(`answers 400 bad_request for ${what}`, async () => {
      const res = await call<any>(stack.baseUrl, 'PUT', '/billing/budget', { key: org.owner.key, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', param });
    });
  }
});
