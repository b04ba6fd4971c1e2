// Users of the caller's organization: GET /users, GET /users/me, POST /users/invite,
// PUT /users/{id}/role, PUT /users/{id}/status, POST /users/{id}/transfer-ownership,
// DELETE /users/{id}. Role rules live in the services; disabling or removing a user also pauses
// the automations they own (their webhooks answer 404 by themselves, see webhooks.service.ts) and
// cancels their keys' pending /v1/mcp approval requests, as revoking a key does.
import { Router } from 'express';
import { KEY_REVOKED_REASON } from '../../approval-policy/cancellation.js';
import { endCancelledMcpWaits } from '../../approvals/approvals.service.js';
import { pauseAutomationsOwnedBy } from '../../automations/automations.service.js';
import { changeRoleBody, changeStatusBody, idParam, inviteUserBody, parseInput } from '../../identity/identity.schemas.js';
import { inviteUser } from '../../identity/invitations.service.js';
import { changeUserRole, getCurrentUser, listUsers, removeUser, setUserStatus, transferOwnership } from '../../identity/users.service.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf, identityContext, requireRole } from '../middleware/auth.js';

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

  router.put('/users/:id/status', requireRole('admin'), async (req, res) => {
    const id = parseInput(idParam, req.params.id, 'id');
    const body = parseInput(changeStatusBody, req.body);
    const { user, cancelledApprovalWaits } = await setUserStatus(identityContext(deps, req), id, body.status);
    await endKeyApprovalWaits(deps, cancelledApprovalWaits);
    if (body.status === 'disabled') await pauseAutomationsOwnedBy(deps, callerOf(req).organizationId, id);
    res.json(user);
  });

  router.post('/users/:id/transfer-ownership', requireRole('owner'), async (req, res) => {
    const id = parseInput(idParam, req.params.id, 'id');
    res.json(await transferOwnership(identityContext(deps, req), id));
  });

  router.delete('/users/:id', requireRole('admin'), async (req, res) => {
    const id = parseInput(idParam, req.params.id, 'id');
    const { cancelledApprovalWaits } = await removeUser(identityContext(deps, req), id);
    await endKeyApprovalWaits(deps, cancelledApprovalWaits);
    await pauseAutomationsOwnedBy(deps, callerOf(req).organizationId, id);
    res.status(204).end();
  });

  return router;
}

/** The user's keys' pending /v1/mcp approvals were cancelled with them; their workflows stop waiting now. */
function endKeyApprovalWaits(deps: AppDeps, workflowIds: string[]): Promise<void> {
  return endCancelledMcpWaits(deps, workflowIds, KEY_REVOKED_REASON);
}
