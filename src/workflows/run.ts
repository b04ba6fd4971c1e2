// The run workflow `run/<runId>`: one execution of an automation (scheduled, manual or webhook).
// Steps, each a retried activity: load the plan and DLP-scan its prompt and context (a step of
// its own in histories from before `carried-plan`), the model call through the gateway core, the
// MCP tool loop (only when the automation has tools), delivery to each channel, and the final
// record (success or failure with its error). The run row was written as `running` before this
// workflow started (or by its first step, for a scheduled run). Its automation learns that it
// ended from Temporal (child completion), not from a signal.
import {
  ApplicationFailure,
  CancellationScope,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { runToolCallingLoop, type ToolLoopSteps } from './tool-loop.js';
import { AGENT_STEP_OPTIONS, toolCallOrError, codedFailureMessage } from './agent-steps.js';
import { approvalWaiter } from './approval-wait.js';
import { RUN_APPROVAL_WAIT_LIMIT_MS } from './approvals.contract.js';
import { CATCH_UP_WINDOW_MS, disarmSignal } from './automation.contract.js';
import type { RunStep, RunTrigger, ScheduleSnapshot } from './run.contract.js';
import { automationRunEndedSignal, type AutomationRunEnded } from './webhook-execution.contract.js';

export interface RunWorkflowInput {
  runId: string;
  automationId: string;
  organizationId: string;
  trigger: RunTrigger;
  /** The automation's entity workflow, told when this run finishes (overlap tracking). */
  parentWorkflowId: string;
  /** Set for a scheduled run started straight from its fire: the run writes its own row first. */
  begin?: RunBegin;
  /**
   * The run code its starter knew (RUN_CODE). From 1 on, the run takes the `lean-run` and
   * `carried-plan` paths without asking `patched()`: each patch call in a new execution makes the
   * SDK upsert the TemporalChangeVersion search attribute, a visibility write per patch per run
   * (~9% of the dev server's CPU in a burst of fires). The input is part of the history, so the
   * choice replays the same; runs started without it (older automations' code) ask the patches.
   */
  codeVersion?: number;
  /** The workflow waiting for this run's end (a webhook execution): signalled when it ends. */
  notify?: string;
}

/** A run's hour of work; waits for approvals come on top (see `runExecutionTimeoutMs`). */
export const RUN_WORK_TIME_MS = 60 * 60 * 1000;

/**
 * The Temporal timeout of a run: its hour of work, the wait for its fire (a run started ahead of
 * it), and what waits for approvals may add (each wait at most APPROVAL_TIMEOUT_SECONDS, one per
 * model turn). The hour of work itself is checked by the run (`assertWithinWorkTime`).
 */
export function runExecutionTimeoutMs(fireDelayMs: number): number {
  return RUN_WORK_TIME_MS + Math.max(0, fireDelayMs) + RUN_APPROVAL_WAIT_LIMIT_MS;
}

/** The run's time of work so far: its age without the time it waited for approvals. */
export function workedMs(startedAtMs: number, nowMs: number, waitedMs: number): number {
  return nowMs - startedAtMs - waitedMs;
}

/**
 * Whether a run has used up its hour of work (RUN_WORK_SECONDS, at most an hour) before its next
 * model call. From run code 3 the time counts from the run's fire (a run started ahead of it did
 * not work while it waited for it) and is checked whether or not the run waited for approvals: its
 * Temporal timeout allows for 30 days of waits, so it no longer ends a run that keeps working.
 * Older runs checked an hour only after a wait.
 */
export function outOfWorkTime(
  run: { codeVersion: number; workStartMs: number; startedMs: number; workMs?: number }, nowMs: number, waitedMs: number,
): boolean {
  if (run.codeVersion < 3) return waitedMs > 0 && workedMs(run.startedMs, nowMs, waitedMs) > RUN_WORK_TIME_MS;
  return workedMs(run.workStartMs, nowMs, waitedMs) > Math.min(run.workMs ?? RUN_WORK_TIME_MS, RUN_WORK_TIME_MS);
}

/**
 * What `codeVersion` the automation workflow gives the runs it starts now (2: `begin.fireAt` is
 * known; 3: the hour of work is checked before every model call, see `outOfWorkTime`).
 */
export const RUN_CODE = 3;

export interface RunBegin {
  context: unknown;
  /** The automation's schedule as of the fire, written back with the row (if still newest). */
  schedule: ScheduleSnapshot;
  /**
   * A run started ahead of its fire (ISO): it waits on a timer until then and only then records its
   * row and begins, so a burst of fires at one instant costs the timer's workflow task per run.
   * The automation's `disarm` signal (pause, schedule change) ends the wait without a row.
   */
  fireAt?: string;
  /**
   * The automation's catch-up window (seconds) for a run started ahead of its fire: a timer that
   * fires later than this after the fire (workers or server down) skips it. Absent (runs started
   * before it was carried): CATCH_UP_WINDOW_MS.
   */
  catchUpWindowSeconds?: number;
  /** The time the fire was due (ISO), recorded on the row: a catch-up run's is before its start. */
  scheduledFor?: string;
}

export interface RunWorkflowResult {
  /**
   * `not_recorded`: the automation was deleted before the run could write its row. For a run
   * started ahead of its fire: `disarmed` (paused or rescheduled before it), `skipped` (another run
   * of the automation was running at the fire, or the fire came past the catch-up window).
   */
  status: 'success' | 'not_recorded' | 'disarmed' | 'skipped';
  tokensInput: number;
  tokensOutput: number;
  estimatedCost: number;
}

const record = { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 20 };

const { loadRunPlan } = proxyActivities<Activities>({
  startToCloseTimeout: '15 seconds', retry: record, summary: 'Load the automation configuration and scan it (DLP)',
});
// A scheduled run (started straight from its fire) keeps its bookkeeping in local activities: the
// row writes run inside the run's own workflow tasks, without a task queue round trip each.
const beginLocally = proxyLocalActivities<Activities>({
  startToCloseTimeout: '15 seconds', retry: record, summary: 'Record the run as running, load the automation configuration and scan it (DLP)',
});
const completeLocally = proxyLocalActivities<Activities>({
  startToCloseTimeout: '15 seconds', retry: record, summary: 'Record the run result',
});
const { completeRun } = proxyActivities<Activities>({
  startToCloseTimeout: '15 seconds', retry: record, summary: 'Record the run result',
});
const scanOptions = AGENT_STEP_OPTIONS.inputScan;
const { scanRunInput } = proxyActivities<Activities>(scanOptions);
// The scan is in-process, short and idempotent: as a local activity it runs in the run's first
// workflow task instead of costing a task queue round trip and a workflow task of its own.
const scanLocally = proxyLocalActivities<Activities>(scanOptions);

/**
 * Marks histories where the DLP scan is a local activity and the run does not signal its
 * automation when it ends (the automation hears of its child's completion from Temporal, and
 * checks the rows of runs carried over a continue-as-new at its next fire).
 */
export const LEAN_RUN_PATCH = 'lean-run';
/**
 * Marks histories where the run's first step also runs the DLP scan and returns the prompt its
 * plan resolved (system prompt, model, trigger, start, context), which the workflow hands to the
 * model calls: they read no rows (they only check the owner). Older histories scan in a step of
 * their own and give the steps the run id alone: those read the run, its automation and its
 * settings again.
 */
export const CARRIED_PLAN_PATCH = 'carried-plan';
const { generateRunOutput } = proxyActivities<Activities>(AGENT_STEP_OPTIONS.model);
const { listRunTools } = proxyActivities<Activities>(AGENT_STEP_OPTIONS.toolListing);
const { callRunTool } = proxyActivities<Activities>(AGENT_STEP_OPTIONS.toolCall);
const { deliverRunOutput } = proxyActivities<Activities>(AGENT_STEP_OPTIONS.delivery);

export async function runWorkflow(input: RunWorkflowInput): Promise<RunWorkflowResult> {
  const { runId } = input;
  const totals: RunTotals = { tokensInput: 0, tokensOutput: 0, estimatedCost: 0 };
  let output: string | null = null;
  const complete = input.begin ? completeLocally.completeRun : completeRun;
  const current = (input.codeVersion ?? 0) >= 1;
  const lean = current || patched(LEAN_RUN_PATCH);
  const carried = current || patched(CARRIED_PLAN_PATCH);
  const fireAt = input.begin?.fireAt;
  // Until its fire a run started ahead of it has no row: a cancel then ends it without one.
  let begun = fireAt === undefined;
  /** What the waiting workflow (`notify`) hears; replaced as the run ends. */
  let ended: Omit<AutomationRunEnded, 'runId' | 'usage'> = { status: 'failure', output: null, error: 'The automation no longer exists' };
  try {
    if (fireAt !== undefined) {
      const windowSeconds = input.begin!.catchUpWindowSeconds;
      const waited = await waitForFire(Date.parse(fireAt), windowSeconds === undefined ? CATCH_UP_WINDOW_MS : windowSeconds * 1000);
      if (waited !== 'fired') return { status: waited, ...totals };
      begun = true;
    }
    const scan = carried ? { scan: true } : {};
    const plan = input.begin
      ? await beginLocally.beginRun({
        runId, automationId: input.automationId, organizationId: input.organizationId, trigger: input.trigger,
        context: input.begin.context, schedule: input.begin.schedule,
        // Begun now (workflow time: when the fire's task started), not when the timer was set.
        startedAt: fireAt !== undefined ? new Date(Date.now()).toISOString() : workflowInfo().startTime.toISOString(),
        ...(fireAt !== undefined ? { firedAt: fireAt } : {}), ...scan,
        ...(input.begin.scheduledFor ?? fireAt ? { scheduledFor: input.begin.scheduledFor ?? fireAt } : {}),
      })
      : await loadRunPlan({ runId, ...scan });
    if (!plan) return { status: 'not_recorded', ...totals };
    if ('skipped' in plan) {
      log.info('Scheduled fire skipped: a run is still running', { fireAt, automationId: input.automationId });
      return { status: 'skipped', ...totals };
    }
    // A plan made by a worker from before the patch carries no prompt (its steps read the rows)
    // and was not scanned: the scan is then a step of its own, as in older histories.
    const step: RunStep = carried && plan.prompt ? { runId, prompt: plan.prompt } : { runId };
    if (!(carried && plan.scanned)) await (lean ? scanLocally.scanRunInput : scanRunInput)(step);
    // Usage is added as each model call completes: a run failing later still records what it consumed.
    output = plan.toolCount > 0 ? await answerWithTools(input, step, totals, plan.workSeconds) : addUsage(totals, await generateRunOutput(step)).output;
    for (let channelIndex = 0; channelIndex < plan.channelCount; channelIndex += 1) {
      await deliverRunOutput({ runId, channelIndex, output });
    }
    await complete({ runId, status: 'success', output, error: null, ...totals });
    ended = { status: 'success', output, error: null };
    return { status: 'success', ...totals };
  } catch (error) {
    if (!begun) throw error;
    // A cancel from the API, the Web UI or `temporal workflow cancel` ends the run as `cancelled`.
    const message = isCancellation(error) ? 'cancelled' : codedFailureMessage(error);
    await CancellationScope.nonCancellable(() => complete({ runId, status: 'failure', output, error: message, ...totals }));
    ended = { status: 'failure', output, error: message };
    if (isCancellation(error)) throw error;
    throw ApplicationFailure.nonRetryable(message, 'run_failed');
  } finally {
    if (!lean) await CancellationScope.nonCancellable(() => reportFinished(input));
    if (input.notify) await CancellationScope.nonCancellable(() => tellWaiter(input.notify!, { runId, ...ended, usage: usageOf(totals) }));
  }
}

function usageOf(totals: RunTotals): AutomationRunEnded['usage'] {
  return { inputTokens: totals.tokensInput, outputTokens: totals.tokensOutput, cost: totals.estimatedCost };
}

/** Tells the workflow that waits for this run (a webhook execution) how it ended. */
async function tellWaiter(workflowId: string, ended: AutomationRunEnded): Promise<void> {
  try {
    await getExternalWorkflowHandle(workflowId).signal(automationRunEndedSignal, ended);
  } catch {
    // The execution is gone (terminated by an operator): nobody waits any more.
  }
}

/**
 * Waits for the fire a run was started ahead of: `fired`, or `disarmed` when its automation sent
 * `disarm` first, or `skipped` when the timer fired past the catch-up window (worker or cluster down).
 */
async function waitForFire(fireAt: number, catchUpWindowMs: number): Promise<'fired' | 'disarmed' | 'skipped'> {
  let disarmed = false;
  setHandler(disarmSignal, () => {
    disarmed = true;
  });
  const waitMs = fireAt - Date.now();
  if (waitMs > 0) await condition(() => disarmed, waitMs);
  // The signal stays handled (ignored) once begun: a late `disarm` does not fail the run.
  if (disarmed) return 'disarmed';
  if (Date.now() - fireAt > catchUpWindowMs) {
    log.warn('Scheduled fire missed past the catch-up window: skipped', { fireAt: new Date(fireAt).toISOString() });
    return 'skipped';
  }
  return 'fired';
}

/** The model answers with the MCP tools of the automation; each tool call is its own activity. Usage goes to `totals` step by step. */
async function answerWithTools(input: RunWorkflowInput, modelStep: RunStep, totals: RunTotals, workSeconds: number | undefined): Promise<string> {
  const { runId } = input;
  const tools = await listRunTools({ runId });
  // Only tools marked for approval (histories from before approvals have none) make the run wait.
  const approvals = approvalWaiter({ runId, organizationId: input.organizationId, workflowId: workflowInfo().workflowId });
  const startedMs = workflowInfo().startTime.getTime();
  const work = {
    codeVersion: input.codeVersion ?? 0, startedMs,
    workStartMs: input.begin?.fireAt ? Date.parse(input.begin.fireAt) : startedMs,
    ...(workSeconds ? { workMs: workSeconds * 1000 } : {}),
  };
  const steps: ToolLoopSteps = {
    async complete(conversation, offered) {
      if (outOfWorkTime(work, Date.now(), approvals.waitedMs())) {
        throw ApplicationFailure.nonRetryable('The run used up its time of work (RUN_WORK_SECONDS; time spent waiting for approvals not counted)', 'timed_out');
      }
      const step = addUsage(totals, await generateRunOutput({ ...modelStep, conversation, tools: offered }));
      return { content: step.output, toolCalls: step.toolCalls, tokensInput: step.tokensInput, tokensOutput: step.tokensOutput, cost: step.cost };
    },
    callTool: (binding, args) => toolCallOrError(() => callRunTool({ runId, organizationId: input.organizationId, binding, arguments: args })),
    awaitApprovals: (calls) => approvals.awaitApprovals(calls),
  };
  return (await runToolCallingLoop(steps, tools)).output;
}

interface RunTotals {
  tokensInput: number;
  tokensOutput: number;
  estimatedCost: number;
}

/** Adds one model call's usage to the run's totals; returns the call. */
function addUsage<Step extends { tokensInput: number; tokensOutput: number; cost: number }>(totals: RunTotals, step: Step): Step {
  totals.tokensInput += step.tokensInput;
  totals.tokensOutput += step.tokensOutput;
  totals.estimatedCost += step.cost;
  return step;
}

async function reportFinished(input: RunWorkflowInput): Promise<void> {
  try {
    await getExternalWorkflowHandle(input.parentWorkflowId).signal('runFinished', { runId: input.runId });
  } catch {
    // The automation was deleted meanwhile: nobody to tell.
  }
}
