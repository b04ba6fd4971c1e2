// The workflow side of an agent run, shared by the run workflow (automations) and the webhook
// execution workflow (assistants): how a failed tool call reads to the model, and the failure
// text a run or an execution records. Deterministic; no I/O.
import { ActivityFailure, ApplicationFailure, isCancellation } from '@temporalio/workflow';
import type { ToolCallResult } from '../connectors/tool-use.js';

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
