// Quotas per organization (and API keys per user). Each create path calls `assertQuota` in one
// line inside the transaction that inserts the row. The check locks the organization's row
// (SELECT ... FOR UPDATE) before counting, so two creates at the limit in parallel run one
// after the other and the second sees the first's row: they never both pass.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';

export type QuotaResource = 'automations' | 'assistants' | 'webhooks' | 'connections' | 'api_keys';

export type QuotaLimits = Pick<Config, 'QUOTA_AUTOMATIONS_PER_ORG' | 'QUOTA_ASSISTANTS_PER_ORG' | 'QUOTA_WEBHOOKS_PER_ORG' | 'QUOTA_CONNECTIONS_PER_ORG' | 'QUOTA_API_KEYS_PER_USER'>;

interface QuotaRule {
  limit: (limits: QuotaLimits) => number;
  env: keyof QuotaLimits;
  scope: 'organization' | 'user';
  /** Counts the live rows; `?` is the organization or the user id. */
  countSql: string;
}

const RULES: Record<QuotaResource, QuotaRule> = {
  automations: {
    limit: (l) => l.QUOTA_AUTOMATIONS_PER_ORG,
    env: 'QUOTA_AUTOMATIONS_PER_ORG',
    scope: 'organization',
    countSql: 'select count(*)::int as n from "automations" where "organization_id" = ?',
  },
  assistants: {
    limit: (l) => l.QUOTA_ASSISTANTS_PER_ORG,
    env: 'QUOTA_ASSISTANTS_PER_ORG',
    scope: 'organization',
    countSql: 'select count(*)::int as n from "assistants" where "organization_id" = ?',
  },
  webhooks: {
    limit: (l) => l.QUOTA_WEBHOOKS_PER_ORG,
    env: 'QUOTA_WEBHOOKS_PER_ORG',
    scope: 'organization',
    countSql: 'select count(*)::int as n from "webhooks" where "organization_id" = ? and "revoked_at" is null',
  },
  connections: {
    limit: (l) => l.QUOTA_CONNECTIONS_PER_ORG,
    env: 'QUOTA_CONNECTIONS_PER_ORG',
    scope: 'organization',
    countSql: 'select count(*)::int as n from "tool_connections" where "organization_id" = ?',
  },
  api_keys: {
    limit: (l) => l.QUOTA_API_KEYS_PER_USER,
    env: 'QUOTA_API_KEYS_PER_USER',
    scope: 'user',
    countSql: 'select count(*)::int as n from "api_keys" where "user_id" = ? and "revoked_at" is null',
  },
};

/**
 * Throws 403 quota_exceeded when one more `resource` would pass its limit. `em` must be inside
 * the transaction that creates the row: the organization's row stays locked until it commits.
 */
export async function assertQuota(
  em: EntityManager,
  limits: QuotaLimits,
  resource: QuotaResource,
  owner: { organizationId: string; userId?: string },
  adding = 1,
): Promise<void> {
  if (!em.isInTransaction()) throw new Error(`assertQuota(${resource}) must run inside the transaction that creates the row`);
  const rule = RULES[resource];
  const connection = em.getConnection();
  const ctx = em.getTransactionContext();
  await connection.execute('select "id" from "organizations" where "id" = ? for update', [owner.organizationId], 'all', ctx);
  const subject = rule.scope === 'user' ? owner.userId : owner.organizationId;
  if (!subject) throw new Error(`assertQuota(${resource}) needs a userId`);
  const rows = await connection.execute<{ n: number }[]>(rule.countSql, [subject], 'all', ctx);
  const limit = rule.limit(limits);
  if (Number(rows[0]?.n ?? 0) + adding > limit) {
    const per = rule.scope === 'user' ? 'per user' : 'per organization';
    throw quotaExceeded(`${resource}: at most ${limit} ${per} (${rule.env}); remove one first`, resource);
  }
}

/** The 403 of every quota: `what` says the limit and its variable, `param` the field or resource. */
export function quotaExceeded(what: string, param: string): AppError {
  return new AppError('quota_exceeded', `Quota exceeded for ${what}`, { param });
}
