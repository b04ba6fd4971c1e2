// All of the run SQL (runs, their automation's columns, the entity's schedule write-back), in single
// statements: a burst of fires makes these once per run, and each
// ORM round trip (find, hydrate, flush, transaction) cost the worker more CPU than the SQL did.
// Every statement is safe to repeat (activities are retried): the insert is keyed by the run id,
// lastRunAt only moves forward and only with the insert, the schedule snapshot is written only
// when its version is newer than the row's, and only a running run is completed.
// Parameters are bound ($n), not quoted into the SQL text (prompts and contexts can be long).
import type { AppDeps } from '../runtime-deps.js';
import type { ToolApprovals } from '../approval-policy/policy.js';
import type { StoredChannel } from '../channels/types.js';
import type { ScheduleSnapshot } from '../workflows/run.contract.js';
import type { AutomationStatus, RunStatus, RunTrigger } from './entities.js';

type Knex = ReturnType<ReturnType<AppDeps['orm']['em']['getConnection']>['getKnex']>;

/** The columns of a run and of its automation that its plan is made of. */
export interface RunRow {
  runId: string;
  automationId: string;
  organizationId: string;
  ownerId: string;
  /** The owner's status in the organization (null: no such user there). */
  ownerStatus: string | null;
  name: string;
  systemPrompt: string;
  model: string;
  tools: string[];
  channels: StoredChannel[];
  /** Which of the run's tool calls wait for a person (the automation's own policy). */
  toolApprovals: ToolApprovals | null;
  /** The automation's skill and pinned version. */
  skillId: string | null;
  skillVersion: number | null;
  /** The skill version recorded on the run (null until the run resolved one). */
  runSkillId: string | null;
  runSkillVersion: number | null;
  trigger: RunTrigger;
  startedAt: Date;
  context: unknown;
}

export interface RunRowStart {
  runId: string;
  automationId: string;
  organizationId: string;
  trigger: RunTrigger;
  startedAt: Date;
  context: unknown;
  retryOf: string | null;
  schedule: {
    status: AutomationStatus; nextRunAt: Date | null; skippedFires: number; missedFires: number | null; version: number; schedule: string | null; timezone: string | null;
  };
  /** The time a scheduled or catch-up run's fire was due. */
  scheduledFor?: Date | null;
  /** The fire a run started ahead of it waited for: a row still showing it as next moves on to `schedule.nextRunAt`. */
  firedAt?: Date | null;
  /** A scheduled fire: no row when another run of the automation is running (the fire is skipped). */
  skipIfRunning?: boolean;
}

/** What the plan needs of the automation, of its owner and of the run (`r` and `a` in the statements below). */
const PLAN_COLUMNS = `
  a."id" as "automationId", a."organization_id" as "organizationId", a."owner_id" as "ownerId",
  (select u."status" from "users" u where u."id" = a."owner_id" and u."organization_id" = a."organization_id") as "ownerStatus",
  a."name", a."system_prompt" as "systemPrompt", a."model", a."tools", a."channels", a."tool_approvals" as "toolApprovals",
  a."skill_id" as "skillId", a."skill_version" as "skillVersion"`;

/**
 * Inserts the run as `running` (once per id), moves the automation's lastRunAt forward when it
 * did, and writes the schedule snapshot when it is newer than the row's; in one statement. The
 * plan's columns come back, the run's as first recorded (a retry sees the row of the first
 * attempt); nothing when the automation is gone (or belongs to another organization).
 */
const START_RUN_SQL = `
with "input" as (
  select ?::uuid as "run_id", ?::uuid as "automation_id", ?::uuid as "organization_id", ?::text as "trigger",
    ?::timestamptz as "started_at", ?::jsonb as "context", ?::uuid as "retry_of", ?::timestamptz as "now",
    ?::text as "status", ?::timestamptz as "next_run_at", ?::integer as "skipped_fires", ?::integer as "version",
    ?::text as "schedule", ?::text as "timezone", ?::timestamptz as "fired_at", ?::boolean as "skip_if_running",
    ?::integer as "missed_fires", ?::timestamptz as "scheduled_for"
), "automation" as (
  select a.* from "automations" a, "input" i where a."id" = i."automation_id" and a."organization_id" = i."organization_id"
), "inserted" as (
  insert into "automation_runs" ("id", "automation_id", "organization_id", "trigger", "status", "started_at", "context", "retry_of", "scheduled_for")
  select i."run_id", a."id", a."organization_id", i."trigger", 'running', i."started_at", i."context", i."retry_of", i."scheduled_for"
  from "automation" a, "input" i
  -- A scheduled fire while another run of the automation is running is skipped (docs/design.md, "Overlap");
  -- a run older than its hour of work has ended in Temporal, whatever its row says, unless it waits
  -- for an approval or was decided on within the hour (its hour of work does not count the waits).
  where not (i."skip_if_running" and exists (
    select 1 from "automation_runs" o where o."automation_id" = i."automation_id" and o."status" = 'running'
      and o."id" <> i."run_id" and (o."started_at" > i."now" - interval '1 hour' or exists (
        select 1 from "tool_approvals" ap where ap."run_id" = o."id"
          and (ap."status" = 'pending' or ap."decided_at" > i."now" - interval '1 hour')))))
  on conflict ("id") do nothing
  returning "id", "trigger", "started_at", "context"
), "moved" as (
  -- The guards read the row as updated (a concurrent write of the same row is waited for and
  -- re-read), so an older snapshot can never overwrite a newer one.
  update "automations" a set
    "last_run_at" = case when i."moves_last_run" and (a."last_run_at" is null or a."last_run_at" < i."started_at") then i."started_at" else a."last_run_at" end,
    "updated_at" = case when i."moves_last_run" and (a."last_run_at" is null or a."last_run_at" < i."started_at") then i."now" else a."updated_at" end,
    "status" = case when a."state_version" < i."version" then i."status" else a."status" end,
    -- A run started ahead of its fire carries a snapshot drawn before the fire: whatever newer state
    -- was written since, the fire it waited for is now past, so a row still showing it moves on.
    "next_run_at" = case when a."state_version" < i."version" then i."next_run_at"
      when a."next_run_at" = i."fired_at" then i."next_run_at" else a."next_run_at" end,
    "skipped_fires" = case when a."state_version" < i."version" then i."skipped_fires" else a."skipped_fires" end,
    "missed_fires" = case when a."state_version" < i."version" then coalesce(i."missed_fires", a."missed_fires") else a."missed_fires" end,
    "schedule" = case when a."state_version" < i."version" then coalesce(i."schedule", a."schedule") else a."schedule" end,
    "timezone" = case when a."state_version" < i."version" then coalesce(i."timezone", a."timezone") else a."timezone" end,
    "state_version" = greatest(a."state_version", i."version")
  from (select "input".*, exists (select 1 from "inserted") as "moves_last_run" from "input") i
  where a."id" = i."automation_id" and a."organization_id" = i."organization_id"
    and ((i."moves_last_run" and (a."last_run_at" is null or a."last_run_at" < i."started_at")) or a."state_version" < i."version"
      or a."next_run_at" = i."fired_at")
)
select r."id" as "runId", r."trigger", round(extract(epoch from r."started_at") * 1000)::float8 as "startedAtMs", r."context",
  r."skill_id" as "runSkillId", r."skill_version" as "runSkillVersion", ${PLAN_COLUMNS}
from "automation" a left join (
  select "id", "trigger", "started_at", "context", null::uuid as "skill_id", null::integer as "skill_version" from "inserted"
  union all
  select "id", "trigger", "started_at", "context", "skill_id", "skill_version" from "automation_runs" where "id" = (select "run_id" from "input")
) r on true`;

/** The plan's columns of a run already recorded (by its automation's activity). */
const RUN_WITH_AUTOMATION_SQL = `
select r."id" as "runId", r."trigger", round(extract(epoch from r."started_at") * 1000)::float8 as "startedAtMs", r."context",
  r."skill_id" as "runSkillId", r."skill_version" as "runSkillVersion", ${PLAN_COLUMNS}
from "automation_runs" r join "automations" a on a."id" = r."automation_id" and a."organization_id" = r."organization_id"
where r."id" = ?`;

/**
 * Completes a running run, its duration measured from the recorded start in the same statement;
 * returns the run's trigger, or null when it had already ended (a retry) or is gone.
 */
const COMPLETE_RUN_SQL = `
update "automation_runs" set "status" = ?, "completed_at" = ?::timestamptz,
  "duration_ms" = greatest(0, round(extract(epoch from (?::timestamptz - "started_at")) * 1000))::integer,
  "tokens_input" = ?, "tokens_output" = ?, "estimated_cost" = ?, "output" = ?, "error" = ?
where "id" = ? and "status" = 'running'
returning "trigger"`;

/** The automation's current owner, when the automation is still there and its owner an active member. */
const ACTIVE_OWNER_SQL = `
select a."owner_id" as "ownerId" from "automations" a join "users" u on u."id" = a."owner_id" and u."organization_id" = a."organization_id"
where a."id" = ? and a."organization_id" = ? and u."status" = 'active'`;

/** The automation is there but the fire was skipped: another of its runs is running. */
export const SKIPPED_RUNNING = 'skipped_running';

type RawRunRow = Omit<RunRow, 'startedAt' | 'runId'> & { runId: string | null; startedAtMs: number };

async function rows<T>(knex: Knex, sql: string, bindings: unknown[]): Promise<T[]> {
  const result = (await knex.raw(sql, bindings as never[])) as { rows: T[] };
  return result.rows;
}

function runRowOf(raw: RawRunRow & { runId: string }): RunRow {
  const { startedAtMs, ...row } = raw;
  return { ...row, skillVersion: row.skillVersion ?? null, runSkillVersion: row.runSkillVersion ?? null, startedAt: new Date(Number(startedAtMs)) };
}

/** The run's row as recorded; null when the automation is gone, SKIPPED_RUNNING when the fire was skipped. */
export async function startRunRow(knex: Knex, start: RunRowStart, now: Date): Promise<RunRow | typeof SKIPPED_RUNNING | null> {
  const { schedule } = start;
  const [raw] = await rows<RawRunRow>(knex, START_RUN_SQL, [
    start.runId, start.automationId, start.organizationId, start.trigger, start.startedAt,
    start.context === null || start.context === undefined ? null : JSON.stringify(start.context), start.retryOf, now,
    schedule.status, schedule.nextRunAt, schedule.skippedFires, schedule.version, schedule.schedule, schedule.timezone,
    start.firedAt ?? null, start.skipIfRunning ?? false, schedule.missedFires, start.scheduledFor ?? null,
  ]);
  if (!raw) return null;
  return raw.runId === null ? SKIPPED_RUNNING : runRowOf({ ...raw, runId: raw.runId });
}

export async function runRowWithAutomation(knex: Knex, runId: string): Promise<RunRow | null> {
  const [raw] = await rows<RawRunRow & { runId: string }>(knex, RUN_WITH_AUTOMATION_SQL, [runId]);
  return raw ? runRowOf(raw) : null;
}

export interface RunCompletion {
  runId: string;
  status: Exclude<RunStatus, 'running'>;
  completedAt: Date;
  tokensInput: number;
  tokensOutput: number;
  estimatedCost: number;
  output: string | null;
  error: string | null;
}

export async function completeRunRow(knex: Knex, completion: RunCompletion): Promise<{ trigger: RunTrigger } | null> {
  const [row] = await rows<{ trigger: RunTrigger }>(knex, COMPLETE_RUN_SQL, [
    completion.status, completion.completedAt, completion.completedAt, completion.tokensInput, completion.tokensOutput,
    completion.estimatedCost, completion.output, completion.error, completion.runId,
  ]);
  return row ?? null;
}

/** One indexed lookup: the owner the run acts as now, or null (automation gone, owner disabled or removed). */
export async function activeOwnerOf(knex: Knex, automationId: string, organizationId: string): Promise<string | null> {
  const [row] = await rows<{ ownerId: string }>(knex, ACTIVE_OWNER_SQL, [automationId, organizationId]);
  return row?.ownerId ?? null;
}

/** Records the skill version a run resolved first (unpinned: the latest at its start); every later step uses it. */
export async function recordRunSkill(knex: Knex, runId: string, skill: { skillId: string; version: number }): Promise<void> {
  await knex.raw('update "automation_runs" set "skill_id" = ?, "skill_version" = ? where "id" = ? and "skill_id" is null', [skill.skillId, skill.version, runId]);
}

/** The owner of a run's automation now (whatever their status: the tool call checks it), or null when either is gone. */
export async function ownerOfRun(knex: Knex, runId: string, organizationId: string): Promise<string | null> {
  const [row] = await rows<{ ownerId: string }>(knex, OWNER_OF_RUN_SQL, [runId, organizationId]);
  return row?.ownerId ?? null;
}

const OWNER_OF_RUN_SQL = `
select a."owner_id" as "ownerId" from "automation_runs" r join "automations" a on a."id" = r."automation_id" and a."organization_id" = r."organization_id"
where r."id" = ? and r."organization_id" = ?`;

/**
 * Writes the entity workflow's schedule state unless a newer one was already written (its
 * version); the schedule itself only with both of its fields (changed by the `schedule` signal).
 * True while the automation exists.
 */
export async function writeScheduleState(knex: Knex, automationId: string, snapshot: ScheduleSnapshot): Promise<boolean> {
  const both = snapshot.schedule !== undefined && snapshot.timezone !== undefined;
  const [row] = await rows<{ exists: boolean }>(knex, WRITE_SCHEDULE_SQL, [
    snapshot.status, snapshot.nextRunAt ? new Date(snapshot.nextRunAt) : null, snapshot.skippedFires, snapshot.missedFires ?? null, snapshot.version,
    both ? snapshot.schedule! : null, both ? snapshot.timezone! : null, automationId, snapshot.version, automationId,
  ]);
  return row?.exists ?? false;
}

const WRITE_SCHEDULE_SQL = `
with "written" as (
  update "automations" set "status" = ?, "next_run_at" = ?::timestamptz, "skipped_fires" = ?,
    "missed_fires" = coalesce(?::integer, "missed_fires"), "state_version" = ?,
    "schedule" = coalesce(?::text, "schedule"), "timezone" = coalesce(?::text, "timezone")
  where "id" = ? and "state_version" < ?
)
select exists (select 1 from "automations" where "id" = ?) as "exists"`;

/** Of the given runs, those not running (ended, or without a row). */
export async function endedRunIds(knex: Knex, runIds: string[]): Promise<string[]> {
  if (runIds.length === 0) return [];
  const running = await rows<{ id: string }>(
    knex,
    `select "id" from "automation_runs" where "status" = 'running' and "id" in (${runIds.map(() => '?::uuid').join(', ')})`,
    runIds,
  );
  const stillRunning = new Set(running.map((run) => run.id));
  return runIds.filter((id) => !stillRunning.has(id));
}
