// Signing in: local email + password, or an identity verified by the OpenID provider. Either
// way only an active user of a known email gets a session, every sign-in issues a new session
// token (ending the one the browser carried), and the audit log records it.
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAuditEvent } from '../audit/audit.service.js';
import type { Clock } from '../clock.js';
import { forbidden, unauthorized } from '../errors.js';
import { User } from './entities.js';
import { verifyPassword } from './passwords.js';
import { startSession, type IssuedSession, type SignInMethod } from './sessions.js';
import { toUserView, type UserView } from './users.service.js';

export interface SignInResult {
  user: UserView;
  session: IssuedSession;
}

export async function signInWithPassword(
  em: EntityManager,
  clock: Clock,
  input: { email: string; password: string; previousSessionToken?: string | undefined; requestId?: string },
): Promise<SignInResult> {
  const user = await em.findOne(User, { email: input.email.toLowerCase() }, { populate: ['passwordHash'] });
  const valid = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !valid || user.status !== 'active') throw unauthorized('Invalid email or password');
  return completeSignIn(em, clock, user, 'password', input);
}

/** The OpenID provider verified this email: sign its user in (an invited user becomes active). */
export async function signInWithVerifiedEmail(
  em: EntityManager,
  clock: Clock,
  input: { email: string; name?: string | undefined; subject: string; previousSessionToken?: string | undefined; requestId?: string },
): Promise<SignInResult> {
  const user = await em.findOne(User, { email: input.email.toLowerCase() });
  if (!user) throw forbidden('No account for this identity; ask an administrator for an invitation');
  if (user.status === 'disabled') throw unauthorized('This account is disabled');
  if (user.status === 'invited') {
    user.status = 'active';
    if (!user.name && input.name) user.name = input.name;
  }
  return completeSignIn(em, clock, user, 'oidc', input);
}

async function completeSignIn(
  em: EntityManager,
  clock: Clock,
  user: User,
  method: SignInMethod,
  input: { previousSessionToken?: string | undefined; requestId?: string },
): Promise<SignInResult> {
  const now = clock.now();
  recordAuditEvent(em, {
    organizationId: user.organization.id,
    actor: { userId: user.id },
    action: 'user.signed_in',
    target: { type: 'user', id: user.id },
    metadata: { method },
    requestId: input.requestId,
    at: now,
  });
  const session = await startSession(em, user, { method, now, previousToken: input.previousSessionToken });
  return { user: toUserView(user), session };
}
