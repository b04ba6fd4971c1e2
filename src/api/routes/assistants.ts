// /v1/assistants: CRUD of the organization's assistants, regeneration of their webhook URL and
// take-ownership.
import { Router } from 'express';
import { createAssistantSchema, parseInput, updateAssistantSchema } from '../../assistants/assistants.schemas.js';
import {
  createAssistant,
  deleteAssistant,
  getAssistant,
  listAssistants,
  regenerateAssistantWebhook,
  takeAssistantOwnership,
  updateAssistant,
} from '../../assistants/assistants.service.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf } from '../middleware/auth.js';

export function assistantRoutes(deps: AppDeps): Router {
  const router = Router();

  router.post('/assistants', async (req, res) => {
    const input = parseInput(createAssistantSchema, req.body);
    res.status(201).json(await createAssistant(deps, callerOf(req), input));
  });

  router.get('/assistants', async (req, res) => {
    res.json(await listAssistants(deps, callerOf(req)));
  });

  router.get('/assistants/:id', async (req, res) => {
    res.json(await getAssistant(deps, callerOf(req), req.params.id));
  });

  router.put('/assistants/:id', async (req, res) => {
    const patch = parseInput(updateAssistantSchema, req.body);
    res.json(await updateAssistant(deps, callerOf(req), req.params.id, patch, req.requestId));
  });

  router.delete('/assistants/:id', async (req, res) => {
    await deleteAssistant(deps, callerOf(req), req.params.id);
    res.status(204).end();
  });

  router.post('/assistants/:id/webhook/regenerate', async (req, res) => {
    res.json(await regenerateAssistantWebhook(deps, callerOf(req), req.params.id, req.requestId));
  });

  router.post('/assistants/:id/take-ownership', async (req, res) => {
    res.json(await takeAssistantOwnership(deps, callerOf(req), req.params.id, req.requestId));
  });

  return router;
}
