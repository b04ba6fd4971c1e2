// Activities of the automation and run workflows: run bookkeeping in PostgreSQL, the DLP scan,
// the model call through the gateway core, the tool-loop seam and channel deliveries. Each is
// safe to retry: inserts are keyed by the run id, the final record only moves a running run,
// and a delivery already recorded is not sent again.
import { ApplicationFailure } from '@temporalio/activity';
import { whileHeartbeating } from '../heartbeat.js';
import type { AppDeps } from '../runtime-deps.js';
import { createChannelSender, PermanentDeliveryError } from '../channels/index.js';
import { AppError } from '../errors.js';
import { metrics } from '../metrics.js';
import type { ChatCompletionRequest, ChatMessage, ToolCall, ToolDefinition } from '../gateway/types.js';
import { assertOwnerActive, OWNER_INACTIVE_MESSAGE } from '../identity/run-principal.js';
import { runSettingsFor, type RunSettings } from '../skills/run-settings.js';
import { Automation, AutomationRun, ChannelDelivery, type AutomationStatus, type RunStatus, type RunTrigger } from './entities.js';
import { guardOutgoingText } from '../gateway/dlp/outgoing.js';
import { scanRunInputForDlp } from './run-dlp.js';
import { contextText, planOfRun, runInstruction, type RunPlan, type RunPrompt } from './run-plan.js';
import { activeOwnerOf, completeRunRow, runRowWithAutomation, SKIPPED_RUNNING, startRunRow, type RunRow } from './run-rows.js';

export type { RunPlan, RunPrompt } from './run-plan.js';

export interface ScheduleSnapshot {
  status: AutomationStatus;
  nextRunAt: string | null;
  skippedFires: number;
  version: number;
  /** The schedule as the workflow holds it (absent in snapshots of older workflow code). */
  schedule?: string;
  timezone?: string;
}

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
}

/** A fire skipped at its time because another run of the automation was running. */
export interface SkippedFire {
  skipped: 'running';
}

/**
 * A step's input: the run, and on the `carried-plan` path the prompt its plan resolved at the
 * start (older histories schedule steps with the run id only: those read the rows again).
 */
export interface RunStep {
  runId: string;
  prompt?: RunPrompt;
}

export interface StepUsage {
  output: string;
  tokensInput: number;
  tokensOutput: number;
  cost: number;
}

/** Gateway errors no retry can fix: the run fails at once with the reason. */
const PERMANENT_CODES = new Set(['bad_request', 'budget_exceeded', 'dlp_blocked', 'forbidden', 'not_found', 'unauthorized']);

export function createRunActivities(deps: AppDeps) {
  const channels = createChannelSender(deps);

  const knex = () => deps.orm.em.getConnection().getKnex();

  /** The rows of a run and its automation, as the steps of histories from before `carried-plan` read them. */
  async function loadRun(runId: string): Promise<{ run: AutomationRun; automation: Automation }> {
    const em = deps.orm.em.fork();
    const run = await em.findOne(AutomationRun, { id: runId });
    const automation = run ? await em.findOne(Automation, { id: run.automationId }) : null;
    if (!run || !automation) throw ApplicationFailure.nonRetryable('The automation or run no longer exists', 'not_found');
    return { run, automation };
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
        version: schedule.version,
        // A schedule changed by the `schedule` signal (Web UI) reaches the row the API reads.
        schedule: both ? schedule.schedule! : null,
        timezone: both ? schedule.timezone! : null,
      },
      ...(input.firedAt ? { firedAt: new Date(input.firedAt), skipIfRunning: true } : {}),
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
    const { run, automation } = await loadRun(step.runId);
    const settings = await settingsOfRun(deps.orm.em.fork(), run, automation);
    return {
      prompt: {
        organizationId: automation.organizationId, automationId: automation.id,
        model: settings.model, systemPrompt: settings.systemPrompt,
        trigger: run.trigger, startedAt: run.startedAt.toISOString(), context: run.context,
      },
      userId: automation.ownerId,
    };
  }

  /** Throws dlp_blocked (permanent) when the organization's policy blocks the system prompt or the context. */
  async function scanPrompt(prompt: RunPrompt): Promise<void> {
    try {
      await scanRunInputForDlp(deps, prompt.organizationId, [prompt.systemPrompt, contextText(prompt.context) ?? '']);
    } catch (error) {
      throw toActivityFailure(error);
    }
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
    /** Writes status, nextRunAt and skippedFires unless a newer state was already written. */
    async saveScheduleState(input: { automationId: string } & ScheduleSnapshot): Promise<{ exists: boolean }> {
      const em = deps.orm.em.fork();
      await writeSchedule(em, input.automationId, input);
      return { exists: (await em.count(Automation, { id: input.automationId })) > 0 };
    },

    /**
     * Of the given runs, those that ended (or have no row): the automation asks at a fire about
     * runs it carried over a continue-as-new, whose completion it cannot hear from Temporal.
     */
    async endedRuns(input: { runIds: string[] }): Promise<string[]> {
      if (input.runIds.length === 0) return [];
      const running = await deps.orm.em.fork().find(AutomationRun, { id: { $in: input.runIds }, status: 'running' }, { fields: ['id'] });
      const stillRunning = new Set(running.map((run) => run.id));
      return input.runIds.filter((id) => !stillRunning.has(id));
    },

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
      const request: ChatCompletionRequest = {
        model: prompt.model,
        messages: [
          { role: 'system', content: prompt.systemPrompt },
          { role: 'user', content: runInstruction(prompt) },
          ...(input.conversation ?? []),
        ],
        ...(input.tools ? { tools: input.tools } : {}),
      };
      try {
        // Heartbeats let Temporal notice a lost worker within the heartbeat timeout, not the 5 minutes.
        const result = await whileHeartbeating((cancellation) => deps.gateway.complete(
          request,
          { organizationId: prompt.organizationId, userId, source: 'automation', runId: input.runId },
          cancellation,
        ));
        return {
          output: result.content ?? '',
          toolCalls: result.toolCalls,
          tokensInput: result.usage.inputTokens,
          tokensOutput: result.usage.outputTokens,
          cost: result.cost,
        };
      } catch (error) {
        throw toActivityFailure(error);
      }
    },

    /** Delivers the output to one channel, at most once per delivery id. */
    async deliverRunOutput(input: { runId: string; channelIndex: number; output: string }): Promise<{ deliveryId: string; receipt: string; repeated: boolean }> {
      const deliveryId = `${input.runId}:${input.channelIndex}`;
      const em = deps.orm.em.fork();
      const existing = await em.findOne(ChannelDelivery, { id: deliveryId });
      if (existing) return { deliveryId, receipt: existing.receipt, repeated: true };
      const { run, automation } = await loadRun(input.runId);
      const channel = automation.channels[input.channelIndex];
      if (!channel) throw ApplicationFailure.nonRetryable(`The automation has no channel ${input.channelIndex}`, 'not_found');
      let receipt: string;
      try {
        // A delivery acts for the owner too: not once they are disabled or removed.
        await assertOwnerActive(em, automation.organizationId, automation.ownerId);
        // The output leaves the organization here: blocked or masked per its DLP policy.
        // The automation's name goes with the output: scanned the same way.
        const outgoing = { organizationId: automation.organizationId, destination: `channel:${channel.type}`, source: { type: 'run' as const, id: run.id } };
        const output = await guardOutgoingText(deps, { ...outgoing, text: input.output });
        const automationName = await guardOutgoingText(deps, { ...outgoing, text: automation.name });
        receipt = await channels.send(
          { type: channel.type, target: channel.target, secret: channel.encryptedSecret ? deps.secrets.decrypt(channel.encryptedSecret) : undefined },
          {
            deliveryId,
            automationId: automation.id,
            automationName,
            runId: run.id,
            trigger: run.trigger,
            startedAt: run.startedAt.toISOString(),
            output,
          },
        );
      } catch (error) {
        if (error instanceof PermanentDeliveryError) throw ApplicationFailure.nonRetryable(`${channel.type}: ${error.message}`, 'delivery_failed');
        throw toActivityFailure(error);
      }
      await em.getConnection().execute(
        'insert into "channel_deliveries" ("id", "run_id", "channel_type", "receipt", "delivered_at") values (?, ?, ?, ?, ?) on conflict ("id") do nothing',
        [deliveryId, run.id, channel.type, receipt.slice(0, 500), deps.clock.now()],
      );
      return { deliveryId, receipt, repeated: false };
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

/**
 * The prompt, model and tools of a run: with the skill version recorded on the run once it has
 * one, so a version published mid-run does not change the run. A skill that can no longer be
 * resolved fails the run (not_found, permanent). Every step that acts comes through here, so a
 * run whose owner was disabled or removed meanwhile fails at its next step (forbidden, permanent).
 */
export async function settingsOfRun(em: ReturnType<AppDeps['orm']['em']['fork']>, run: AutomationRun, automation: Automation): Promise<RunSettings> {
  const source = run.skillId ? { ...automation, skillId: run.skillId, skillVersion: run.skillVersion } : automation;
  try {
    await assertOwnerActive(em, automation.organizationId, automation.ownerId);
    return await runSettingsFor(em, source);
  } catch (error) {
    throw toActivityFailure(error);
  }
}

async function writeSchedule(em: ReturnType<AppDeps['orm']['em']['fork']>, automationId: string, snapshot: ScheduleSnapshot): Promise<void> {
  await em.nativeUpdate(Automation, { id: automationId, stateVersion: { $lt: snapshot.version } }, {
    status: snapshot.status,
    nextRunAt: snapshot.nextRunAt ? new Date(snapshot.nextRunAt) : null,
    skippedFires: snapshot.skippedFires,
    stateVersion: snapshot.version,
    // A schedule changed by the `schedule` signal (Web UI) reaches the row the API reads.
    ...(snapshot.schedule !== undefined && snapshot.timezone !== undefined ? { schedule: snapshot.schedule, timezone: snapshot.timezone } : {}),
  });
}

/** Coded gateway errors: permanent ones fail the run at once, the rest are retried. */
export function toActivityFailure(error: unknown): unknown {
  if (error instanceof AppError) {
    return PERMANENT_CODES.has(error.code)
      ? ApplicationFailure.nonRetryable(error.message, error.code)
      : ApplicationFailure.retryable(error.message, error.code);
  }
  return error;
}
