// API key lifecycle for the portal: create (the raw key is returned once, only its hash kept),
// list, revoke. A member sees and revokes only their own keys; admins and the owner manage every
// key of the organization. Revocation evicts the key from every API instance's cache at once.
import { recordAuditEvent } from '../audit/audit.service.js';
import { notFound } from '../errors.js';
import { assertQuota, type QuotaLimits } from '../quotas/quota.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-keys.js';
import { hasRole, type Caller } from './caller.js';
import type { IdentityContext } from './context.js';
import { credentialCacheFor } from './credential-cache.js';
import { ApiKey, Organization, User } from './entities.js';

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  userId: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface CreatedApiKey {
  id: string;
  name: string;
  /** The raw key: returned here once and never again. */
  key: string;
  prefix: string;
  createdAt: string;
}

export async function createApiKey(ctx: IdentityContext, input: { name: string }, limits: QuotaLimits): Promise<CreatedApiKey> {
  const { caller } = ctx;
  const rawKey = generateApiKey();
  return ctx.em.transactional(async (em) => {
    await assertQuota(em, limits, 'api_keys', caller);
    const key = em.create(ApiKey, {
      organization: em.getReference(Organization, caller.organizationId),
      user: em.getReference(User, caller.userId),
      name: input.name,
      keyHash: hashApiKey(rawKey),
      prefix: displayPrefix(rawKey),
      createdAt: ctx.clock.now(),
    });
    audit({ ...ctx, em }, 'api_key.created', key, { name: key.name, prefix: key.prefix });
    await em.flush();
    return { id: key.id, name: key.name, key: rawKey, prefix: key.prefix, createdAt: key.createdAt.toISOString() };
  });
}

export async function listApiKeys(ctx: IdentityContext): Promise<{ apiKeys: ApiKeyView[]; total: number }> {
  const keys = await ctx.em.find(ApiKey, visibleKeys(ctx.caller), { orderBy: { createdAt: 'desc', id: 'desc' } });
  return { apiKeys: keys.map(toView), total: keys.length };
}

/** Revokes a key (idempotent). Effective on the next request on every API instance. */
export async function revokeApiKey(ctx: IdentityContext, id: string): Promise<void> {
  const key = await ctx.em.findOne(ApiKey, { ...visibleKeys(ctx.caller), id });
  if (!key) throw notFound('API key');
  if (key.revokedAt) return;
  key.revokedAt = ctx.clock.now();
  audit(ctx, 'api_key.revoked', key, { name: key.name, prefix: key.prefix });
  await ctx.em.flush();
  await credentialCacheFor(ctx.shared).invalidate({ apiKeyId: key.id });
}

function visibleKeys(caller: Caller) {
  return hasRole(caller, 'admin')
    ? { organization: caller.organizationId }
    : { organization: caller.organizationId, user: caller.userId };
}

function audit(ctx: IdentityContext, action: string, key: ApiKey, metadata: Record<string, unknown>): void {
  recordAuditEvent(ctx.em, {
    organizationId: ctx.caller.organizationId,
    actor: ctx.caller,
    action,
    target: { type: 'api_key', id: key.id },
    metadata,
    requestId: ctx.requestId,
    at: ctx.clock.now(),
  });
}

function toView(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    userId: key.user.id,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}
