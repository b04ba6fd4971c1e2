// Request fields the middleware adds.
import type { PendingAdmission } from '../billing/budget.js';
import type { Logger } from '../logger.js';
import type { Caller } from '../identity/caller.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** X-Request-Id of this request. */
      requestId: string;
      /** performance.now() when the request arrived (the gateway's overhead header counts from here). */
      startedAt: number;
      log: Logger;
      /** Set by the auth middleware; absent on unauthenticated routes. */
      caller?: Caller;
      /** Gateway calls: rate-limit counters still to count (with the budget hold, or alone). */
      admission?: PendingAdmission;
    }
  }
}

export {};
