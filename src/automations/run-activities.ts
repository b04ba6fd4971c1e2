// The run-step activities of the run workflow (src/workflows/run.ts), on the one agent-run
// pipeline (src/agent-run): the run's row and plan (SQL in ./run-rows.ts), the input scan, the
// model step, delivery to each channel and the final record. Each is safe to retry: inserts are
// keyed by the run id, the final record only moves a running run, and a delivery already recorded
// is not sent again. The schedule's activities are in ./schedule-activities.ts.
import { ApplicationFailure } from '@temporalio/activity';
import type { AppDeps } from '../runtime-deps.js';
import { deliverOnce, type DeliveryResult } from '../agent-run/delivery.js';
import { scanAgentInput } from '../agent-run/input-scan.js';
import { modelStep } from '../agent-run/model-step.js';
import { toActivityFailure } from '../agent-run/retry.js';
import { createChannelSender } from '../channels/index.js';
import { AppError } from '../errors.js';
import { metrics } from '../metrics.js';
import type { ChatMessage, ToolCall, ToolDefinition } from '../gateway/types.js';
import { OWNER_INACTIVE_MESSAGE } from '../identity/run-principal.js';
import type { RunStep, RunTrigger, ScheduleSnapshot } from '../workflows/run.contract.js';
import type { RunStatus } from './entities.js';
import { contextText, planOfRun, runInstruction, type RunPlan, type RunPrompt } from './run-plan.js';
import { activeOwnerOf, completeRunRow, runRowWithAutomation, SKIPPED_RUNNING, startRunRow, type RunRow } from './run-rows.js';

export type { RunPlan, RunPrompt } from './run-plan.js';

export type { RunStep, ScheduleSnapshot } from '../workflows/run.contract.js';

export interface RunStart {
  runId: string;
  automationId: string;
  organizationId: string;
  trigger: RunTrigger;
  context: unknown;
  schedule: ScheduleSnapshot;
  /** When the run began (its workflow's start); the time of recording when absent. */
  startedAt?: string;
  /** The run this one retries. */
  retryOf?: string;
  /**
   * A run started ahead of its fire: the fire it waited for (ISO). Its row is not recorded when
   * another run of the automation is running (the fire is skipped), and the automation's
   * nextRunAt moves on from this fire even when a newer state was written since the snapshot.
   */
  firedAt?: string;
  /** The time the fire was due (ISO), for a scheduled or catch-up run. */
  scheduledFor?: string;
}

/** A fire skipped at its time because another run of the automation was running. */
export interface SkippedFire {
  skipped: 'running';
}

export interface StepUsage {
  output: string;
  tokensInput: number;
  tokensOutput: number;
  cost: number;
}

export function createRunActivities(deps: AppDeps) {
  const channels = createChannelSender(deps);

  const knex = () => deps.orm.em.getConnection().getKnex();

  /** The rows of a run and its automation; not_found (permanent) when either is gone. */
  async function rowOf(runId: string): Promise<RunRow> {
    const row = await runRowWithAutomation(knex(), runId);
    if (!row) throw ApplicationFailure.nonRetryable('The automation or run no longer exists', 'not_found');
    return row;
  }

  /** Inserts the run as running and moves lastRunAt and the schedule (one statement); null when the automation is gone. */
  async function recordStarted(input: RunStart): Promise<RunRow | typeof SKIPPED_RUNNING | null> {
    const { schedule } = input;
    const both = schedule.schedule !== undefined && schedule.timezone !== undefined;
    return startRunRow(knex(), {
      runId: input.runId,
      automationId: input.automationId,
      organizationId: input.organizationId,
      trigger: input.trigger,
      startedAt: input.startedAt ? new Date(input.startedAt) : deps.clock.now(),
      context: input.context ?? null,
      retryOf: input.retryOf ?? null,
      schedule: {
        status: schedule.status,
        nextRunAt: schedule.nextRunAt ? new Date(schedule.nextRunAt) : null,
        skippedFires: schedule.skippedFires,
        missedFires: schedule.missedFires ?? null,
        version: schedule.version,
        // A schedule changed by the `schedule` signal (Web UI) reaches the row the API reads.
        schedule: both ? schedule.schedule! : null,
        timezone: both ? schedule.timezone! : null,
      },
      ...(input.firedAt ? { firedAt: new Date(input.firedAt), skipIfRunning: true } : {}),
      scheduledFor: input.scheduledFor ? new Date(input.scheduledFor) : null,
    }, deps.clock.now());
  }

  async function planOf(row: RunRow | null): Promise<RunPlan> {
    if (!row) throw ApplicationFailure.nonRetryable('The automation or run no longer exists', 'not_found');
    try {
      return { ...await planOfRun(deps.orm.em.fork(), row), workSeconds: deps.config.RUN_WORK_SECONDS };
    } catch (error) {
      throw toActivityFailure(error);
    }
  }

  /**
   * The owner a model call acts as: the automation's current owner, who must still be an active
   * member (one indexed lookup per call; the automation must also still be in the organization).
   */
  async function actingOwner(prompt: RunPrompt): Promise<string> {
    const ownerId = await activeOwnerOf(knex(), prompt.automationId, prompt.organizationId);
    if (!ownerId) throw toActivityFailure(new AppError('forbidden', OWNER_INACTIVE_MESSAGE, { param: 'ownerId' }));
    return ownerId;
  }

  /** The prompt of a step: carried in its input, or (older histories) read from the rows again. */
  async function promptOf(step: RunStep): Promise<{ prompt: RunPrompt; userId: string }> {
    if (step.prompt) return { prompt: step.prompt, userId: await actingOwner(step.prompt) };
    const row = await rowOf(step.runId);
    const { prompt } = await planOf(row);
    return { prompt: prompt!, userId: row.ownerId };
  }

  /** Throws dlp_blocked (permanent) when the organization's policy blocks the system prompt or the context. */
  async function scanPrompt(prompt: RunPrompt): Promise<void> {
    await scanAgentInput(deps, prompt.organizationId, [prompt.systemPrompt, contextText(prompt.context) ?? '']);
  }

  /**
   * The plan, scanned when asked: the step that made it already holds the prompt, so the scan
   * costs the run no step of its own (the scan reads no rows; the model call checks the owner).
   */
  async function scanned(plan: RunPlan, scan: boolean | undefined): Promise<RunPlan> {
    if (!scan || !plan.prompt) return plan;
    await scanPrompt(plan.prompt);
    return { ...plan, scanned: true };
  }

  return {
    /** Inserts the run as `running` (once, even when retried) and moves lastRunAt and the schedule. */
    async recordRunStarted(input: Omit<RunStart, 'firedAt'>): Promise<{ startedAt: string } | null> {
      // Without `firedAt` nothing is skipped: the row is recorded unless the automation is gone.
      const row = await recordStarted(input);
      return row && row !== SKIPPED_RUNNING ? { startedAt: row.startedAt.toISOString() } : null;
    },

    /**
     * The run's plan; resolves the automation's skill once and records the version on the run.
     * With `scan` (the `carried-plan` path) it also runs the DLP scan of the prompt and context.
     */
    async loadRunPlan(input: { runId: string; scan?: boolean }): Promise<RunPlan> {
      return scanned(await planOf(await runRowWithAutomation(knex(), input.runId)), input.scan);
    },

    /**
     * A scheduled run's first step: its row (as `running` since the run began) and its plan, in one
     * activity; null when the automation was deleted before the run began; for a run started ahead
     * of its fire, a skipped fire when another run of the automation is running.
     */
    async beginRun(input: RunStart & { scan?: boolean }): Promise<RunPlan | SkippedFire | null> {
      const row = await recordStarted(input);
      if (row === SKIPPED_RUNNING) return { skipped: 'running' };
      return row && scanned(await planOf(row), input.scan);
    },

    /** The DLP scan of the system prompt and the context, before anything goes upstream. */
    async scanRunInput(input: RunStep): Promise<void> {
      await scanPrompt(input.prompt ?? (await promptOf(input)).prompt);
    },

    /**
     * The model call: system prompt + the run's trigger and context, through the gateway core.
     * In a tool loop, `conversation` (the tool rounds so far) follows and `tools` are offered.
     */
    async generateRunOutput(input: RunStep & { conversation?: ChatMessage[]; tools?: ToolDefinition[] | null }): Promise<StepUsage & { toolCalls: ToolCall[] }> {
      const { prompt, userId } = await promptOf(input);
      const step = await modelStep(deps, {
        identity: { organizationId: prompt.organizationId, source: 'automation', runId: input.runId },
        // The owner was checked as the prompt was resolved (older histories) or is checked now.
        owner: async () => userId,
        model: prompt.model,
        prompt: [{ role: 'system', content: prompt.systemPrompt }, { role: 'user', content: runInstruction(prompt) }],
        conversation: input.conversation,
        tools: input.tools,
      });
      return { output: step.output, toolCalls: step.toolCalls, tokensInput: step.tokensInput, tokensOutput: step.tokensOutput, cost: step.cost };
    },

    /** Delivers the output to one channel, at most once per delivery id. */
    async deliverRunOutput(input: { runId: string; channelIndex: number; output: string }): Promise<DeliveryResult> {
      const deliveryId = `${input.runId}:${input.channelIndex}`;
      const row = await rowOf(input.runId);
      const channel = row.channels[input.channelIndex];
      if (!channel) throw ApplicationFailure.nonRetryable(`The automation has no channel ${input.channelIndex}`, 'not_found');
      return deliverOnce(deps, channels, {
        deliveryId,
        owner: { runId: row.runId },
        organizationId: row.organizationId,
        ownerId: row.ownerId,
        channel,
        output: input.output,
        name: row.name,
        message: ({ output, name }) => ({
          deliveryId,
          automationId: row.automationId,
          automationName: name,
          runId: row.runId,
          trigger: row.trigger,
          startedAt: row.startedAt.toISOString(),
          output,
        }),
      });
    },

    /** The final record; only a running run moves, so a retry cannot overwrite the outcome. */
    async completeRun(input: {
      runId: string;
      status: Exclude<RunStatus, 'running'>;
      output: string | null;
      error: string | null;
      tokensInput: number;
      tokensOutput: number;
      estimatedCost: number;
    }): Promise<void> {
      const completed = await completeRunRow(knex(), {
        runId: input.runId,
        status: input.status,
        completedAt: deps.clock.now(),
        tokensInput: input.tokensInput,
        tokensOutput: input.tokensOutput,
        estimatedCost: input.estimatedCost,
        output: input.output,
        error: input.error?.slice(0, 2000) ?? null,
      });
      if (completed) metrics.runOutcomes.inc({ status: input.status, trigger: completed.trigger });
    },
  };
}

export type RunActivities = ReturnType<typeof createRunActivities>;
