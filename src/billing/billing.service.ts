// Billing use cases: the usage report (summary or groups over a date range) and setting the
// monthly budget cap. Who may do what: reading usage is for admins and the owner (it shows every
// user's spend); changing the cap is for the owner alone.
import { recordAuditEvent } from '../audit/audit.service.js';
import type { Clock } from '../clock.js';
import type { Orm } from '../db/orm.js';
import { badRequest, forbidden } from '../errors.js';
import type { Caller } from '../identity/caller.js';
import { hasRole } from '../identity/caller.js';
import type { UsageQuery } from './billing.schemas.js';
import type { BudgetControl } from './budget.js';
import { toNanos } from './budget-ledger.js';
import { billingPeriodOf, DAY_MS } from './period.js';
import { groupUsage, sumUsage, type UsageGroup, type UsageRange, type UsageTotals } from './usage.queries.js';

export interface BillingDeps {
  orm: Orm;
  clock: Clock;
  /** The runtime's ledger: the same counters and leases the gateway's reservations use. */
  budget: BudgetControl;
}

export interface UsageSummary {
  period: { from: string; to: string };
  totals: UsageTotals;
  budgetCap: number | null;
  budgetRemaining: number | null;
}

export interface BudgetView {
  monthlyCap: number | null;
  periodStart: string;
  spent: number;
  remaining: number | null;
}

export async function usageReport(
  deps: BillingDeps,
  caller: Caller,
  query: UsageQuery,
): Promise<UsageSummary | { groups: UsageGroup[] }> {
  assertCanReadUsage(caller);
  const range = resolveRange(query, deps.clock.now());
  const em = deps.orm.em.fork();
  if (query.groupBy) {
    return { groups: await groupUsage(em, caller.organizationId, range, query.groupBy) };
  }
  const [totals, budget] = await Promise.all([
    sumUsage(em, caller.organizationId, range),
    deps.budget.status(caller.organizationId),
  ]);
  return {
    period: { from: range.from.toISOString(), to: range.to.toISOString() },
    totals,
    budgetCap: budget.monthlyCap,
    budgetRemaining: budget.remaining,
  };
}

export async function setMonthlyCap(
  deps: BillingDeps,
  caller: Caller,
  monthlyCap: number | null,
  requestId?: string,
): Promise<BudgetView> {
  assertOwner(caller);
  const change = await storeCap(deps.orm, caller, monthlyCap, { at: deps.clock.now(), requestId });
  await deps.budget.applyCap(caller.organizationId, { cap: monthlyCap === null ? null : toNanos(monthlyCap), version: change.version });
  const status = await deps.budget.status(caller.organizationId);
  return {
    monthlyCap: status.monthlyCap,
    periodStart: status.periodStart.toISOString(),
    spent: status.spent,
    remaining: status.remaining,
  };
}

function assertCanReadUsage(caller: Caller): void {
  if (!hasRole(caller, 'admin')) throw forbidden('Reading usage requires the admin or owner role');
}

function assertOwner(caller: Caller): void {
  if (caller.role !== 'owner') throw forbidden('Only the owner can change the budget');
}

/**
 * [from, to): defaults are the start of the current billing period and now. A date-only `to`
 * includes that whole day, so `from=2026-11-01&to=2026-11-30` is all of November.
 */
export function resolveRange(query: Pick<UsageQuery, 'from' | 'to'>, now: Date): UsageRange {
  const from = query.from === undefined ? billingPeriodOf(now).start : parseInstant(query.from, 'from');
  if (query.to === undefined) {
    if (from.getTime() > now.getTime()) throw badRequest('from must not be after now (the default to)', 'from');
    return { from, to: now };
  }
  const to = parseInstant(query.to, 'to');
  if (!isDateOnly(query.to)) {
    if (to.getTime() < from.getTime()) throw badRequest('to must not be before from', 'to');
    return { from, to };
  }
  const endOfDay = new Date(to.getTime() + DAY_MS);
  if (endOfDay.getTime() <= from.getTime()) throw badRequest('to must not be before from', 'to');
  return { from, to: endOfDay };
}

function isDateOnly(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value);
}

function parseInstant(value: string, param: string): Date {
  const date = new Date(isDateOnly(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) throw badRequest(`${param} is not a valid date`, param);
  return date;
}

interface CapChange {
  previousCap: number | null;
  monthlyCap: number | null;
  version: number;
}

/**
 * Upserts the cap, bumping its version under the row lock so concurrent changes are ordered, and
 * records the audit event in the same transaction: the event exists exactly when the change does.
 */
async function storeCap(
  orm: Orm,
  caller: Caller,
  monthlyCap: number | null,
  context: { at: Date; requestId: string | undefined },
): Promise<CapChange> {
  return orm.em.fork().transactional(async (em) => {
    const [previous] = await em.execute<Array<{ monthly_cap: number | null }>>(
      'select "monthly_cap" from "organization_budgets" where "organization_id" = ? for update',
      [caller.organizationId],
    );
    const [row] = await em.execute<Array<{ version: string | number }>>(
      `insert into "organization_budgets" ("organization_id", "monthly_cap", "version", "updated_by", "updated_at")
       values (?, ?, 1, ?, ?)
       on conflict ("organization_id") do update set
         "monthly_cap" = excluded."monthly_cap",
         "version" = "organization_budgets"."version" + 1,
         "updated_by" = excluded."updated_by",
         "updated_at" = excluded."updated_at"
       returning "version"`,
      [caller.organizationId, monthlyCap, caller.userId, context.at.toISOString()],
    );
    const change = { previousCap: previous?.monthly_cap ?? null, monthlyCap, version: Number(row?.version) };
    recordAuditEvent(em, {
      organizationId: caller.organizationId,
      actor: caller,
      action: 'budget.updated',
      target: { type: 'organization', id: caller.organizationId },
      metadata: change,
      requestId: context.requestId,
      at: context.at,
    });
    return change;
  });
}
