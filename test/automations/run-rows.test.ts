// The run's bookkeeping as single statements (src/automations/run-rows.ts), called the way the
// run workflow calls its activities, retries included: the row is inserted once and a retry sees
// the first attempt's start; lastRunAt only moves forward; a schedule snapshot is written only
// when newer; only a running run is completed; another organization's automation records
// nothing. And the steps that take the carried prompt keep the checks the rows used to give:
// the model call fails when the owner was disabled after the plan, the scan (in the plan step or
// its own) blocks the context.
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunActivities, type RunStart } from '../../src/automations/run-activities.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
let other: TestOrganization;
let activities: ReturnType<typeof createRunActivities>;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  [org, other] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
  activities = createRunActivities(stack.runtime);
});
afterAll(async () => {
  await stack?.stop();
});

const sql = <T>(query: string, params: unknown[] = []) => stack.runtime.orm.em.getConnection().execute<T[]>(query, params);

async function createAutomation(key = org.member.key): Promise<string> {
  const res = await call(stack.baseUrl, 'POST', '/automations', {
    key,
    body: { name: 'Rows', systemPrompt: 'Say hi.', schedule: '0 9 * * *', status: 'paused' },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

const start = (automationId: string, overrides: Partial<RunStart> = {}): RunStart => ({
  runId: randomUUID(), automationId, organizationId: org.id, trigger: 'schedule', context: null,
  schedule: { status: 'active', nextRunAt: '2031-01-01T09:00:00.000Z', skippedFires: 2, version: 10, schedule: '0 9 * * *', timezone: 'UTC' },
  ...overrides,
});

async function automationRow(id: string) {
  const [row] = await sql<{ last_run_at: Date | string | null; state_version: number; skipped_fires: number; status: string; next_run_at: Date | string | null; timezone: string }>(
    'select "last_run_at", "state_version", "skipped_fires", "status", "next_run_at", "timezone" from "automations" where "id" = ?', [id],
  );
  return row!;
}
const ms = (value: Date | string | null) => (value === null ? null : new Date(value).getTime());

/** The first step's plan, for starts that cannot be skipped (no `firedAt`). */
async function begin(input: Parameters<typeof activities.beginRun>[0]) {
  const plan = await activities.beginRun(input);
  if (plan && 'skipped' in plan) throw new Error('a start without firedAt was skipped');
  return plan;
}

describe('run rows', () => {
  it('records a run once however often its start is retried, with the first attempt\'s start and the newest schedule', async () => {
    const automationId = await createAutomation();
    const first = start(automationId, { startedAt: '2030-05-01T10:00:00.123Z', schedule: { ...start(automationId).schedule, timezone: 'Europe/Paris' } });
    const plan = await begin({ ...first, scan: true });
    expect(plan).toMatchObject({ automationName: 'Rows', toolCount: 0, channelCount: 0, skill: null, scanned: true });
    expect(plan?.prompt).toMatchObject({ organizationId: org.id, automationId, model: expect.any(String), systemPrompt: 'Say hi.', trigger: 'schedule', startedAt: first.startedAt, context: null });

    // A retry (same input, a later clock): no second row, the same start, the same plan.
    expect(await activities.beginRun({ ...first, scan: true, startedAt: '2030-05-01T10:00:09.000Z' })).toEqual(plan);
    expect(await activities.recordRunStarted({ ...first, startedAt: undefined })).toEqual({ startedAt: first.startedAt });
    const runs = await sql<{ n: number }>('select count(*)::int as n from "automation_runs" where "automation_id" = ?', [automationId]);
    expect(runs[0]!.n).toBe(1);
    expect(await automationRow(automationId)).toMatchObject({ state_version: 10, skipped_fires: 2, status: 'active', timezone: 'Europe/Paris' });
    expect(ms((await automationRow(automationId)).last_run_at)).toBe(Date.parse(first.startedAt!));
  });

  it('never moves lastRunAt back nor writes an older schedule snapshot, but still records the run', async () => {
    const automationId = await createAutomation();
    await activities.recordRunStarted(start(automationId, { startedAt: '2030-05-01T10:00:00.000Z' }));
    const older = start(automationId, {
      trigger: 'manual', context: { ticket: 42 }, startedAt: '2030-04-01T10:00:00.000Z',
      schedule: { status: 'paused', nextRunAt: null, skippedFires: 0, version: 3 },
    });
    expect(await activities.recordRunStarted(older)).toEqual({ startedAt: older.startedAt });
    const row = await automationRow(automationId);
    expect(ms(row.last_run_at)).toBe(Date.parse('2030-05-01T10:00:00.000Z'));
    expect(row).toMatchObject({ state_version: 10, status: 'active', skipped_fires: 2 });
    expect(ms(row.next_run_at)).toBe(Date.parse('2031-01-01T09:00:00.000Z'));
    const [run] = await sql<{ trigger: string; context: unknown; status: string }>('select "trigger", "context", "status" from "automation_runs" where "id" = ?', [older.runId]);
    expect(run).toEqual({ trigger: 'manual', context: { ticket: 42 }, status: 'running' });
  });

  it('skips the fire of a run started ahead of it while another run is running, and moves nextRunAt on from that fire past a newer state', async () => {
    const automationId = await createAutomation();
    const manual = start(automationId, { trigger: 'manual', startedAt: new Date(Date.now() - 60_000).toISOString() });
    await activities.recordRunStarted(manual);
    // Since the fire's snapshot (version 10) was drawn, the automation wrote version 12 showing that fire as next.
    const fire = '2031-01-01T09:00:00.000Z';
    await sql('update "automations" set "next_run_at" = ?, "state_version" = 12, "skipped_fires" = 3 where "id" = ?', [fire, automationId]);
    const armed = start(automationId, { firedAt: fire, startedAt: new Date().toISOString() });
    armed.schedule = { ...armed.schedule, nextRunAt: '2031-01-02T09:00:00.000Z' };

    expect(await activities.beginRun({ ...armed, scan: true })).toEqual({ skipped: 'running' });
    expect(await sql('select 1 from "automation_runs" where "id" = ?', [armed.runId])).toHaveLength(0);
    let row = await automationRow(automationId);
    expect(ms(row.next_run_at)).toBe(Date.parse('2031-01-02T09:00:00.000Z'));
    // Only nextRunAt moves: the newer state's other fields and lastRunAt stay.
    expect(row).toMatchObject({ state_version: 12, skipped_fires: 3 });
    expect(ms(row.last_run_at)).toBe(Date.parse(manual.startedAt!));

    // The manual run ends: the next fire's run is recorded (and moves nextRunAt on again).
    await activities.completeRun({ runId: manual.runId, status: 'success', output: 'Hi.', error: null, tokensInput: 0, tokensOutput: 0, estimatedCost: 0 });
    const next = start(automationId, { firedAt: '2031-01-02T09:00:00.000Z', startedAt: new Date().toISOString() });
    next.schedule = { ...next.schedule, nextRunAt: '2031-01-03T09:00:00.000Z' };
    expect(await activities.beginRun(next)).toMatchObject({ automationName: 'Rows' });
    row = await automationRow(automationId);
    expect(ms(row.next_run_at)).toBe(Date.parse('2031-01-03T09:00:00.000Z'));
    expect(ms(row.last_run_at)).toBe(Date.parse(next.startedAt!));

    // Paused since its snapshot (no next fire shown): a late fire's run moves nothing back.
    await sql('update "automations" set "next_run_at" = null, "status" = \'paused\', "state_version" = 13 where "id" = ?', [automationId]);
    await activities.completeRun({ runId: next.runId, status: 'success', output: 'Hi.', error: null, tokensInput: 0, tokensOutput: 0, estimatedCost: 0 });
    const late = start(automationId, { firedAt: '2031-01-03T09:00:00.000Z', startedAt: new Date().toISOString() });
    await activities.beginRun(late);
    row = await automationRow(automationId);
    expect(row).toMatchObject({ status: 'paused', next_run_at: null, state_version: 13 });
  });

  it('records nothing for another organization\'s automation or a deleted one', async () => {
    const automationId = await createAutomation();
    const foreign = start(automationId, { organizationId: other.id });
    expect(await activities.beginRun(foreign)).toBeNull();
    expect(await activities.recordRunStarted(foreign)).toBeNull();
    expect(await sql('select 1 from "automation_runs" where "id" = ?', [foreign.runId])).toHaveLength(0);
    expect((await automationRow(automationId)).state_version).toBe(0);
    expect(await activities.beginRun(start(randomUUID()))).toBeNull();
  });

  it('completes only a running run, its duration measured from its recorded start', async () => {
    const automationId = await createAutomation();
    const run = start(automationId, { startedAt: new Date(Date.now() - 1500).toISOString() });
    await activities.recordRunStarted(run);
    const result = { runId: run.runId, status: 'success' as const, output: 'Hi.', error: null, tokensInput: 3, tokensOutput: 4, estimatedCost: 0.5 };
    await activities.completeRun(result);
    await activities.completeRun({ ...result, status: 'failure', output: null, error: 'late retry' });
    const [row] = await sql<{ status: string; output: string; error: string | null; duration_ms: number; completed_at: Date | string; tokens_output: number; estimated_cost: number }>(
      'select "status", "output", "error", "duration_ms", "completed_at", "tokens_output", "estimated_cost" from "automation_runs" where "id" = ?', [run.runId],
    );
    expect(row).toMatchObject({ status: 'success', output: 'Hi.', error: null, tokens_output: 4, estimated_cost: 0.5 });
    expect(row!.duration_ms).toBe(ms(row!.completed_at)! - Date.parse(run.startedAt!));
    expect(row!.duration_ms).toBeGreaterThanOrEqual(1500);
    await activities.completeRun({ ...result, runId: randomUUID() }); // no row: nothing to do
  });

  it('fails the model call with forbidden when the owner is disabled after the plan was made', async () => {
    const owner = await createTestUser(stack.runtime.orm, org.id, 'member');
    const automationId = await createAutomation(owner.key);
    const run = start(automationId);
    const plan = await begin(run);
    await sql('update "users" set "status" = \'disabled\' where "id" = ?', [owner.id]);
    const failure = await activities.generateRunOutput({ runId: run.runId, prompt: plan!.prompt! }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'forbidden', nonRetryable: true });
    // A retried first step finds the owner disabled too.
    await expect(activities.beginRun(run)).rejects.toMatchObject({ type: 'forbidden', nonRetryable: true });
  });

  it('blocks a carried context the organization\'s DLP policy blocks, naming the type only', async () => {
    const automationId = await createAutomation();
    const run = start(automationId, { trigger: 'webhook', context: { customer: 'SSN 536-22-1234' } });
    // The plan step scans when the workflow asks it to (the `carried-plan` path)...
    await expect(activities.beginRun({ ...run, scan: true })).rejects.toMatchObject({ type: 'dlp_blocked', nonRetryable: true });
    // ...and the scan step, given the carried prompt, agrees (a plan made without the scan).
    const plan = await begin(run);
    expect(plan?.scanned).toBeUndefined();
    const failure = await activities.scanRunInput({ runId: run.runId, prompt: plan!.prompt! }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ type: 'dlp_blocked', nonRetryable: true });
    expect((failure as Error).message).toMatch(/us_ssn/);
    expect((failure as Error).message).not.toContain('536-22-1234');
    // The same scan from the rows (histories from before the carried plan) agrees.
    await expect(activities.scanRunInput({ runId: run.runId })).rejects.toMatchObject({ type: 'dlp_blocked' });
  });
});
