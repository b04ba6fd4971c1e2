// Invitations: an admin invites an email address; the service creates an `invited` user and a
// one-time token (256 bits, SHA-256 stored, valid 7 days) and emails the link. Accepting sets
// the name and password (or, through OIDC, presents the token at sign-in), activates the user and
// signs them in. Users are unique per organization and email, so an address that has an account
// in another organization is invited like any other: the answer never says it exists elsewhere.
import { createHash, randomBytes } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAuditEvent } from '../audit/audit.service.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { AppError, forbidden, unauthorized } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import type { IdentityContext } from './context.js';
import { hasRole } from './caller.js';
import { Invitation, Organization, User } from './entities.js';
import { hashPassword } from './passwords.js';
import { startSession, type IssuedSession } from './sessions.js';
import { toUserView, type UserView } from './users.service.js';

const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface InvitationDelivery {
  mailer: Mailer;
  config: Pick<Config, 'INVITATION_URL' | 'publicBaseUrl'>;
}

export async function inviteUser(
  ctx: IdentityContext,
  delivery: InvitationDelivery,
  input: { email: string; role: 'admin' | 'member' },
): Promise<UserView> {
  if (input.role === 'admin' && !hasRole(ctx.caller, 'owner')) throw forbidden('Only the owner invites admins');
  const email = input.email.toLowerCase();
  // Only this organization's own users are looked at: they are the inviter's to see anyway.
  if (await ctx.em.count(User, { email, organization: ctx.caller.organizationId })) {
    throw new AppError('conflict', 'A user with this email already exists in this organization', { param: 'email' });
  }
  const now = ctx.clock.now();
  const token = randomBytes(32).toString('base64url');
  const organization = await ctx.em.findOneOrFail(Organization, { id: ctx.caller.organizationId });
  const user = ctx.em.create(User, { organization, email, role: input.role, status: 'invited', createdAt: now, updatedAt: now });
  ctx.em.create(Invitation, {
    organization,
    user,
    tokenHash: hashInvitationToken(token),
    invitedBy: ctx.caller.userId,
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    createdAt: now,
  });
  recordAuditEvent(ctx.em, {
    organizationId: organization.id,
    actor: ctx.caller,
    action: 'user.invited',
    target: { type: 'user', id: user.id },
    metadata: { email, role: input.role },
    requestId: ctx.requestId,
    at: now,
  });
  try {
    await ctx.em.flush();
  } catch (error) {
    // Two invitations of one address at once: the check above passed for both, the unique
    // index lets one through.
    if (error instanceof UniqueConstraintViolationException) {
      throw new AppError('conflict', 'A user with this email already exists in this organization', { param: 'email', cause: error });
    }
    throw error;
  }
  try {
    await sendInvitation(delivery, { email, organizationName: organization.name, token, inviter: ctx.caller.email });
  } catch (error) {
    // Nobody could ever accept an invitation that was not delivered: undo it so it can be retried.
    await ctx.em.nativeDelete(User, { id: user.id });
    throw new AppError('service_unavailable', 'The invitation email could not be sent; try again later', { cause: error });
  }
  return toUserView(user);
}

/** Activates the invited user with a name and password and starts their first session. */
export async function acceptInvitation(
  em: EntityManager,
  clock: Clock,
  input: { token: string; name: string; password: string; previousSessionToken?: string | undefined },
): Promise<{ user: UserView; session: IssuedSession }> {
  const now = clock.now();
  const invitation = await em.findOne(Invitation, { tokenHash: hashInvitationToken(input.token), acceptedAt: null }, { populate: ['user'] });
  // One answer for unknown, used and expired tokens: the token is the credential here.
  if (!invitation || invitation.expiresAt <= now || invitation.user.status !== 'invited') {
    throw unauthorized('Invalid or expired invitation');
  }
  const user = invitation.user;
  user.name = input.name;
  user.passwordHash = await hashPassword(input.password);
  user.status = 'active';
  invitation.acceptedAt = now;
  recordAuditEvent(em, {
    organizationId: user.organization.id,
    actor: { userId: user.id },
    action: 'user.invitation_accepted',
    target: { type: 'user', id: user.id },
    at: now,
  });
  const session = await startSession(em, user, { method: 'invitation', now, previousToken: input.previousSessionToken });
  return { user: toUserView(user), session };
}

/**
 * The pending invitation of `token` if it is valid and addressed to `email`; consumed (the user
 * activated, the invitation accepted) in `em`'s unit of work. 401 otherwise, one answer for
 * every reason: the token is the credential.
 */
export async function consumeInvitationFor(em: EntityManager, now: Date, token: string, email: string, name?: string): Promise<User> {
  const invitation = await em.findOne(Invitation, { tokenHash: hashInvitationToken(token), acceptedAt: null }, { populate: ['user'] });
  if (!invitation || invitation.expiresAt <= now || invitation.user.status !== 'invited' || invitation.user.email !== email.toLowerCase()) {
    throw unauthorized('Invalid or expired invitation');
  }
  const user = invitation.user;
  if (!user.name && name) user.name = name;
  user.status = 'active';
  invitation.acceptedAt = now;
  recordAuditEvent(em, {
    organizationId: user.organization.id,
    actor: { userId: user.id },
    action: 'user.invitation_accepted',
    target: { type: 'user', id: user.id },
    metadata: { method: 'oidc' },
    at: now,
  });
  return user;
}

function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function invitationLink(config: InvitationDelivery['config'], token: string): string {
  const url = new URL(config.INVITATION_URL ?? `${new URL(config.publicBaseUrl).origin}/invitations/accept`);
  url.searchParams.set('token', token);
  return url.toString();
}

async function sendInvitation(
  delivery: InvitationDelivery,
  message: { email: string; organizationName: string; token: string; inviter: string },
): Promise<void> {
  const link = invitationLink(delivery.config, message.token);
  await delivery.mailer.send({
    to: message.email,
    subject: `You are invited to ${message.organizationName}`,
    text: [
      `${message.inviter} invited you to join ${message.organizationName}.`,
      '',
      'Accept the invitation (the link works once, for 7 days):',
      link,
      '',
    ].join('\n'),
    link,
  });
}
