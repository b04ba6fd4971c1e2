// GET /v1/gateway/requests: the gateway's request records, one page newest first, filtered by
// model, API key, status and time. Admins and the owner see the organization's; a member their own.
import { Router } from 'express';
import { listRequestRecords } from '../../gateway/request-records.js';
import { requestRecordsQuery } from '../../gateway/request-records.schemas.js';
import { parseInput } from '../../identity/identity.schemas.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf } from '../middleware/auth.js';

export function gatewayRequestsRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/gateway/requests', async (req, res) => {
    const query = parseInput(requestRecordsQuery, req.query);
    res.json(await listRequestRecords(deps.orm.em.fork(), callerOf(req), query));
  });
  return router;
}
