// Retention on embedded PGlite and on PostgreSQL (a scratch database of its own, so a sweep of
// every organization touches no other test's rows): rows past their window go, newer rows stay,
// running runs and queued executions stay, usage records of the current and previous month stay
// whatever the setting, the hourly and daily rollups are untouched, and no statement deletes more
// than the batch size.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { Orm } from '../../src/db/orm.js';
import { createLogger } from '../../src/logger.js';
import { retentionCutoff, sweepRetention, type RetainedTable, type RetentionSettings } from '../../src/retention/retention.js';
import { databaseTargets } from '../helpers/database-targets.js';

const targets = databaseTargets('test_retention', inject('databaseUrl'));

const NOW = new Date('2026-11-20T12:00:00.000Z');
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);
const settings = (batchSize: number): RetentionSettings => ({
  days: { gateway_requests: 90, usage_records: 30, audit_logs: 400, automation_runs: 90, webhook_executions: 90 },
  batchSize,
  intervalMs: 3_600_000,
  pauseMs: 0,
});

/** One organization's rows on both sides of every window; returns its id. */
async function seedOrganization(orm: Orm): Promise<string> {
  const sql = (text: string, params: unknown[]) => orm.em.fork().getConnection().execute(text, params, 'run');
  const organizationId = randomUUID();
  const userId = randomUUID();
  await sql(`insert into "organizations" ("id", "name", "created_at", "updated_at") values (?, ?, now(), now())`, [organizationId, `Org ${organizationId}`]);
  for (const at of [...Array.from({ length: 5 }, (_, index) => daysAgo(91 + index)), daysAgo(89), daysAgo(1)]) {
    await sql(`insert into "gateway_requests" ("id", "organization_id", "user_id", "source", "model_requested", "stream", "attempts", "outcome", "status",
      "latency_ms", "input_tokens", "output_tokens", "estimated", "cost", "dlp_findings", "created_at") values (?, ?, ?, 'gateway', 'fast', false, 1, 'success', 200, 5, 10, 2, false, 0.001, '[]', ?)`,
    [randomUUID(), organizationId, userId, at]);
  }
  // 30 days keep 2026-10-21 onwards, but the previous month (from 2026-10-01) is kept for billing.
  for (const at of ['2026-09-30T23:30:00.000Z', '2026-10-01T00:30:00.000Z', '2026-11-10T10:00:00.000Z']) {
    await sql(`insert into "usage_records" ("id", "organization_id", "user_id", "source", "model", "provider", "upstream_model", "input_tokens", "output_tokens", "cost", "created_at")
      values (?, ?, ?, 'gateway', 'fast', 'fake', 'fast-1', 10, 2, 0.25, ?)`, [randomUUID(), organizationId, userId, new Date(at)]);
  }
  for (const at of [daysAgo(401), daysAgo(399)]) {
    await sql(`insert into "audit_logs" ("id", "organization_id", "action", "created_at") values (?, ?, 'test.event', ?)`, [randomUUID(), organizationId, at]);
  }
  const automationId = randomUUID();
  await sql(`insert into "automations" ("id", "organization_id", "created_by", "owner_id", "name", "system_prompt", "model", "schedule", "timezone", "status", "created_at", "updated_at")
    values (?, ?, ?, ?, 'nightly', 'p', 'fast', '0 * * * *', 'UTC', 'active', now(), now())`, [automationId, organizationId, userId, userId]);
  const runs = { oldDone: randomUUID(), oldRunning: randomUUID(), recent: randomUUID() };
  for (const [id, status, at] of [[runs.oldDone, 'success', daysAgo(100)], [runs.oldRunning, 'running', daysAgo(100)], [runs.recent, 'failure', daysAgo(3)]] as const) {
    await sql(`insert into "automation_runs" ("id", "automation_id", "organization_id", "trigger", "status", "started_at") values (?, ?, ?, 'schedule', ?, ?)`, [id, automationId, organizationId, status, at]);
  }
  await sql(`insert into "channel_deliveries" ("id", "run_id", "channel_type", "receipt", "delivered_at") values (?, ?, 'email', 'r', ?)`, [`d-${randomUUID()}`, runs.oldDone, daysAgo(100)]);
  const executions = { oldDone: `exec_${randomUUID()}`, oldQueued: `exec_${randomUUID()}`, recent: `exec_${randomUUID()}` };
  for (const [id, status, at] of [[executions.oldDone, 'success', daysAgo(100)], [executions.oldQueued, 'queued', daysAgo(100)], [executions.recent, 'success', daysAgo(3)]] as const) {
    await sql(`insert into "webhook_executions" ("id", "organization_id", "webhook_id", "status", "received_at") values (?, ?, ?, ?, ?)`, [id, organizationId, randomUUID(), status, at]);
  }
  await sql(`insert into "channel_deliveries" ("id", "execution_id", "channel_type", "receipt", "delivered_at") values (?, ?, 'email', 'r', ?)`, [`d-${randomUUID()}`, executions.oldDone, daysAgo(100)]);
  for (const [runId, executionId] of [[runs.oldDone, null], [null, executions.oldDone], [null, executions.recent]]) {
    await sql(`insert into "tool_approvals" ("id", "organization_id", "workflow_id", "run_id", "execution_id", "owner_id", "tool", "arguments", "requested_at", "expires_at", "status")
      values (?, ?, 'wf', ?, ?, ?, 'mcp.tool', '{}', ?, ?, 'approved')`, [randomUUID(), organizationId, runId, executionId, userId, daysAgo(100), daysAgo(99)]);
  }
  return organizationId;
}

async function countsOf(orm: Orm, organizationId: string): Promise<Record<string, number>> {
  const tables = ['gateway_requests', 'usage_records', 'audit_logs', 'automation_runs', 'webhook_executions', 'tool_approvals', 'usage_hourly', 'usage_daily'];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = await orm.em.fork().getConnection().execute<{ n: number }[]>(`select count(*)::int as "n" from "${table}" where "organization_id" = ?`, [organizationId], 'all');
    counts[table] = Number(row!.n);
  }
  const [deliveries] = await orm.em.fork().getConnection().execute<{ n: number }[]>(
    `select count(*)::int as "n" from "channel_deliveries" d left join "automation_runs" r on r."id" = d."run_id" left join "webhook_executions" e on e."id" = d."execution_id"
      where r."organization_id" = ? or e."organization_id" = ?`, [organizationId, organizationId], 'all');
  counts.channel_deliveries = Number(deliveries!.n);
  const runCounts = await orm.em.fork().getConnection().execute<{ status: string; runs: number }[]>(
    `select c."status", c."runs"::int as "runs" from "automation_run_counts" c join "automations" a on a."id" = c."automation_id" where a."organization_id" = ? order by c."status"`, [organizationId], 'all');
  for (const row of runCounts) counts[`runs:${row.status}`] = Number(row.runs);
  return counts;
}

const SEEDED = {
  gateway_requests: 7, usage_records: 3, audit_logs: 2, automation_runs: 3, webhook_executions: 3, tool_approvals: 3,
  usage_hourly: 3, usage_daily: 3, channel_deliveries: 2, 'runs:failure': 1, 'runs:running': 1, 'runs:success': 1,
};
const SWEPT = {
  gateway_requests: 2, usage_records: 2, audit_logs: 1, automation_runs: 2, webhook_executions: 2, tool_approvals: 1,
  usage_hourly: 3, usage_daily: 3, channel_deliveries: 0, 'runs:failure': 1, 'runs:running': 1, 'runs:success': 0,
};

describe('retentionCutoff', () => {
  it('keeps usage records of the current and previous UTC month whatever the setting', () => {
    expect(retentionCutoff('usage_records', 1, NOW)).toEqual(new Date('2026-10-01T00:00:00.000Z'));
    expect(retentionCutoff('usage_records', 90, NOW)).toEqual(daysAgo(90));
    expect(retentionCutoff('usage_records', 10, new Date('2026-01-15T00:00:00.000Z'))).toEqual(new Date('2025-12-01T00:00:00.000Z'));
  });

  it('keeps a table forever at 0 days', () => {
    expect(retentionCutoff('audit_logs', 0, NOW)).toBeUndefined();
  });
});

describe.each(targets)('retention on $name', (target) => {
  let orm: Orm;
  const logger = createLogger({ level: 'silent', name: 'test' });
  beforeAll(async () => {
    orm = await target.open();
  }, 120_000);
  afterAll(async () => {
    await orm?.close();
    await target.cleanup?.();
  });

  it('deletes one organization\'s rows past their windows in batches and leaves the rest, the rollups and other organizations alone', async () => {
    const [mine, other] = [await seedOrganization(orm), await seedOrganization(orm)];
    expect(await countsOf(orm, mine)).toEqual(SEEDED);
    const batches: [RetainedTable, number][] = [];

    const deleted = await sweepRetention(
      { orm, logger, clock: new ManualClock(NOW), settings: settings(2) },
      { organizationIds: [mine], onBatch: (table, count) => batches.push([table, count]) },
    );

    expect(deleted).toEqual({ gateway_requests: 5, usage_records: 1, audit_logs: 1, automation_runs: 1, webhook_executions: 1 });
    expect(await countsOf(orm, mine)).toEqual(SWEPT);
    expect(await countsOf(orm, other)).toEqual(SEEDED);
    expect(batches.every(([, count]) => count <= 2)).toBe(true);
    expect(batches.filter(([table]) => table === 'gateway_requests').map(([, count]) => count)).toEqual([2, 2, 1]);
  });

  it('sweeps every organization, and a second sweep finds nothing', async () => {
    const organizations = [await seedOrganization(orm), await seedOrganization(orm), await seedOrganization(orm)];
    const deps = { orm, logger, clock: new ManualClock(NOW), settings: settings(1000) };

    await sweepRetention(deps);
    const again = await sweepRetention(deps);

    for (const organizationId of organizations) expect(await countsOf(orm, organizationId)).toEqual(SWEPT);
    expect(again).toEqual({ gateway_requests: 0, usage_records: 0, audit_logs: 0, automation_runs: 0, webhook_executions: 0 });
  });

  it('deletes nothing of a table kept forever', async () => {
    const organizationId = await seedOrganization(orm);
    const keepAll = settings(1000);
    keepAll.days = { gateway_requests: 0, usage_records: 0, audit_logs: 0, automation_runs: 0, webhook_executions: 0 };

    await sweepRetention({ orm, logger, clock: new ManualClock(NOW), settings: keepAll }, { organizationIds: [organizationId] });

    expect(await countsOf(orm, organizationId)).toEqual(SEEDED);
  });

  it('two sweepers at once delete each row once and leave the same rows', async () => {
    const organizationId = await seedOrganization(orm);
    const deps = { orm, logger, clock: new ManualClock(NOW), settings: settings(1) };

    const [first, second] = await Promise.all([
      sweepRetention(deps, { organizationIds: [organizationId] }),
      sweepRetention(deps, { organizationIds: [organizationId] }),
    ]);

    expect(first.gateway_requests + second.gateway_requests).toBe(5);
    expect(await countsOf(orm, organizationId)).toEqual(SWEPT);
  });
});
