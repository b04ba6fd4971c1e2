// GET/PUT /v1/dlp/policy: the organization's data-loss-prevention actions per detector
// (block, mask, log, off). Admins and the owner only.
import { Router } from 'express';
import { parseDlpPolicyUpdate } from '../../gateway/dlp/dlp.schemas.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf, requireRole } from '../middleware/auth.js';

export function dlpRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/dlp/policy', requireRole('admin'), async (req, res) => {
    res.json(await deps.gateway.dlpPolicies.view(callerOf(req).organizationId));
  });
  router.put('/dlp/policy', requireRole('admin'), async (req, res) => {
    const changes = parseDlpPolicyUpdate(req.body);
    const caller = callerOf(req);
    res.json(await deps.gateway.dlpPolicies.update(caller.organizationId, caller.userId, changes));
  });
  return router;
}
