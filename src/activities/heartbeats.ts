// An activity task handed out just as the Temporal server dies is lost: its poll answer or its
// completion never arrives (the worker gives up a completion after ~10 s of retries), and Temporal
// retries it only when the attempt times out. Without a heartbeat timeout that is the whole
// start-to-close timeout: measured here, a webhook event waited 182 s for its tool listing (3
// minutes) after a 10 s outage. So every activity that may take long has a heartbeat timeout
// (AGENT_STEP_OPTIONS and the workflows' bookkeeping: 15 s), and this wrapper heartbeats for it
// while any such activity runs; a lost attempt is retried within that timeout. Activities
// without a heartbeat timeout, and local ones (retried by the workflow task itself), run as
// they are.
import { Context } from '@temporalio/activity';
import { aroundEach, type ActivityFunction } from './around-each.js';

/** Beats per heartbeat timeout: a few late timers (a busy event loop) still leave one in time. */
const BEATS_PER_TIMEOUT = 5;
const MAX_INTERVAL_MS = 2_000;

export function heartbeatingWhenTimed<T extends Record<string, ActivityFunction>>(activities: T): T {
  return aroundEach(activities, whileTimed);
}

async function whileTimed<R>(run: () => Promise<R>): Promise<R> {
  const context = activityContext();
  const { isLocal, heartbeatTimeoutMs } = context?.info ?? {};
  if (!context || isLocal || !heartbeatTimeoutMs) return run();
  const beat = setInterval(() => context.heartbeat(), Math.min(MAX_INTERVAL_MS, heartbeatTimeoutMs / BEATS_PER_TIMEOUT));
  try {
    return await run();
  } finally {
    clearInterval(beat);
  }
}

/** The running activity's context; undefined when called outside one (a test calling an activity function directly). */
function activityContext(): Context | undefined {
  try {
    return Context.current();
  } catch {
    return undefined;
  }
}
