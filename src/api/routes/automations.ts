// /v1/automations: scheduled AI jobs, their lifecycle (activate, pause, run now) and run history.
import { Router } from 'express';
import {
  activateAutomation,
  createAutomation,
  deleteAutomation,
  getAutomation,
  listAutomations,
  listRuns,
  pauseAutomation,
  runAutomationNow,
  takeAutomationOwnership,
  updateAutomation,
} from '../../automations/automations.service.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf } from '../middleware/auth.js';

export function automationsRoutes(deps: AppDeps): Router {
  const router = Router();

  router.get('/automations', async (req, res) => {
    res.json(await listAutomations(deps, callerOf(req)));
  });
  router.post('/automations', async (req, res) => {
    res.status(201).json(await createAutomation(deps, callerOf(req), req.body));
  });
  router.get('/automations/:id', async (req, res) => {
    res.json(await getAutomation(deps, callerOf(req), req.params.id));
  });
  router.put('/automations/:id', async (req, res) => {
    res.json(await updateAutomation(deps, callerOf(req), req.params.id, req.body));
  });
  router.delete('/automations/:id', async (req, res) => {
    await deleteAutomation(deps, callerOf(req), req.params.id);
    res.status(204).end();
  });
  router.post('/automations/:id/activate', async (req, res) => {
    res.json(await activateAutomation(deps, callerOf(req), req.params.id));
  });
  router.post('/automations/:id/pause', async (req, res) => {
    res.json(await pauseAutomation(deps, callerOf(req), req.params.id));
  });
  router.post('/automations/:id/take-ownership', async (req, res) => {
    res.json(await takeAutomationOwnership(deps, callerOf(req), req.params.id, req.requestId));
  });
  router.post('/automations/:id/run', async (req, res) => {
    res.status(202).json(await runAutomationNow(deps, callerOf(req), req.params.id));
  });
  router.get('/automations/:id/runs', async (req, res) => {
    res.json(await listRuns(deps, callerOf(req), req.params.id, req.query));
  });

  return router;
}
