// Activity heartbeats while a long call runs: Temporal notices a lost worker within the
// activity's heartbeat timeout (then retries the activity elsewhere) instead of waiting out its
// whole start-to-close timeout. For activities whose work does not report progress itself.
import { Context } from '@temporalio/activity';

/** Heartbeats every `intervalMs` while `work` runs; hands it the activity's cancellation signal. */
export async function whileHeartbeating<T>(work: (cancellation: AbortSignal) => Promise<T>, intervalMs = 2000): Promise<T> {
  const context = Context.current();
  const beat = setInterval(() => context.heartbeat(), intervalMs);
  try {
    return await work(context.cancellationSignal);
  } finally {
    clearInterval(beat);
  }
}
