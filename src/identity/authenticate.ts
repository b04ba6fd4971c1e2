// Turns a bearer API key into a Caller. A revoked key, a key of a disabled or removed user,
// a malformed key or no key is 401 `unauthorized`, with the same message for each so the
// response never tells which.
import type { EntityManager } from '@mikro-orm/postgresql';
import { unauthorized } from '../errors.js';
import type { Caller } from './caller.js';
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
    { populate: ['user'], fields: ['id', 'organization', 'models', 'monthlyBudget', 'rateLimitPerMinute', 'user.id', 'user.email', 'user.role', 'user.status', 'user.organization'] },
  );
  if (!key || key.user.status !== 'active') throw unauthorized();
  return {
    organizationId: key.user.organization.id,
    userId: key.user.id,
    email: key.user.email,
    role: key.user.role,
    via: 'api_key',
    apiKeyId: key.id,
    keyLimits: { models: key.models, monthlyBudget: key.monthlyBudget, rateLimitPerMinute: key.rateLimitPerMinute },
  };
}
