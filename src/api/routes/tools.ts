// /v1/tools: the MCP connector catalog and the caller's connections to it.
import { Router } from 'express';
import { catalogFor } from '../../connectors/catalog.js';
import { createConnectionBody, listConnectionsQuery, parseInput } from '../../connectors/connections.schemas.js';
import {
  createConnection,
  deleteConnection,
  getConnection,
  listCatalog,
  listConnections,
  testConnection,
} from '../../connectors/connections.service.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf } from '../middleware/auth.js';

export function toolsRoutes(deps: AppDeps): Router {
  // Read at start-up so a broken TOOLS_CATALOG_EXTRA stops the API instead of a later request.
  const catalog = catalogFor(deps.config);
  const router = Router();

  router.get('/tools', (_req, res) => {
    res.json(listCatalog(catalog));
  });

  router.get('/tools/connections', async (req, res) => {
    res.json(await listConnections(deps, callerOf(req), parseInput(listConnectionsQuery, req.query)));
  });

  router.post('/tools/connections', async (req, res) => {
    const input = parseInput(createConnectionBody, req.body);
    res.status(201).json(await createConnection(deps, callerOf(req), input));
  });

  router.get('/tools/connections/:id', async (req, res) => {
    res.json(await getConnection(deps, callerOf(req), req.params.id));
  });

  router.delete('/tools/connections/:id', async (req, res) => {
    await deleteConnection(deps, callerOf(req), req.params.id);
    res.status(204).end();
  });

  router.post('/tools/connections/:id/test', async (req, res) => {
    res.json(await testConnection(deps, callerOf(req), req.params.id));
  });

  return router;
}
