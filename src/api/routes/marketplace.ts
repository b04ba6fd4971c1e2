// The public, read-only marketplace page of a published skill (JSON), at the path the default
// MARKETPLACE_URL names. Outside /v1 and unauthenticated, like /docs.
import { Router } from 'express';
import { parseInput } from '../../identity/identity.schemas.js';
import { getMarketplaceSkill } from '../../skills/marketplace.js';
import { skillIdParam } from '../../skills/skills.schemas.js';
import type { AppDeps } from '../../runtime-deps.js';

export function marketplaceRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/marketplace/skills/:id', async (req, res) => {
    const id = parseInput(skillIdParam, req.params.id, 'id');
    const skill = await getMarketplaceSkill(deps, id);
    res.set('cache-control', 'public, max-age=60');
    res.json(skill);
  });
  return router;
}
