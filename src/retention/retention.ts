// Retention: deletes the rows past each table's window (RETENTION settings in src/config.ts,
// docs/operations.md "Retention and growth"): gateway request records, usage records, the audit
// log, finished automation runs and webhook executions (their deliveries and approvals go with
// them). The usage rollups (usage_hourly, usage_daily) are never deleted: billing reads them for
// any range. Usage records of the current and the previous UTC month are never deleted whatever
// the setting: the monthly budget, a key's spend and usage by key read them.
//
// Cost: one statement per table per organization and batch, each deleting at most
// RETENTION_BATCH_SIZE rows found through the table's (organization_id, time) index, a short pause
// between full batches; no statement holds its row locks longer than one batch. Several API
// processes (or hosts) may sweep at once: a batch takes its rows `for update skip locked`, so two
// sweepers delete disjoint rows and never wait for each other, and a row already gone is simply
// not found again.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Orm } from '../db/orm.js';
import type { Logger } from '../logger.js';

export type RetainedTable = 'gateway_requests' | 'usage_records' | 'audit_logs' | 'automation_runs' | 'webhook_executions';

export interface RetentionSettings {
  /** Days each table keeps; 0 keeps its rows forever. */
  days: Record<RetainedTable, number>;
  batchSize: number;
  intervalMs: number;
  /** Pause after a full batch, so other statements get the database (PGlite has one connection). */
  pauseMs: number;
}

export type RetentionConfig = Pick<
  Config,
  'GATEWAY_REQUESTS_RETENTION_DAYS' | 'USAGE_RECORDS_RETENTION_DAYS' | 'AUDIT_RETENTION_DAYS' | 'RUNS_RETENTION_DAYS' | 'RETENTION_BATCH_SIZE' | 'RETENTION_INTERVAL_SECONDS'
>;

export function retentionSettingsOf(config: RetentionConfig): RetentionSettings {
  return {
    days: {
      gateway_requests: config.GATEWAY_REQUESTS_RETENTION_DAYS,
      usage_records: config.USAGE_RECORDS_RETENTION_DAYS,
      audit_logs: config.AUDIT_RETENTION_DAYS,
      automation_runs: config.RUNS_RETENTION_DAYS,
      webhook_executions: config.RUNS_RETENTION_DAYS,
    },
    batchSize: config.RETENTION_BATCH_SIZE,
    intervalMs: config.RETENTION_INTERVAL_SECONDS * 1000,
    pauseMs: 10,
  };
}

const DAY_MS = 86_400_000;

/** A batch of one organization's rows older than the cutoff: `?` are the organization, the cutoff and the batch size. */
function batchOf(table: string, time: string, finished = ''): string {
  return `select "id" from "${table}" where "organization_id" = ? and "${time}" < ?${finished} limit ? for update skip locked`;
}

const DELETE_BATCH_SQL: Record<RetainedTable, string> = {
  gateway_requests: `with "gone" as (delete from "gateway_requests" where "id" in (${batchOf('gateway_requests', 'created_at')}) returning 1)
select count(*)::int as "deleted" from "gone"`,
  usage_records: `with "gone" as (delete from "usage_records" where "id" in (${batchOf('usage_records', 'created_at')}) returning 1)
select count(*)::int as "deleted" from "gone"`,
  audit_logs: `with "gone" as (delete from "audit_logs" where "id" in (${batchOf('audit_logs', 'created_at')}) returning 1)
select count(*)::int as "deleted" from "gone"`,
  // Deliveries and approvals go by their foreign keys (on delete cascade); the run-count trigger
  // moves the automation's counts. A running run is never deleted.
  automation_runs: `with "gone" as (delete from "automation_runs" where "id" in (${batchOf('automation_runs', 'started_at', ` and "status" <> 'running'`)}) returning 1)
select count(*)::int as "deleted" from "gone"`,
  // An execution's approvals name it without a foreign key: deleted with it.
  webhook_executions: `with "gone" as (delete from "webhook_executions" where "id" in (${batchOf('webhook_executions', 'received_at', ` and "status" in ('success', 'failure')`)}) returning "id"),
"approvals" as (delete from "tool_approvals" where "execution_id" in (select "id" from "gone") returning 1)
select count(*)::int as "deleted" from "gone"`,
};

const ORGANIZATION_PAGE = 500;
const ORGANIZATIONS_SQL = `select "id" from "organizations" where "id" > ? order by "id" limit ${ORGANIZATION_PAGE}`;
const NO_ORGANIZATION = '00000000-0000-0000-0000-000000000000';

/** The instant before which a table's rows go; undefined when it keeps them forever. */
export function retentionCutoff(table: RetainedTable, days: number, now: Date): Date | undefined {
  if (days <= 0) return undefined;
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  if (table !== 'usage_records') return cutoff;
  const previousMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return cutoff < previousMonth ? cutoff : previousMonth;
}

export interface RetentionDeps {
  orm: Orm;
  clock: Clock;
  logger: Logger;
  settings: RetentionSettings;
}

export type RetentionCounts = Record<RetainedTable, number>;

export interface SweepOptions {
  /** Only these organizations (a test's own); default every organization. */
  organizationIds?: readonly string[];
  /** Checked between batches: a stopping process ends its sweep there. */
  stopped?: () => boolean;
  /** Told each statement's count (tests hold the batch bound with it). */
  onBatch?: (table: RetainedTable, deleted: number) => void;
}

/** Deletes every row past its table's retention, batch by batch; how many rows of each table went. */
export async function sweepRetention(deps: RetentionDeps, options: SweepOptions = {}): Promise<RetentionCounts> {
  const now = deps.clock.now();
  const counts: RetentionCounts = { gateway_requests: 0, usage_records: 0, audit_logs: 0, automation_runs: 0, webhook_executions: 0 };
  const tables = (Object.keys(DELETE_BATCH_SQL) as RetainedTable[])
    .map((table) => ({ table, cutoff: retentionCutoff(table, deps.settings.days[table], now) }))
    .filter((entry): entry is { table: RetainedTable; cutoff: Date } => entry.cutoff !== undefined);
  if (tables.length === 0) return counts;
  for await (const organizationId of organizationsOf(deps.orm, options.organizationIds)) {
    for (const { table, cutoff } of tables) {
      if (options.stopped?.()) return counts;
      counts[table] += await deleteOrganizationRows(deps, table, organizationId, cutoff, options);
    }
  }
  return counts;
}

/** One organization's rows of one table before the cutoff, a batch per statement until a batch comes back short. */
async function deleteOrganizationRows(deps: RetentionDeps, table: RetainedTable, organizationId: string, cutoff: Date, options: SweepOptions): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await deps.orm.em.fork().getConnection().execute<{ deleted: number }[]>(
      DELETE_BATCH_SQL[table], [organizationId, cutoff, deps.settings.batchSize], 'all',
    );
    const deleted = Number(row?.deleted ?? 0);
    options.onBatch?.(table, deleted);
    total += deleted;
    if (deleted < deps.settings.batchSize || options.stopped?.()) return total;
    await sleep(deps.settings.pauseMs);
  }
}

async function* organizationsOf(orm: Orm, only: readonly string[] | undefined): AsyncGenerator<string> {
  if (only) {
    yield* only;
    return;
  }
  let after = NO_ORGANIZATION;
  for (;;) {
    const page = await orm.em.fork().getConnection().execute<{ id: string }[]>(ORGANIZATIONS_SQL, [after], 'all');
    for (const { id } of page) yield id;
    if (page.length < ORGANIZATION_PAGE) return;
    after = page[page.length - 1]!.id;
  }
}

export interface RetentionSweeper {
  /** Ends the timer and waits for a sweep in progress to stop at its next batch. */
  stop(): Promise<void>;
}

/**
 * Sweeps a minute after start (or after one interval, if shorter), then one interval after each
 * sweep ends. A failed sweep (the database away) is logged and tried again at the next one.
 */
export function startRetentionSweeps(deps: RetentionDeps): RetentionSweeper {
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      running = sweepOnce().finally(() => {
        running = undefined;
        if (!stopped) schedule(deps.settings.intervalMs);
      });
    }, delayMs);
    timer.unref();
  };
  const sweepOnce = async () => {
    const started = Date.now();
    try {
      const deleted = await sweepRetention(deps, { stopped: () => stopped });
      deps.logger.info({ deleted, ms: Date.now() - started }, 'retention sweep done');
    } catch (error) {
      deps.logger.warn({ err: error }, 'retention sweep failed; tried again at the next interval');
    }
  };
  schedule(Math.min(60_000, deps.settings.intervalMs));
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
