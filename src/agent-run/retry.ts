// The one retry rule of agent runs (automation runs and assistants' webhook executions): a coded
// failure becomes an activity failure that tells Temporal whether another attempt can help, by
// `isRetryableCode` beside the code -> status table in src/errors.ts. Anything uncoded (a lost
// connection, a crash) stays as it is: retried under the activity's policy.
import { ApplicationFailure } from '@temporalio/activity';
import { AppError, isRetryableCode } from '../errors.js';

/** Coded errors: permanent ones fail the run at once with their reason, the rest are retried. */
export function toActivityFailure(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  return ApplicationFailure.create({ message: error.message, type: error.code, nonRetryable: !isRetryableCode(error.code) });
}
