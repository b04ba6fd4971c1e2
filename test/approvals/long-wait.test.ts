// A wait longer than the run's former one-hour limit, shown without sleeping. Temporal's
// time-skipping test server cannot be obtained here (TestWorkflowEnvironment.createTimeSkipping
// downloads it from temporal.download; only package registries are reachable), so the long wait
// is shown in its parts: the run's Temporal timeout allows the waits on top of its hour of work,
// the hour of work does not count them, and the overlap rule keeps a run waiting for hours as
// running (a scheduled fire is skipped) on the real database. The wait itself, signal and timer,
// is exercised end to end in run-approvals.test.ts with a short APPROVAL_TIMEOUT_SECONDS.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolApproval } from '../../src/approval-policy/entities.js';
import { createRunActivities, type RunStart } from '../../src/automations/run-activities.js';
import { loadConfig } from '../../src/config.js';
import { RUN_APPROVAL_WAIT_LIMIT_MS } from '../../src/workflows/approvals.contract.js';
import { RUN_CODE, RUN_WORK_TIME_MS, outOfWorkTime, runExecutionTimeoutMs, workedMs } from '../../src/workflows/run.js';
import { MAX_TOOL_ITERATIONS } from '../../src/workflows/tool-loop.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, testEnv, type Stack } from '../helpers/stack.js';

const HOUR = 60 * 60 * 1000;
let stack: Stack;
let org: TestOrganization;
let activities: ReturnType<typeof createRunActivities>;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  org = await createTestOrganization(stack.runtime.orm);
  activities = createRunActivities(stack.runtime);
});
afterAll(async () => {
  await stack?.stop();
});

describe('a run that waits for longer than an hour', () => {
  it("has a Temporal timeout of its hour of work plus every wait it may take at the longest approval timeout", () => {
    const longest = loadConfig(testEnv({ APPROVAL_TIMEOUT_SECONDS: '259200' }) as NodeJS.ProcessEnv).APPROVAL_TIMEOUT_SECONDS * 1000;
    expect(runExecutionTimeoutMs(0)).toBe(RUN_WORK_TIME_MS + RUN_APPROVAL_WAIT_LIMIT_MS);
    expect(RUN_APPROVAL_WAIT_LIMIT_MS).toBeGreaterThanOrEqual(MAX_TOOL_ITERATIONS * longest);
    // A run started ahead of its fire gets the whole allowance from the fire on.
    expect(runExecutionTimeoutMs(5 * 60_000)).toBe(RUN_WORK_TIME_MS + 5 * 60_000 + RUN_APPROVAL_WAIT_LIMIT_MS);
    expect(() => loadConfig(testEnv({ APPROVAL_TIMEOUT_SECONDS: '259201' }) as NodeJS.ProcessEnv)).toThrow(/APPROVAL_TIMEOUT_SECONDS/);
    expect(loadConfig(testEnv() as NodeJS.ProcessEnv).APPROVAL_TIMEOUT_SECONDS).toBe(86_400);
  });

  it('counts only the time it worked against its hour, not the time it waited', () => {
    const started = Date.parse('2031-01-01T09:00:00Z');
    // Waited 26 hours, worked 20 minutes: well within its hour.
    expect(workedMs(started, started + 26 * HOUR + 20 * 60_000, 26 * HOUR)).toBe(20 * 60_000);
    expect(workedMs(started, started + 26 * HOUR + 61 * 60_000, 26 * HOUR)).toBeGreaterThan(RUN_WORK_TIME_MS);
  });

  it('ends a run that never waited once its hour of work from the fire is used up (its Temporal timeout no longer does)', () => {
    const fire = Date.parse('2031-01-01T09:00:00Z');
    const run = { codeVersion: RUN_CODE, startedMs: fire - 60_000, workStartMs: fire };
    // Started a minute ahead of its fire: that minute is not work.
    expect(outOfWorkTime(run, fire + 60 * 60_000, 0)).toBe(false);
    expect(outOfWorkTime(run, fire + 61 * 60_000, 0)).toBe(true);
    expect(outOfWorkTime(run, fire + 26 * HOUR + 20 * 60_000, 26 * HOUR)).toBe(false);
    expect(outOfWorkTime(run, fire + 26 * HOUR + 61 * 60_000, 26 * HOUR)).toBe(true);
    // Runs of older code (replayed) checked the hour only after a wait, from their start.
    const older = { ...run, codeVersion: 2 };
    expect(outOfWorkTime(older, fire + 2 * HOUR, 0)).toBe(false);
    expect(outOfWorkTime(older, fire + 26 * HOUR + 60 * 60_000, 26 * HOUR)).toBe(true);
  });

  it('keeps a run that started three hours ago and waits for an approval counted as running: the fire is skipped', async () => {
    const created = await call(stack.baseUrl, 'POST', '/automations', {
      key: org.member.key, body: { name: 'Long wait', systemPrompt: 'Say hi.', schedule: '0 9 * * *', status: 'paused' },
    });
    const automationId: string = created.body.id;
    const start = (overrides: Partial<RunStart>): RunStart => ({
      runId: randomUUID(), automationId, organizationId: org.id, trigger: 'schedule', context: null,
      schedule: { status: 'active', nextRunAt: '2031-01-01T09:00:00.000Z', skippedFires: 0, version: 1, schedule: '0 9 * * *', timezone: 'UTC' },
      ...overrides,
    });
    const waiting = start({ trigger: 'manual', startedAt: new Date(Date.now() - 3 * HOUR).toISOString() });
    await activities.recordRunStarted(waiting);
    const em = stack.runtime.orm.em.fork();
    const approval = em.create(ToolApproval, {
      id: randomUUID(), organizationId: org.id, workflowId: `run/${waiting.runId}`, runId: waiting.runId, automationId, ownerId: org.member.id,
      tool: 'filesystem__write_file', arguments: '{}', requestedAt: new Date(Date.now() - 3 * HOUR + 60_000), expiresAt: new Date(Date.now() + 21 * HOUR), status: 'pending',
    });
    await em.flush();

    const fire = start({ firedAt: new Date().toISOString(), startedAt: new Date().toISOString() });
    expect(await activities.beginRun(fire)).toEqual({ skipped: 'running' });

    // Decided two hours ago and still running: past its hour of work, it has ended in Temporal.
    await em.nativeUpdate(ToolApproval, { id: approval.id }, { status: 'approved', decidedAt: new Date(Date.now() - 2 * HOUR), decidedVia: 'api' });
    expect(await activities.beginRun(start({ firedAt: new Date().toISOString(), startedAt: new Date().toISOString() }))).toMatchObject({ automationName: 'Long wait' });
  });
});
