// API key lifecycle for the portal: create (the raw key is returned once, only its hash kept),
// list, revoke. A member sees and revokes only their own keys; admins and the owner manage every
// key of the organization, except the owner's and other admins': only the owner revokes those
// (403), so an admin cannot lock the owner or another admin out. Revocation evicts the key from every API instance's
// cache at once. A key may carry its own gateway limits (allow-listed models and tiers, a
// monthly budget, a rate): set at creation only, so the copy cached with the caller never goes
// stale. A key created with a key gets at most the creating key's limits, and stays under them:
// its spend and its rate count against the creating key's (and those above it), and revoking a
// key revokes the keys created under it, including those whose creation was in flight (the
// creation and the revocation serialize on the creating key's row, see key-locks.ts).
import { cancelPendingApprovalsOfKeys } from '../approval-policy/cancellation.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { AppError, badRequest, forbidden, notFound, unauthorized } from '../errors.js';
import { assertQuota, type QuotaLimits } from '../quotas/quota.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-keys.js';
import { hasRole, type Caller, type KeyLimits } from './caller.js';
import type { IdentityContext } from './context.js';
import { ApiKey, Organization, User } from './entities.js';
import { lockActiveUser, lockKeyLine } from './key-locks.js';
import { mcpToolPatternCovered } from './mcp-tool-patterns.js';

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  userId: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  models: string[] | null;
  monthlyBudget: number | null;
  rateLimitPerMinute: number | null;
  mcpTools: string[] | null;
  /** USD recorded for this key in the current calendar month (UTC). */
  spentThisMonth: number;
}

export interface CreateApiKeyInput {
  name: string;
  models?: string[] | undefined;
  monthlyBudget?: number | undefined;
  rateLimitPerMinute?: number | undefined;
  mcpTools?: string[] | undefined;
}

export interface CreatedApiKey {
  id: string;
  name: string;
  /** The raw key: returned here once and never again. */
  key: string;
  prefix: string;
  createdAt: string;
  models: string[] | null;
  monthlyBudget: number | null;
  rateLimitPerMinute: number | null;
  mcpTools: string[] | null;
}

/** `knownModels`: the model and tier ids of the gateway config; `models` must name only those. */
export async function createApiKey(ctx: IdentityContext, input: CreateApiKeyInput, limits: QuotaLimits, knownModels: readonly string[]): Promise<CreatedApiKey> {
  const { caller } = ctx;
  const unknown = (input.models ?? []).findIndex((model) => !knownModels.includes(model));
  if (unknown >= 0) throw badRequest(`models[${unknown}] is not a model or tier of the gateway: '${input.models![unknown]}'`, `models[${unknown}]`);
  const granted = withinCreatorLimits(input, caller.via === 'api_key' ? caller.keyLimits : undefined);
  const rawKey = generateApiKey();
  const creatorKeyId = caller.via === 'api_key' ? caller.apiKeyId : undefined;
  return ctx.em.transactional(async (em) => {
    // The user's row, then the creating key's line, then the quota's organization: the lock order of key-locks.ts.
    if (!(await lockActiveUser(em, caller.userId))) throw unauthorized();
    if (creatorKeyId) await assertCreatorStillValid(em, creatorKeyId);
    await assertQuota(em, limits, 'api_keys', caller);
    const key = em.create(ApiKey, {
      organization: em.getReference(Organization, caller.organizationId),
      user: em.getReference(User, caller.userId),
      name: input.name,
      keyHash: hashApiKey(rawKey),
      prefix: displayPrefix(rawKey),
      models: granted.models,
      monthlyBudget: granted.monthlyBudget,
      rateLimitPerMinute: granted.rateLimitPerMinute,
      mcpTools: granted.mcpTools ?? null,
      createdAt: ctx.clock.now(),
    });
    const keyLimits = { models: key.models, monthlyBudget: key.monthlyBudget, rateLimitPerMinute: key.rateLimitPerMinute, mcpTools: key.mcpTools };
    audit({ ...ctx, em }, 'api_key.created', key, { name: key.name, prefix: key.prefix, ...keyLimits, ...(caller.apiKeyId ? { createdWithKey: caller.apiKeyId } : {}) });
    await em.flush();
    if (creatorKeyId) await recordAncestors(em, key.id, creatorKeyId);
    return { id: key.id, name: key.name, key: rawKey, prefix: key.prefix, createdAt: key.createdAt.toISOString(), ...keyLimits };
  });
}

/**
 * The limits of a key created with a key: the creating key's limits are a ceiling (models a
 * subset, budget and rate no higher); what the request leaves out it inherits. Asking for more
 * is 403 naming the field, so a limited key never mints a key with more than it has.
 */
export function withinCreatorLimits(input: CreateApiKeyInput, ceiling: KeyLimits | undefined): KeyLimits {
  const models = input.models ? [...new Set(input.models)] : null;
  const mcpTools = input.mcpTools ? [...new Set(input.mcpTools)] : null;
  const asked: KeyLimits = { models, monthlyBudget: input.monthlyBudget ?? null, rateLimitPerMinute: input.rateLimitPerMinute ?? null, mcpTools };
  if (!ceiling) return asked;
  const beyond = (field: string, what: string) => new AppError('forbidden', `${field} ${what} than the API key creating it allows`, { param: field });
  if (ceiling.models && asked.models?.some((model) => !ceiling.models!.includes(model))) throw beyond('models', 'names more models');
  if (ceiling.monthlyBudget !== null && asked.monthlyBudget !== null && asked.monthlyBudget > ceiling.monthlyBudget) throw beyond('monthlyBudget', 'is higher');
  if (ceiling.rateLimitPerMinute !== null && asked.rateLimitPerMinute !== null && asked.rateLimitPerMinute > ceiling.rateLimitPerMinute) throw beyond('rateLimitPerMinute', 'is higher');
  const mcpCeiling = ceiling.mcpTools ?? null;
  if (mcpCeiling && asked.mcpTools?.some((pattern) => !mcpToolPatternCovered(mcpCeiling, pattern))) throw beyond('mcpTools', 'reaches more tools');
  return {
    models: asked.models ?? ceiling.models,
    monthlyBudget: asked.monthlyBudget ?? ceiling.monthlyBudget,
    rateLimitPerMinute: asked.rateLimitPerMinute ?? ceiling.rateLimitPerMinute,
    mcpTools: asked.mcpTools ?? mcpCeiling,
  };
}

/**
 * The creating key authenticated before this transaction; it (or a key above it) may have been
 * revoked since. Checked under the lock its revocation takes, so the new key is either committed
 * before the revocation reads the keys under it, or refused: 401, the credential is gone.
 */
async function assertCreatorStillValid(em: IdentityContext['em'], creatorKeyId: string): Promise<void> {
  if (!(await lockKeyLine(em, creatorKeyId))) throw unauthorized();
}

/** The new key sits under the key that created it and under every key above that one. */
async function recordAncestors(em: IdentityContext['em'], keyId: string, creatorKeyId: string): Promise<void> {
  await em.execute(
    `insert into "api_key_ancestors" ("key_id", "ancestor_id", "depth")
      select ?::uuid, ?::uuid, 1
      union all select ?::uuid, "ancestor_id", "depth" + 1 from "api_key_ancestors" where "key_id" = ?`,
    [keyId, creatorKeyId, keyId, creatorKeyId],
  );
}

/**
 * Each key's recorded spend (USD) this billing period, by key id. Billing owns the usage records
 * and answers it (`keySpendInPeriod` in billing/usage-records.ts); the composition root passes it
 * in, so identity stays below billing.
 */
export type KeySpendLookup = (em: IdentityContext['em'], organizationId: string, keyIds: readonly string[], at: Date) => Promise<Map<string, number>>;

export async function listApiKeys(ctx: IdentityContext, spendOf: KeySpendLookup): Promise<{ apiKeys: ApiKeyView[]; total: number }> {
  const keys = await ctx.em.find(ApiKey, visibleKeys(ctx.caller), { orderBy: { createdAt: 'desc', id: 'desc' } });
  const spend = await spendOf(ctx.em, ctx.caller.organizationId, keys.map((key) => key.id), ctx.clock.now());
  return { apiKeys: keys.map((key) => toView(key, spend.get(key.id) ?? 0)), total: keys.length };
}

/**
 * Revokes a key (idempotent) and every key created under it: a key minted from a leaked key goes
 * with it. Effective on the next request on every API instance.
 */
/**
 * Revokes the key and the keys created under it. Their pending /v1/mcp approval requests are
 * cancelled in the same transaction ("its API key was revoked"), so they leave the approvals
 * inbox at once; returns the workflows that waited on them, for the caller to end
 * (approvals.service.ts `endCancelledWaits`).
 */
export async function revokeApiKey(ctx: IdentityContext, id: string): Promise<{ cancelledApprovalWaits: string[] }> {
  const key = await ctx.em.findOne(ApiKey, { ...visibleKeys(ctx.caller), id }, { populate: ['user'] });
  if (!key) throw notFound('API key');
  if (key.user.role === 'owner' && key.user.id !== ctx.caller.userId) throw forbidden("Only the owner revokes the owner's API keys");
  // Only the owner manages admins: one admin does not revoke another's keys.
  if (key.user.role === 'admin' && key.user.id !== ctx.caller.userId && ctx.caller.role !== 'owner') throw forbidden("Only the owner revokes another admin's API keys");
  const { revoked, waits } = await ctx.em.transactional(async (em) => {
    // Waits for creations with this key (or a key under it) in flight: the update below then sees their keys.
    await lockKeyLine(em, key.id);
    const rows = await em.execute<Array<{ id: string }>>(
      `update "api_keys" set "revoked_at" = ? where "revoked_at" is null and "organization_id" = ?
        and ("id" = ? or "id" in (select "key_id" from "api_key_ancestors" where "ancestor_id" = ?)) returning "id"`,
      [ctx.clock.now(), ctx.caller.organizationId, key.id, key.id],
    );
    const under = rows.map((row) => row.id).filter((id) => id !== key.id);
    if (rows.length) audit({ ...ctx, em }, 'api_key.revoked', key, { name: key.name, prefix: key.prefix, ...(under.length ? { keysCreatedUnder: under } : {}) });
    const revokedIds = rows.map((row) => row.id);
    return { revoked: revokedIds, waits: await cancelPendingApprovalsOfKeys(em, ctx.caller.organizationId, revokedIds, ctx.clock.now()) };
  });
  await Promise.all(revoked.map((apiKeyId) => ctx.credentials.invalidate({ apiKeyId })));
  return { cancelledApprovalWaits: waits };
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

function toView(key: ApiKey, spentThisMonth: number): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    userId: key.user.id,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    models: key.models,
    monthlyBudget: key.monthlyBudget,
    rateLimitPerMinute: key.rateLimitPerMinute,
    mcpTools: key.mcpTools,
    spentThisMonth: Math.round(spentThisMonth * 1e10) / 1e10,
  };
}
