// GET /v1/console/settings: what the web console needs to know about this deployment and cannot
// learn from the other endpoints: where the Temporal Web UI is and which namespace holds the
// workflows, so a run links to its workflow. Admins and the owner (they read runs' workflows there).
import { Router } from 'express';
import type { AppDeps } from '../../runtime-deps.js';
import { requireRole } from '../middleware/auth.js';

export function consoleSettingsRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/console/settings', requireRole('admin'), (_req, res) => {
    res.json({ temporalUiOrigin: deps.config.temporalUiOrigin, temporalNamespace: deps.config.TEMPORAL_NAMESPACE });
  });
  return router;
}
