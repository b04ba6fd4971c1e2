// GET /metrics for Prometheus. Open unless METRICS_TOKEN is set, then a matching bearer token
// is required (compared in constant time).
import { timingSafeEqual, createHash } from 'node:crypto';
import { Router } from 'express';
import { unauthorized } from '../../errors.js';
import { registry } from '../../metrics.js';
import type { AppDeps } from '../../runtime-deps.js';
import { bearerToken } from '../../identity/authenticate.js';

function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function metricsRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/metrics', async (req, res) => {
    const expected = deps.config.METRICS_TOKEN;
    if (expected) {
      const token = bearerToken(req.get('authorization'));
      if (!token || !sameSecret(token, expected)) throw unauthorized('A valid metrics token is required');
    }
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  });
  return router;
}
