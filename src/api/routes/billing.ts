// GET /v1/billing/usage (admin, owner) and PUT /v1/billing/budget (owner).
import { Router } from 'express';
import { budgetBody, parseInput, usageQuery } from '../../billing/billing.schemas.js';
import { setMonthlyCap, usageReport } from '../../billing/billing.service.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf, requireRole } from '../middleware/auth.js';

export function billingRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/billing/usage', requireRole('admin'), async (req, res) => {
    const query = parseInput(usageQuery, req.query);
    res.json(await usageReport(deps, callerOf(req), query));
  });
  router.put('/billing/budget', requireRole('owner'), async (req, res) => {
    const { monthlyCap } = parseInput(budgetBody, req.body);
    res.json(await setMonthlyCap(deps, callerOf(req), monthlyCap, req.requestId));
  });
  return router;
}
