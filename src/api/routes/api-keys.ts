// API keys (the portal's Settings > API Keys): POST /api-keys, GET /api-keys, DELETE /api-keys/{id}.
import { Router } from 'express';
import { endCancelledMcpWaits } from '../../approvals/approvals.service.js';
import { subjectDeletedReason } from '../../approval-policy/cancellation.js';
import { keySpendInPeriod } from '../../billing/usage-records.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../../identity/api-keys.service.js';
import { createApiKeyBody, idParam, parseInput } from '../../identity/identity.schemas.js';
import type { AppDeps } from '../../runtime-deps.js';
import { identityContext } from '../middleware/auth.js';

export function apiKeysRoutes(deps: AppDeps): Router {
  const router = Router();

  router.post('/api-keys', async (req, res) => {
    const body = parseInput(createApiKeyBody, req.body);
    res.status(201).json(await createApiKey(identityContext(deps, req), body, deps.config, deps.gateway.models()));
  });

  router.get('/api-keys', async (req, res) => {
    res.json(await listApiKeys(identityContext(deps, req), keySpendInPeriod));
  });

  router.delete('/api-keys/:id', async (req, res) => {
    const id = parseInput(idParam, req.params.id, 'id');
    const { cancelledApprovalWaits } = await revokeApiKey(identityContext(deps, req), id);
    // Its pending /v1/mcp approvals were cancelled with it; their workflows stop waiting now.
    await endCancelledMcpWaits(deps, cancelledApprovalWaits, subjectDeletedReason({ apiKeyId: id }));
    res.status(204).end();
  });

  return router;
}
