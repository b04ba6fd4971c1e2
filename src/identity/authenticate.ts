// Turns a bearer API key into a Caller. A revoked key, a key under a revoked key (its own row
// not revoked: written before revocation was final, or by a race), a key of a disabled or
// removed user, a malformed key or no key is 401 `unauthorized`, with the same message for each
// so the response never tells which.
import type { EntityManager } from '@mikro-orm/postgresql';
import { unauthorized } from '../errors.js';
import type { Caller, KeyAbove } from './caller.js';
import { ApiKey } from './entities.js';
import { hashApiKey, isWellFormedApiKey } from './api-keys.js';

export function bearerToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match?.[1];
}

export async function authenticateApiKey(em: EntityManager, rawKey: string): Promise<Caller> {
  if (!isWellFormedApiKey(rawKey)) throw unauthorized();
  const key = await em.findOne(
    ApiKey,
    { keyHash: hashApiKey(rawKey), revokedAt: null },
    { populate: ['user'], fields: ['id', 'organization', 'models', 'monthlyBudget', 'rateLimitPerMinute', 'mcpTools', 'user.id', 'user.email', 'user.role', 'user.status', 'user.organization'] },
  );
  if (!key || key.user.status !== 'active') throw unauthorized();
  const { above, ancestorIds } = await keysAbove(em, key.id);
  return {
    organizationId: key.user.organization.id,
    userId: key.user.id,
    email: key.user.email,
    role: key.user.role,
    via: 'api_key',
    apiKeyId: key.id,
    ...(ancestorIds.length ? { apiKeyAncestorIds: ancestorIds } : {}),
    keyLimits: { models: key.models, monthlyBudget: key.monthlyBudget, rateLimitPerMinute: key.rateLimitPerMinute, mcpTools: key.mcpTools, ...(above.length ? { above } : {}) },
  };
}

/**
 * The keys above a key (created it, or created its creator...), nearest first, in the one query
 * that reads their limits: their ids, and the limits of those that have any. 401 when one of them
 * is revoked.
 */
async function keysAbove(em: EntityManager, keyId: string): Promise<{ above: KeyAbove[]; ancestorIds: string[] }> {
  const rows = await em.execute<Array<{ id: string; monthly_budget: number | null; rate_limit_per_minute: number | null; revoked_at: Date | null }>>(
    `select k."id", k."monthly_budget", k."rate_limit_per_minute", k."revoked_at" from "api_key_ancestors" a join "api_keys" k on k."id" = a."ancestor_id"
      where a."key_id" = ? order by a."depth"`,
    [keyId],
  );
  if (rows.some((row) => row.revoked_at !== null)) throw unauthorized();
  const above = rows
    .filter((row) => row.monthly_budget !== null || row.rate_limit_per_minute !== null)
    .map((row) => ({ id: row.id, monthlyBudget: row.monthly_budget === null ? null : Number(row.monthly_budget), rateLimitPerMinute: row.rate_limit_per_minute }));
  return { above, ancestorIds: rows.map((row) => row.id) };
}
