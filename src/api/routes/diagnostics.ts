// POST /v1/diagnostics/workflow: admins prove the Temporal path end to end.
import { Router } from 'express';
import { runWorkflowDiagnostics } from '../../diagnostics/diagnostics.service.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf, requireRole } from '../middleware/auth.js';

export function diagnosticsRoutes(deps: AppDeps): Router {
  const router = Router();
  router.post('/diagnostics/workflow', requireRole('admin'), async (req, res) => {
    const result = await runWorkflowDiagnostics(deps.temporal, callerOf(req));
    res.json({ status: 'ok', ...result });
  });
  return router;
}
