// Signing in: local email + password, or an identity verified by the OpenID provider. Either
// way only an active user of a known email (or an invited one presenting their invitation
// through OIDC) gets a session, every sign-in issues a new session
// token (ending the one the browser carried), and the audit log records it.
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAuditEvent } from '../audit/audit.service.js';
import type { Clock } from '../clock.js';
import { badRequest, forbidden, unauthorized } from '../errors.js';
import { consumeInvitationFor } from './invitations.service.js';
import { User } from './entities.js';
import { verifyPassword } from './passwords.js';
import { startSession, type IssuedSession, type SignInMethod } from './sessions.js';
import { toUserView, type UserView } from './users.service.js';

export interface SignInResult {
  user: UserView;
  session: IssuedSession;
}

/** Password hashes checked per sign-in at least (argon2 runs on libuv's pool of 4 threads). */
export const SIGN_IN_HASH_CHECKS = 4;

export async function signInWithPassword(
  em: EntityManager,
  clock: Clock,
  input: { email: string; password: string; organizationId?: string | undefined; previousSessionToken?: string | undefined; requestId?: string },
): Promise<SignInResult> {
  const candidates = await em.find(
    User,
    { email: input.email.toLowerCase(), ...(input.organizationId ? { organization: input.organizationId } : {}) },
    { populate: ['passwordHash'] },
  );
  // Every candidate's hash is checked, padded with dummy checks to SIGN_IN_HASH_CHECKS, in
  // parallel: the time taken tells neither which account matched, nor whether the address has
  // no account, one or several (up to that many).
  const padding = Math.max(0, SIGN_IN_HASH_CHECKS - candidates.length);
  const [results] = await Promise.all([
    Promise.all(candidates.map((user) => verifyPassword(user.passwordHash ?? null, input.password))),
    Promise.all(Array.from({ length: padding }, () => verifyPassword(null, input.password))),
  ]);
  const matching = candidates.filter((user, i) => results[i] && user.status === 'active');
  if (matching.length === 0) throw unauthorized('Invalid email or password');
  return completeSignIn(em, clock, onlyOne(matching), 'password', input);
}

/**
 * The OpenID provider verified this email. With an invitation token (from the accept link, via
 * `GET /auth/oidc/login?invitation=`), the invited user of that token is activated, only if the
 * token is addressed to this email. Without one, only an already active user signs in: an
 * invited user whose email merely matches is not activated.
 */
export async function signInWithVerifiedEmail(
  em: EntityManager,
  clock: Clock,
  input: {
    email: string;
    name?: string | undefined;
    subject: string;
    invitation?: string | undefined;
    organizationId?: string | undefined;
    previousSessionToken?: string | undefined;
    requestId?: string;
  },
): Promise<SignInResult> {
  if (input.invitation) {
    const invited = await consumeInvitationFor(em, clock.now(), input.invitation, input.email, input.name);
    return completeSignIn(em, clock, invited, 'oidc', input);
  }
  const users = await em.find(User, { email: input.email.toLowerCase(), ...(input.organizationId ? { organization: input.organizationId } : {}) });
  const active = users.filter((user) => user.status === 'active');
  if (active.length === 0) {
    if (users.some((user) => user.status === 'disabled')) throw unauthorized('This account is disabled');
    throw forbidden('No active account for this identity; ask an administrator for an invitation and follow its link');
  }
  return completeSignIn(em, clock, onlyOne(active), 'oidc', input);
}

/**
 * One person may have accounts in several organizations (users are unique per organization and
 * email). When the credential opens more than one, the caller names the organization; this is
 * said only to someone who already proved the credential, so it reveals nothing to others.
 */
function onlyOne(users: User[]): User {
  if (users.length > 1) {
    throw badRequest('This sign-in opens accounts in several organizations; name one with organizationId', 'organizationId');
  }
  return users[0]!;
}

/** Audits the sign-in and starts the session (`apiKeyId`: the key it was exchanged for). */
export async function completeSignIn(
  em: EntityManager,
  clock: Clock,
  user: User,
  method: SignInMethod,
  input: { previousSessionToken?: string | undefined; requestId?: string | undefined; apiKeyId?: string | undefined },
): Promise<SignInResult> {
  const now = clock.now();
  recordAuditEvent(em, {
    organizationId: user.organization.id,
    actor: { userId: user.id },
    action: 'user.signed_in',
    target: { type: 'user', id: user.id },
    metadata: { method, ...(input.apiKeyId ? { apiKeyId: input.apiKeyId } : {}) },
    requestId: input.requestId,
    at: now,
  });
  const session = await startSession(em, user, { method, now, previousToken: input.previousSessionToken, apiKeyId: input.apiKeyId });
  return { user: toUserView(user), session };
}
