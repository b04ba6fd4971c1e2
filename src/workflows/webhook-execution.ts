// One webhook execution (`webhook/<executionId>`): started by the API before it acknowledges the
// request, so an acknowledged execution is never lost. The request body is the context: an
// assistant webhook runs the assistant once through the gateway and delivers the answer to its
// channels (with its tools, each tool call its own activity, as automation runs do); an automation
// webhook creates a run of that automation with trigger `webhook` and waits, with no cap, for the
// run's signal that it ended (patch `run-signals-execution`; older executions poll the run's row
// for up to a day). An assistant execution first
// scans the prompts and the payload for DLP in an activity of its own (patch `webhook-dlp-activity`).
// The execution record in the database follows along (running, then success or failure), so the
// status lookup never depends on Temporal visibility.
import { ApplicationFailure, CancellationScope, condition, isCancellation, patched, proxyActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { runToolCallingLoop, type ToolLoopSteps } from './tool-loop.js';
import { AGENT_STEP_OPTIONS, codedFailureMessage, LOST_ATTEMPT_NOTICE, toolCallOrError } from './agent-steps.js';
import { approvalWaiter } from './approval-wait.js';
import {
  automationRunEndedSignal,
  type AutomationRunEnded,
  type WebhookExecutionInput,
  type WebhookExecutionOutcome,
  type WebhookExecutionWorkflow,
} from './webhook-execution.contract.js';

const bookkeeping = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds', maximumAttempts: 20 },
  summary: 'Webhook execution bookkeeping',
});

// An assistant's steps time out and retry as an automation run's (agent-steps.ts).
const work = proxyActivities<Activities>(AGENT_STEP_OPTIONS.model);

/** Usage of the model calls made so far, added as each one completes. */
type UsageTotals = { inputTokens: number; outputTokens: number; cost: number };

export async function webhookExecutionWorkflow(input: WebhookExecutionInput): Promise<WebhookExecutionOutcome> {
  await bookkeeping.markWebhookExecutionRunning(input);
  const consumed: UsageTotals = { inputTokens: 0, outputTokens: 0, cost: 0 };
  try {
    const outcome = input.target.kind === 'assistant'
      ? await runAssistant(input, input.target.assistantId, consumed)
      : await runAutomation(input);
    await bookkeeping.finishWebhookExecution({ executionId: input.executionId, status: 'success', outcome });
    return outcome;
  } catch (error) {
    const cancelled = isCancellation(error);
    // As a run records it: `cancelled`, or the failure's code then its reason.
    const message = cancelled ? 'cancelled' : codedFailureMessage(error);
    // An execution failing in its tool loop still records what its completed model calls consumed.
    const spent = consumed.inputTokens + consumed.outputTokens > 0 ? { outcome: { output: null, usage: consumed } } : {};
    const finish = () => bookkeeping.finishWebhookExecution({ executionId: input.executionId, status: 'failure', error: message, ...spent });
    // A cancel (Web UI, `temporal workflow cancel`) is recorded too, outside the cancelled scope;
    // executions cancelled before the patch asked for it in the cancelled scope, which refused at once.
    await (cancelled && patched(WEBHOOK_CANCEL_RECORDED_PATCH) ? CancellationScope.nonCancellable(finish) : finish());
    if (cancelled) throw error;
    throw ApplicationFailure.nonRetryable(message, 'WebhookExecutionFailed');
  }
}

// The contract names this signature for the API's typed start: the two cannot drift apart.
webhookExecutionWorkflow satisfies WebhookExecutionWorkflow;

const delivery = proxyActivities<Activities>(AGENT_STEP_OPTIONS.delivery);
const toolListing = proxyActivities<Activities>(AGENT_STEP_OPTIONS.toolListing);
const toolCalls = proxyActivities<Activities>(AGENT_STEP_OPTIONS.toolCall);
const dlpScan = proxyActivities<Activities>(AGENT_STEP_OPTIONS.inputScan);

/** Marks executions that record a cancel as their end (`cancelled`); older ones ended without recording it. */
export const WEBHOOK_CANCEL_RECORDED_PATCH = 'webhook-cancel-recorded';
/** Executions started before assistants used their tools answered in one model call. */
export const ASSISTANT_TOOLS_PATCH = 'assistant-tools';
/** Executions started before the payload's DLP scan was an activity of its own (the gateway scanned it per model call). */
export const WEBHOOK_DLP_PATCH = 'webhook-dlp-activity';

async function runAssistant(input: WebhookExecutionInput, assistantId: string, consumed: UsageTotals): Promise<WebhookExecutionOutcome> {
  if (patched(WEBHOOK_DLP_PATCH)) {
    await dlpScan.scanWebhookInput({ organizationId: input.organizationId, assistantId, body: input.body });
  }
  const { channelCount, ...answer } = patched(ASSISTANT_TOOLS_PATCH)
    ? await answerWithTools(input, assistantId, consumed)
    : withoutToolCalls(await work.runAssistantForWebhook({ ...input, assistantId }));
  for (let channelIndex = 0; channelIndex < channelCount; channelIndex++) {
    await delivery.deliverAssistantAnswer({
      executionId: input.executionId,
      organizationId: input.organizationId,
      assistantId,
      channelIndex,
      output: answer.output ?? '',
      receivedAt: input.receivedAt,
    });
  }
  return answer;
}

/**
 * The assistant answers with its MCP tools (none: one model call without tools). Every model call
 * is an activity with the conversation so far; every tool call its own activity, at most
 * MAX_TOOL_ITERATIONS rounds (runToolCallingLoop); usage is the sum of all model calls, added to
 * `consumed` as each call completes.
 */
async function answerWithTools(input: WebhookExecutionInput, assistantId: string, consumed: UsageTotals): Promise<WebhookExecutionOutcome & { channelCount: number }> {
  // The listing resolves the execution's plan (prompt, model, skill version): the model calls carry it and read no rows.
  const { skillVersion, plan, ...tools } = await toolListing.listAssistantTools({ organizationId: input.organizationId, assistantId });
  // Only tools marked for approval (histories from before approvals have none) make the execution wait.
  const approvals = approvalWaiter({ executionId: input.executionId, organizationId: input.organizationId, workflowId: workflowInfo().workflowId });
  let last: { model?: string | undefined; channelCount: number } = { channelCount: 0 };
  const steps: ToolLoopSteps = {
    async complete(conversation, offered) {
      const step = await work.runAssistantForWebhook({ ...input, assistantId, conversation, tools: offered, skillVersion, ...(plan ? { plan } : {}) });
      last = { model: step.model, channelCount: step.channelCount };
      const usage = step.usage ?? { inputTokens: 0, outputTokens: 0, cost: 0 };
      consumed.inputTokens += usage.inputTokens;
      consumed.outputTokens += usage.outputTokens;
      consumed.cost += usage.cost;
      return { content: step.output, toolCalls: step.toolCalls, tokensInput: usage.inputTokens, tokensOutput: usage.outputTokens, cost: usage.cost };
    },
    callTool: (binding, args) => toolCallOrError(() => toolCalls.callAssistantTool({ executionId: input.executionId, organizationId: input.organizationId, binding, arguments: args })),
    awaitApprovals: (calls) => approvals.awaitApprovals(calls),
  };
  const result = await runToolCallingLoop(steps, tools);
  return {
    output: result.output,
    model: last.model,
    usage: { ...consumed },
    channelCount: last.channelCount,
  };
}

function withoutToolCalls<T extends { toolCalls?: unknown }>(step: T): Omit<T, 'toolCalls'> {
  const { toolCalls: _ignored, ...rest } = step;
  return rest;
}

const runStart = proxyActivities<Activities>({
  // The automation's workflow applies the start; while no worker answers for it (a worker restart
  // waits out its sticky queue first) the start answers 503 and is tried again, with no limit on
  // attempts: an acknowledged event waits out a restart instead of failing. A refusal (the
  // automation is gone, its owner disabled) is not retried.
  startToCloseTimeout: '30 seconds',
  ...LOST_ATTEMPT_NOTICE,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds' },
  summary: 'Start a run of the automation',
});

/** Marks executions that learn their run's end from the run's signal; older ones poll its row. */
export const RUN_SIGNALS_EXECUTION_PATCH = 'run-signals-execution';
/** While it waits for the signal, the run's row is read this often: the net for a run that ended without sending it (terminated). */
const RUN_ROW_CHECK_MS = 60 * 60 * 1000;

/**
 * Creates the run, then waits for it to end: the run (the automation's child, not this
 * workflow's) signals its outcome. No cap on the wait: a run may wait for hours (approvals).
 */
async function runAutomation(input: WebhookExecutionInput): Promise<WebhookExecutionOutcome> {
  if (!patched(RUN_SIGNALS_EXECUTION_PATCH)) return followAutomationRunRow(input);
  let ended: AutomationRunEnded | undefined;
  setHandler(automationRunEndedSignal, (signal) => {
    ended ??= signal;
  });
  const { runId } = await runStart.startAutomationRunForWebhook(input);
  while (!(await condition(() => ended !== undefined, RUN_ROW_CHECK_MS))) {
    const run = await bookkeeping.readAutomationRunProgress({ organizationId: input.organizationId, runId });
    if (run.status !== 'running') {
      ended = { runId, status: run.status, output: run.output, error: run.error, usage: run.usage ?? { inputTokens: 0, outputTokens: 0, cost: 0 } };
    }
  }
  const outcome = ended!;
  if (outcome.status === 'failure') throw ApplicationFailure.nonRetryable(outcome.error ?? 'The automation run failed', 'RunFailed');
  return { output: outcome.output, runId, usage: outcome.usage };
}

/** Polling schedule of executions from before the run's signal: quick at first, then at most every 30 s, for up to a day. */
const RUN_POLL_INTERVALS_MS = [500, 1000, 2000, 5000, 10_000, 30_000];
const RUN_WAIT_LIMIT_MS = 24 * 60 * 60 * 1000;

/** Executions from before `run-signals-execution`: follow the run's row on durable timers. */
async function followAutomationRunRow(input: WebhookExecutionInput): Promise<WebhookExecutionOutcome> {
  const { runId } = await runStart.startAutomationRunForWebhook(input);
  let waitedMs = 0;
  for (let poll = 0; waitedMs < RUN_WAIT_LIMIT_MS; poll++) {
    const run = await bookkeeping.readAutomationRunProgress({ organizationId: input.organizationId, runId });
    if (run.status === 'failure') throw ApplicationFailure.nonRetryable(run.error ?? 'The automation run failed', 'RunFailed');
    if (run.status === 'success') return { output: run.output, runId, usage: run.usage ?? undefined };
    const interval = RUN_POLL_INTERVALS_MS[Math.min(poll, RUN_POLL_INTERVALS_MS.length - 1)]!;
    await sleep(interval);
    waitedMs += interval;
  }
  throw ApplicationFailure.nonRetryable(`The automation run ${runId} did not finish within a day`, 'RunTimedOut');
}
