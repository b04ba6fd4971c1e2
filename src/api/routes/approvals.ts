// /v1/approvals: tool calls waiting for a person: list, show, approve, deny.
import { Router } from 'express';
import { approveToolCall, denyToolCall, getApproval, listApprovals } from '../../approvals/approvals.service.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf } from '../middleware/auth.js';

export function approvalsRoutes(deps: AppDeps): Router {
  const router = Router();

  router.get('/approvals', async (req, res) => {
    res.json(await listApprovals(deps, callerOf(req), req.query));
  });
  router.get('/approvals/:id', async (req, res) => {
    res.json(await getApproval(deps, callerOf(req), req.params.id));
  });
  router.post('/approvals/:id/approve', async (req, res) => {
    res.json(await approveToolCall(deps, callerOf(req), req.params.id, req.body, req.requestId));
  });
  router.post('/approvals/:id/deny', async (req, res) => {
    res.json(await denyToolCall(deps, callerOf(req), req.params.id, req.body, req.requestId));
  });

  return router;
}
