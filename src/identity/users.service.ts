// Members of an organization: list, profile, role and status changes, removal and ownership
// transfer, with the role rules of docs/design.md: admins manage members; only the owner manages
// admins; nobody becomes owner except through the owner's own transfer; the owner's role and
// status change only through that transfer, and the owner cannot be removed. Another
// organization's user is 404. What a disabled or removed user owns (automations, assistants)
// is handled by the caller of these functions (api/routes/users.ts), which needs Temporal.
import type { EntityManager } from '@mikro-orm/postgresql';
import { cancelPendingApprovalsOfKeys } from '../approval-policy/cancellation.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { AppError, forbidden, notFound } from '../errors.js';
import type { IdentityContext } from './context.js';
import { hasRole, type Caller } from './caller.js';
import { ApiKey, Invitation, User, type Role, type UserStatus } from './entities.js';
import { lockKeysOfUser, lockUser } from './key-locks.js';
import { endUserSessions } from './sessions.js';

export interface UserView {
  id: string;
  email: string;
  name: string;
  role: Role;
  status: UserStatus;
  lastLoginAt: string | null;
  createdAt: string;
}

export function toUserView(user: User): UserView {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    status: user.status,
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
  };
}

export async function listUsers(ctx: IdentityContext): Promise<{ users: UserView[]; total: number }> {
  const users = await ctx.em.find(User, { organization: ctx.caller.organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return { users: users.map(toUserView), total: users.length };
}

export async function getCurrentUser(ctx: IdentityContext): Promise<UserView> {
  return toUserView(await findMember(ctx.em, ctx.caller, ctx.caller.userId));
}

export async function changeUserRole(ctx: IdentityContext, userId: string, role: Exclude<Role, 'owner'>): Promise<UserView> {
  const user = await findMember(ctx.em, ctx.caller, userId);
  assertCanManage(ctx.caller, user, role);
  const previous = user.role;
  if (previous === role) return toUserView(user);
  user.role = role;
  audit(ctx, ctx.em, 'user.role_changed', user, { from: previous, to: role });
  await ctx.em.flush();
  // Keys act with their creator's current role: demotion applies on the next request.
  await ctx.credentials.invalidate({ userId: user.id });
  return toUserView(user);
}

/**
 * What ending a user's keys left to do outside the transaction: the workflows that waited on the
 * keys' pending /v1/mcp approval requests, cancelled with them ("its API key was revoked"), for
 * the caller to end (approvals.service.ts `endCancelledMcpWaits`), as a key's revocation does.
 */
export interface EndedKeys {
  cancelledApprovalWaits: string[];
}

/** Removes the user; their sessions, API keys and invitations end with them, at once. */
export async function removeUser(ctx: IdentityContext, userId: string): Promise<EndedKeys> {
  const user = await findMember(ctx.em, ctx.caller, userId);
  assertCanManage(ctx.caller, user);
  const cancelledApprovalWaits = await ctx.em.transactional(async (tx) => {
    // The user's row first, as a disable updates it first: a key creation in flight ends before (key-locks.ts).
    await lockUser(tx, user.id);
    await endUserSessions(tx, user.id);
    await tx.nativeDelete(Invitation, { user: user.id });
    const keyIds = await lockKeysOfUser(tx, user.id);
    const waits = await cancelPendingApprovalsOfKeys(tx, ctx.caller.organizationId, keyIds, ctx.clock.now());
    await tx.nativeDelete(ApiKey, { user: user.id });
    await tx.nativeDelete(User, { id: user.id });
    audit(ctx, tx, 'user.removed', user, { email: user.email, role: user.role });
    return waits;
  });
  await ctx.credentials.invalidate({ userId: user.id });
  return { cancelledApprovalWaits };
}

/** Disables the user (kept for the record, cannot sign in); sessions and API keys end at once. */
export async function disableUser(ctx: IdentityContext, userId: string): Promise<{ user: UserView } & EndedKeys> {
  const user = await findMember(ctx.em, ctx.caller, userId);
  assertCanManage(ctx.caller, user);
  const cancelledApprovalWaits = await ctx.em.transactional(async (tx) => {
    await tx.nativeUpdate(User, { id: user.id }, { status: 'disabled' });
    await endUserSessions(tx, user.id);
    // After the locks, the update sees every key a creation in flight committed (key-locks.ts).
    const keyIds = await lockKeysOfUser(tx, user.id);
    await tx.nativeUpdate(ApiKey, { user: user.id, revokedAt: null }, { revokedAt: ctx.clock.now() });
    audit(ctx, tx, 'user.disabled', user, { email: user.email });
    return cancelPendingApprovalsOfKeys(tx, ctx.caller.organizationId, keyIds, ctx.clock.now());
  });
  user.status = 'disabled';
  await ctx.credentials.invalidate({ userId: user.id });
  return { user: toUserView(user), cancelledApprovalWaits };
}

/**
 * `PUT /users/{id}/status`: disables (sessions and keys end at once, see disableUser) or
 * re-enables a disabled user. Re-enabling restores sign-in, not the revoked keys. An invited
 * user becomes active only by accepting the invitation.
 */
export async function setUserStatus(ctx: IdentityContext, userId: string, status: 'active' | 'disabled'): Promise<{ user: UserView } & EndedKeys> {
  if (status === 'disabled') return disableUser(ctx, userId);
  const user = await findMember(ctx.em, ctx.caller, userId);
  assertCanManage(ctx.caller, user);
  if (user.status === 'active') return { user: toUserView(user), cancelledApprovalWaits: [] };
  if (user.status === 'invited') throw new AppError('conflict', 'The user has not accepted the invitation yet', { param: 'status' });
  user.status = 'active';
  audit(ctx, ctx.em, 'user.enabled', user, { email: user.email });
  await ctx.em.flush();
  return { user: toUserView(user), cancelledApprovalWaits: [] };
}

/**
 * The owner hands ownership to another active user of the organization and becomes an admin.
 * Both users' keys act with their new roles on the next request, on every instance.
 */
export async function transferOwnership(ctx: IdentityContext, userId: string): Promise<UserView> {
  if (ctx.caller.role !== 'owner') throw forbidden('Only the owner transfers ownership');
  const target = await findMember(ctx.em, ctx.caller, userId);
  if (target.id === ctx.caller.userId) throw new AppError('conflict', 'You already own this organization', { param: 'id' });
  if (target.status !== 'active') throw new AppError('conflict', 'Ownership goes only to an active user', { param: 'id' });
  const owner = await findMember(ctx.em, ctx.caller, ctx.caller.userId);
  await ctx.em.transactional(async (tx) => {
    // Conditional on the caller still being the owner in the database: of two transfers racing,
    // the second finds no owner row to demote and changes nothing (never two owners).
    const demoted = await tx.nativeUpdate(User, { id: owner.id, role: 'owner' }, { role: 'admin' });
    if (demoted === 0) throw forbidden('Only the owner transfers ownership');
    // Conditional on the new owner still being active: a disable that won the race rolls the
    // transfer back, so the organization is never left without an owner.
    const promoted = await tx.nativeUpdate(User, { id: target.id, status: 'active' }, { role: 'owner' });
    if (promoted === 0) throw new AppError('conflict', 'Ownership goes only to an active user', { param: 'id' });
    audit(ctx, tx, 'user.ownership_transferred', target, { from: owner.id, to: target.id, previousRole: target.role });
  });
  target.role = 'owner';
  const cache = ctx.credentials;
  await Promise.all([cache.invalidate({ userId: owner.id }), cache.invalidate({ userId: target.id })]);
  return toUserView(target);
}

/** A user of the caller's organization, else 404 (existence elsewhere is not revealed). */
export async function findMember(em: EntityManager, caller: Caller, userId: string): Promise<User> {
  const user = await em.findOne(User, { id: userId, organization: caller.organizationId });
  if (!user) throw notFound('User');
  return user;
}

/**
 * Admins manage members; the owner also manages admins. The owner's own record is never changed
 * here, and nobody manages themselves through these endpoints.
 */
function assertCanManage(caller: Caller, target: User, newRole?: Role): void {
  if (!hasRole(caller, 'admin')) throw forbidden();
  if (target.role === 'owner') throw forbidden('The owner cannot be changed or removed');
  if (target.id === caller.userId) throw forbidden('You cannot change or remove yourself');
  const touchesAdmin = target.role === 'admin' || newRole === 'admin';
  if (touchesAdmin && caller.role !== 'owner') throw forbidden('Only the owner promotes to or demotes from admin');
}

function audit(ctx: IdentityContext, em: EntityManager, action: string, user: User, metadata: Record<string, unknown>): void {
  recordAuditEvent(em, {
    organizationId: ctx.caller.organizationId,
    actor: ctx.caller,
    action,
    target: { type: 'user', id: user.id },
    metadata,
    requestId: ctx.requestId,
    at: ctx.clock.now(),
  });
}
