// GET /v1/models: the models and tiers the calling key may use, in OpenAI's list shape (what
// OpenAI clients call first, e.g. `client.models.list()`).
import { Router } from 'express';
import { isModelAllowed } from '../../gateway/access.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf } from '../middleware/auth.js';

export function modelsRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/models', (req, res) => {
    const caller = callerOf(req);
    const data = deps.gateway
      .modelEntries()
      .filter((entry) => isModelAllowed(caller, entry.id))
      .map((entry) => ({ id: entry.id, object: 'model' as const, created: entry.created, owned_by: entry.ownedBy }));
    res.json({ object: 'list', data });
  });
  return router;
}
