// Browser sessions: a 256-bit random token in the `svc_session` cookie, only its SHA-256 stored.
// A session lives 7 days from its last use (sliding) and never beyond 30 days from sign-in.
// Signing in always issues a new token and ends the session the browser carried (rotation).
// A session opened by exchanging an API key ends when that key is revoked.
import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { unauthorized } from '../errors.js';
import type { Caller } from './caller.js';
import { ApiKey, Session, User } from './entities.js';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from './session-settings.js';

/** Sliding expiry is persisted at most this often per session, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export type SignInMethod = 'password' | 'oidc' | 'invitation' | 'api_key';

export interface IssuedSession {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Starts a session for an active user, ending the one `previousToken` belonged to. */
export async function startSession(
  em: EntityManager,
  user: User,
  options: { method: SignInMethod; now: Date; previousToken?: string | undefined; apiKeyId?: string | undefined },
): Promise<IssuedSession> {
  if (options.previousToken) await endSession(em, options.previousToken);
  const token = randomBytes(32).toString('base64url');
  const session = em.create(Session, {
    organization: user.organization,
    user,
    tokenHash: hashSessionToken(token),
    method: options.method,
    apiKey: options.apiKeyId ? em.getReference(ApiKey, options.apiKeyId) : null,
    createdAt: options.now,
    lastSeenAt: options.now,
    expiresAt: new Date(options.now.getTime() + SESSION_IDLE_MS),
    absoluteExpiresAt: new Date(options.now.getTime() + SESSION_ABSOLUTE_MS),
  });
  user.lastLoginAt = options.now;
  await em.flush();
  return { token, sessionId: session.id, expiresAt: session.expiresAt };
}

/**
 * The caller behind a session token, with the session's new (slid) expiry. An unknown, ended or
 * expired session, one of a user who is no longer active, or one opened with an API key since
 * revoked, is 401.
 */
export async function authenticateSession(em: EntityManager, token: string, now: Date): Promise<{ caller: Caller; expiresAt: Date }> {
  if (!TOKEN_FORMAT.test(token)) throw unauthorized();
  const session = await em.findOne(Session, { tokenHash: hashSessionToken(token) }, { populate: ['user', 'apiKey'] });
  if (!session || session.user.status !== 'active') throw unauthorized();
  if (now >= session.expiresAt || now >= session.absoluteExpiresAt || (session.apiKey && session.apiKey.revokedAt !== null)) {
    await em.nativeDelete(Session, { id: session.id });
    throw unauthorized();
  }
  const expiresAt = new Date(Math.min(now.getTime() + SESSION_IDLE_MS, session.absoluteExpiresAt.getTime()));
  if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    await em.nativeUpdate(Session, { id: session.id }, { lastSeenAt: now, expiresAt });
  }
  return {
    caller: {
      organizationId: session.user.organization.id,
      userId: session.user.id,
      email: session.user.email,
      role: session.user.role,
      via: 'session',
      sessionId: session.id,
    },
    expiresAt,
  };
}

export async function endSession(em: EntityManager, token: string): Promise<void> {
  if (!TOKEN_FORMAT.test(token)) return;
  await em.nativeDelete(Session, { tokenHash: hashSessionToken(token) });
}

/** Ends every session of a user (removed, disabled). */
export async function endUserSessions(em: EntityManager, userId: string): Promise<void> {
  await em.nativeDelete(Session, { user: userId });
}
