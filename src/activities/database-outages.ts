// A database that is restarting, recovering or refusing connections is a condition to wait out,
// never a reason for a run to fail. Each activity's retry policy is sized for its own failures
// (a DLP scan: 3 attempts within ~3 s), shorter than a PostgreSQL crash recovery; so an activity
// whose attempt fails because the database is unreachable runs again within the same attempt,
// after a backoff (heartbeating, cancellable), until the database answers or the attempt's
// start-to-close timeout is near. Then the failure leaves as a retryable one, never non-retryable,
// and the activity's retry policy takes over. Running the activity again is what a Temporal retry
// would do: activities are idempotent by design (delivery ids, run-state versions).
import { ApplicationFailure, Context } from '@temporalio/activity';
import { isDatabaseUnreachable } from '../db/availability.js';
import { aroundEach, type ActivityFunction } from './around-each.js';

/** First wait after a failure; doubled each time up to MAX_WAIT_MS. */
const FIRST_WAIT_MS = 250;
const MAX_WAIT_MS = 4_000;
/** Time kept for the last run of the activity before its start-to-close timeout. */
const FINAL_RUN_MARGIN_MS = 3_000;

/** The failure type a database outage leaves an activity with (retryable). */
export const DATABASE_UNAVAILABLE = 'database_unavailable';

export function outlastingDatabaseOutages<T extends Record<string, ActivityFunction>>(activities: T): T {
  return aroundEach(activities, untilDatabaseAnswers);
}

async function untilDatabaseAnswers<R>(run: () => Promise<R>): Promise<R> {
  let wait = FIRST_WAIT_MS;
  for (;;) {
    try {
      return await run();
    } catch (error) {
      if (!isDatabaseOutage(error)) throw error;
      const context = Context.current();
      if (context.cancellationSignal.aborted || Date.now() + wait + FINAL_RUN_MARGIN_MS > attemptDeadline(context)) {
        throw ApplicationFailure.create({ message: `The database is unreachable: ${messageOf(error)}`, type: DATABASE_UNAVAILABLE, nonRetryable: false, cause: error as Error });
      }
      context.heartbeat();
      await context.sleep(wait);
      wait = Math.min(wait * 2, MAX_WAIT_MS);
    }
  }
}

/** Unreachable by the driver's account, or a coded failure that carries such an error or says so. */
export function isDatabaseOutage(error: unknown): boolean {
  return isDatabaseUnreachable(error) || (error instanceof ApplicationFailure && error.type === DATABASE_UNAVAILABLE);
}

function attemptDeadline(context: Context): number {
  const { startToCloseTimeoutMs, currentAttemptScheduledTimestampMs } = context.info;
  return currentAttemptScheduledTimestampMs + startToCloseTimeoutMs;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
