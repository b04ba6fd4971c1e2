// Liveness and readiness. /readyz answers 503 naming each dependency that failed (`unreachable`);
// why it failed goes to the log, never to the anonymous caller.
import { Router } from 'express';
import { pingDatabase } from '../../db/orm.js';
import { AppError } from '../../errors.js';
import { pingTemporal } from '../../temporal.js';
import type { AppDeps } from '../../runtime-deps.js';

const CHECK_TIMEOUT_MS = 2000;

async function check(name: string, probe: () => Promise<void>, onFailure: (name: string, error: unknown) => void): Promise<[string, string]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), timeout]);
    return [name, 'ok'];
  } catch (error) {
    // The reason stays in the service's log: anonymous callers learn only which dependency failed.
    onFailure(name, error);
    return [name, 'unreachable'];
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const logFailure = (name: string, error: unknown) => deps.logger.warn({ dependency: name, err: error }, 'readiness check failed');
    const checks = Object.fromEntries(
      await Promise.all([
        check('database', () => pingDatabase(deps.orm), logFailure),
        check('redis', () => deps.shared.ping(), logFailure),
        check('temporal', () => pingTemporal(deps.temporal, CHECK_TIMEOUT_MS), logFailure),
      ]),
    );
    const failed = Object.entries(checks).filter(([, result]) => result !== 'ok').map(([name]) => name);
    if (failed.length > 0) {
      throw new AppError('service_unavailable', `Not ready: ${failed.join(', ')} unreachable`, { details: { checks } });
    }
    res.json({ status: 'ok', checks });
  });
  return router;
}
