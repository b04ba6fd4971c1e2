// GET /audit-logs: the organization's security audit log for admins and the owner, newest first.
import { Router } from 'express';
import { listAuditEvents } from '../../audit/audit.service.js';
import { pageQuery, parseInput } from '../../identity/identity.schemas.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf, requireRole } from '../middleware/auth.js';

export function auditLogsRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/audit-logs', requireRole('admin'), async (req, res) => {
    const page = parseInput(pageQuery, req.query);
    res.json(await listAuditEvents(deps.orm.em.fork(), callerOf(req), page));
  });
  return router;
}
