// The workflow side of an agent run, shared by the run workflow (automations) and the webhook
// execution workflow (assistants): how a failed tool call reads to the model, and the failure
// text a run or an execution records. Deterministic; no I/O.
import { ActivityFailure, ApplicationFailure, isCancellation, type ActivityOptions } from '@temporalio/workflow';
import type { ToolCallResult } from '../connectors/tool-use.js';

/**
 * How soon a lost attempt of an activity that may run long is noticed and retried: an attempt
 * lost with its worker, or with the Temporal server (its task or its completion never arrived),
 * instead of at its start-to-close timeout. The worker heartbeats for every activity that sets
 * it (src/activities/heartbeats.ts).
 */
export const LOST_ATTEMPT_NOTICE = { heartbeatTimeout: '15 seconds' } as const;

/**
 * The timeouts and retries of an agent run's steps, the same for both kinds of run. Options are
 * not part of a history: changing them needs no patch.
 */
export const AGENT_STEP_OPTIONS = {
  /** The gateway fails over between providers itself; a retry covers a lost worker or server (noticed within the heartbeat timeout). */
  model: {
    startToCloseTimeout: '5 minutes',
    ...LOST_ATTEMPT_NOTICE,
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 4 },
    summary: 'Model call through the gateway',
  },
  /** Starts each connector of the run to list its tools (15 s deadline each). */
  toolListing: {
    startToCloseTimeout: '3 minutes',
    ...LOST_ATTEMPT_NOTICE,
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
    summary: 'List the MCP tools of the run',
  },
  /**
   * One tool call (30 s deadline inside). Not retried: a tool may act (post, write) before failing.
   * No heartbeat timeout: a call that outlives a server outage longer than it is not failed for it.
   */
  toolCall: { startToCloseTimeout: '45 seconds', retry: { maximumAttempts: 1 }, summary: 'Call one MCP tool' },
  /** Delivery to one channel, once per delivery id (a retry after a send that went through sends nothing). */
  delivery: {
    startToCloseTimeout: '1 minute',
    ...LOST_ATTEMPT_NOTICE,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 8 },
    summary: 'Deliver the answer to a channel',
  },
  /** The DLP scan of the prompts and the run's context (a webhook body). */
  inputScan: {
    startToCloseTimeout: '30 seconds',
    ...LOST_ATTEMPT_NOTICE,
    retry: { initialInterval: '1 second', maximumAttempts: 3 },
    summary: 'DLP scan of the prompt and context',
  },
} satisfies Record<string, ActivityOptions>;

/** One tool call; a failure (not a cancellation) comes back as text the model hears, so it may continue without it. */
export async function toolCallOrError(call: () => Promise<ToolCallResult>): Promise<ToolCallResult> {
  try {
    return await call();
  } catch (error) {
    if (isCancellation(error)) throw error;
    return { text: `Tool error: ${failureMessage(error)}`, isError: true, truncated: false };
  }
}

/** Codes of our coded failures (`budget_exceeded`, `dlp_blocked`, `delivery_failed`...), not error class names. */
const FAILURE_CODE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/**
 * The innermost failure's code, when it has one, then its message, e.g.
 * `budget_exceeded: The monthly budget cap of this organization is reached`.
 */
export function codedFailureMessage(error: unknown): string {
  const failure = innermostFailure(error);
  const message = failureMessage(failure);
  return failure instanceof ApplicationFailure && failure.type && FAILURE_CODE.test(failure.type) ? `${failure.type}: ${message}` : message;
}

/** The message of the innermost failure: what the activity said, not "Activity task failed". */
export function failureMessage(error: unknown): string {
  const failure = innermostFailure(error);
  return failure instanceof Error ? failure.message : String(failure);
}

function innermostFailure(error: unknown): unknown {
  let current: unknown = error;
  while (current instanceof ActivityFailure && current.cause) current = current.cause;
  return current;
}
