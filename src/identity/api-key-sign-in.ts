// Signing in with an API key (the console's "API key" sign-in): the key is exchanged once for a
// browser session and never kept by the browser. Only a key that could already do everything a
// session can is exchanged: an owner's or admin's key without limits of its own or above it (no
// models, monthlyBudget, rateLimitPerMinute, mcpTools), so a limited child key never becomes a
// full session (403). The session remembers the key and ends when the key is revoked
// (sessions.ts). Both the sign-in and a refused exchange of a valid key are audited.
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAuditEvent } from '../audit/audit.service.js';
import type { Clock } from '../clock.js';
import { forbidden } from '../errors.js';
import { authenticateApiKey } from './authenticate.js';
import { hasRole, type Caller } from './caller.js';
import { User } from './entities.js';
import { completeSignIn, type SignInResult } from './sign-in.service.js';

export async function signInWithApiKey(
  em: EntityManager,
  clock: Clock,
  input: { apiKey: string; previousSessionToken?: string | undefined; requestId?: string | undefined },
): Promise<SignInResult> {
  const caller = await authenticateApiKey(em, input.apiKey);
  const refusal = exchangeRefusal(caller);
  if (refusal) {
    auditRefusal(em, clock, caller, refusal, input.requestId);
    await em.flush();
    throw forbidden(refusal);
  }
  const user = await em.findOneOrFail(User, { id: caller.userId, organization: caller.organizationId });
  return completeSignIn(em, clock, user, 'api_key', { ...input, apiKeyId: caller.apiKeyId });
}

/** Why this key may not become a session, or undefined when it may. */
function exchangeRefusal(caller: Caller): string | undefined {
  if (!hasRole(caller, 'admin')) return "Only an owner's or admin's API key can be exchanged for a session";
  const limits = caller.keyLimits;
  const limited =
    limits && (limits.models !== null || limits.monthlyBudget !== null || limits.rateLimitPerMinute !== null || (limits.mcpTools ?? null) !== null || (limits.above?.length ?? 0) > 0);
  if (limited) return 'An API key with limits (models, monthlyBudget, rateLimitPerMinute, mcpTools, or a key above it with limits) cannot be exchanged for a session';
  return undefined;
}

function auditRefusal(em: EntityManager, clock: Clock, caller: Caller, reason: string, requestId: string | undefined): void {
  recordAuditEvent(em, {
    organizationId: caller.organizationId,
    actor: { userId: caller.userId, apiKeyId: caller.apiKeyId },
    action: 'user.sign_in_refused',
    target: { type: 'api_key', id: caller.apiKeyId! },
    metadata: { method: 'api_key', reason },
    requestId,
    at: clock.now(),
  });
}
