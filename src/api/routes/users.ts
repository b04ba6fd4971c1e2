// Users of the caller's organization: GET /users, GET /users/me, POST /users/invite,
// PUT /users/{id}/role, DELETE /users/{id}. Role rules live in the services.
import { Router } from 'express';
import { changeRoleBody, idParam, inviteUserBody, parseInput } from '../../identity/identity.schemas.js';
import { inviteUser } from '../../identity/invitations.service.js';
import { changeUserRole, getCurrentUser, listUsers, removeUser } from '../../identity/users.service.js';
import type { AppDeps } from '../../runtime-deps.js';
import { identityContext, requireRole } from '../middleware/auth.js';

export function usersRoutes(deps: AppDeps): Router {
  const router = Router();

  router.get('/users', requireRole('admin'), async (req, res) => {
    res.json(await listUsers(identityContext(deps, req)));
  });

  router.get('/users/me', async (req, res) => {
    res.json(await getCurrentUser(identityContext(deps, req)));
  });

  router.post('/users/invite', requireRole('admin'), async (req, res) => {
    const body = parseInput(inviteUserBody, req.body);
    res.status(201).json(await inviteUser(identityContext(deps, req), { mailer: deps.mailer, config: deps.config }, body));
  });

  router.put('/users/:id/role', requireRole('admin'), async (req, res) => {
    const id = parseInput(idParam, req.params.id, 'id');
    const body = parseInput(changeRoleBody, req.body);
    res.json(await changeUserRole(identityContext(deps, req), id, body.role));
  });

  router.delete('/users/:id', requireRole('admin'), async (req, res) => {
    const id = parseInput(idParam, req.params.id, 'id');
    await removeUser(identityContext(deps, req), id);
    res.status(204).end();
  });

  return router;
}
