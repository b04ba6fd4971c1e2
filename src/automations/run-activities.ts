// Activities of the automation and run workflows: run bookkeeping in PostgreSQL, the DLP scan,
// the model call through the gateway core, the tool-loop seam and channel deliveries. Each is
// safe to retry: inserts are keyed by the run id, the final record only moves a running run,
// and a delivery already recorded is not sent again.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { AppDeps } from '../runtime-deps.js';
import { createChannelSender, PermanentDeliveryError } from '../channels/index.js';
import { AppError } from '../errors.js';
import { metrics } from '../metrics.js';
import type { ChatCompletionRequest, ChatMessage, ToolCall, ToolDefinition } from '../gateway/types.js';
import { assertOwnerActive } from '../identity/run-principal.js';
import { runSettingsFor, type RunSettings } from '../skills/run-settings.js';
import { Automation, AutomationRun, ChannelDelivery, type AutomationStatus, type RunStatus, type RunTrigger } from './entities.js';
import { scanRunInputForDlp } from './run-dlp.js';

export interface ScheduleSnapshot {
  status: AutomationStatus;
  nextRunAt: string | null;
  skippedFires: number;
  version: number;
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
}

export interface RunPlan {
  automationName: string;
  toolCount: number;
  channelCount: number;
  skill: RunSettings['skill'];
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

  async function loadRun(runId: string): Promise<{ run: AutomationRun; automation: Automation }> {
    const em = deps.orm.em.fork();
    const run = await em.findOne(AutomationRun, { id: runId });
    const automation = run ? await em.findOne(Automation, { id: run.automationId }) : null;
    if (!run || !automation) throw ApplicationFailure.nonRetryable('The automation or run no longer exists', 'not_found');
    return { run, automation };
  }

  async function recordStarted(input: RunStart): Promise<{ startedAt: string } | null> {
    return deps.orm.em.fork().transactional(async (em) => {
      const automation = await em.findOne(Automation, { id: input.automationId, organizationId: input.organizationId });
      if (!automation) return null;
      let run = await em.findOne(AutomationRun, { id: input.runId });
      if (!run) {
        run = em.create(AutomationRun, {
          id: input.runId,
          automationId: input.automationId,
          organizationId: input.organizationId,
          trigger: input.trigger,
          status: 'running',
          startedAt: input.startedAt ? new Date(input.startedAt) : deps.clock.now(),
          context: input.context ?? null,
        });
        if (!automation.lastRunAt || automation.lastRunAt < run.startedAt) automation.lastRunAt = run.startedAt;
      }
      await em.flush();
      await writeSchedule(em, input.automationId, input.schedule);
      return { startedAt: run.startedAt.toISOString() };
    });
  }

  async function loadPlan(runId: string): Promise<RunPlan> {
    const { run, automation } = await loadRun(runId);
    const em = deps.orm.em.fork();
    const settings = await settingsOfRun(em, run, automation);
    if (settings.skill && !run.skillId) {
      // Unpinned = the latest version when the run starts; every later step uses this one.
      await em.nativeUpdate(AutomationRun, { id: run.id, skillId: null }, { skillId: settings.skill.skillId, skillVersion: settings.skill.version });
    }
    return { automationName: automation.name, toolCount: settings.tools.length, channelCount: automation.channels.length, skill: settings.skill };
  }

  return {
    /** Writes status, nextRunAt and skippedFires unless a newer state was already written. */
    async saveScheduleState(input: { automationId: string } & ScheduleSnapshot): Promise<{ exists: boolean }> {
      const em = deps.orm.em.fork();
      await writeSchedule(em, input.automationId, input);
      return { exists: (await em.count(Automation, { id: input.automationId })) > 0 };
    },

    /** Inserts the run as `running` (once, even when retried) and moves lastRunAt and the schedule. */
    recordRunStarted: recordStarted,

    /** The run's shape; resolves the automation's skill once and records the version on the run. */
    async loadRunPlan(input: { runId: string }): Promise<RunPlan> {
      return loadPlan(input.runId);
    },

    /**
     * A scheduled run's first step: its row (as `running` since the run workflow started) and its
     * plan, in one activity; null when the automation was deleted before the run began.
     */
    async beginRun(input: RunStart): Promise<RunPlan | null> {
      return (await recordStarted(input)) ? loadPlan(input.runId) : null;
    },

    async scanRunInput(input: { runId: string }): Promise<void> {
      const { run, automation } = await loadRun(input.runId);
      try {
        const settings = await settingsOfRun(deps.orm.em.fork(), run, automation);
        await scanRunInputForDlp(deps, automation.organizationId, [settings.systemPrompt, contextText(run.context) ?? '']);
      } catch (error) {
        throw toActivityFailure(error);
      }
    },

    /**
     * The model call: system prompt + the run's trigger and context, through the gateway core.
     * In a tool loop, `conversation` (the tool rounds so far) follows and `tools` are offered.
     */
    async generateRunOutput(input: { runId: string; conversation?: ChatMessage[]; tools?: ToolDefinition[] | null }): Promise<StepUsage & { toolCalls: ToolCall[] }> {
      const { run, automation } = await loadRun(input.runId);
      const settings = await settingsOfRun(deps.orm.em.fork(), run, automation);
      const request: ChatCompletionRequest = {
        model: settings.model,
        messages: [
          { role: 'system', content: settings.systemPrompt },
          { role: 'user', content: runInstruction(run) },
          ...(input.conversation ?? []),
        ],
        ...(input.tools ? { tools: input.tools } : {}),
      };
      const context = Context.current();
      // Heartbeats let Temporal notice a lost worker within the heartbeat timeout, not the 5 minutes.
      const beat = setInterval(() => context.heartbeat(), 2000);
      try {
        const result = await deps.gateway.complete(
          request,
          { organizationId: automation.organizationId, userId: automation.ownerId, source: 'automation', runId: run.id },
          context.cancellationSignal,
        );
        return {
          output: result.content ?? '',
          toolCalls: result.toolCalls,
          tokensInput: result.usage.inputTokens,
          tokensOutput: result.usage.outputTokens,
          cost: result.cost,
        };
      } catch (error) {
        throw toActivityFailure(error);
      } finally {
        clearInterval(beat);
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
        receipt = await channels.send(
          { type: channel.type, target: channel.target, secret: channel.encryptedSecret ? deps.secrets.decrypt(channel.encryptedSecret) : undefined },
          {
            deliveryId,
            automationId: automation.id,
            automationName: automation.name,
            runId: run.id,
            trigger: run.trigger,
            startedAt: run.startedAt.toISOString(),
            output: input.output,
          },
        );
      } catch (error) {
        if (error instanceof PermanentDeliveryError) throw ApplicationFailure.nonRetryable(`${channel.type}: ${error.message}`, 'delivery_failed');
        throw error;
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
      const em = deps.orm.em.fork();
      const run = await em.findOne(AutomationRun, { id: input.runId });
      if (!run || run.status !== 'running') return;
      const completedAt = deps.clock.now();
      const updated = await em.nativeUpdate(AutomationRun, { id: input.runId, status: 'running' }, {
        status: input.status,
        completedAt,
        durationMs: Math.max(0, completedAt.getTime() - run.startedAt.getTime()),
        tokensInput: input.tokensInput,
        tokensOutput: input.tokensOutput,
        estimatedCost: input.estimatedCost,
        output: input.output,
        error: input.error?.slice(0, 2000) ?? null,
      });
      if (updated > 0) metrics.runOutcomes.inc({ status: input.status, trigger: run.trigger });
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
  });
}

function contextText(context: unknown): string | null {
  return context === null || context === undefined ? null : JSON.stringify(context, null, 2);
}

function runInstruction(run: AutomationRun): string {
  const lines = [`Run triggered by ${run.trigger} at ${run.startedAt.toISOString()}.`];
  const context = contextText(run.context);
  if (context) lines.push('', 'Context (JSON):', context);
  return lines.join('\n');
}

/** Coded gateway errors: permanent ones fail the run at once, the rest are retried. */
function toActivityFailure(error: unknown): unknown {
  if (error instanceof AppError) {
    return PERMANENT_CODES.has(error.code)
      ? ApplicationFailure.nonRetryable(error.message, error.code)
      : ApplicationFailure.retryable(error.message, error.code);
  }
  return error;
}
