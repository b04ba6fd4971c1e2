// Owner recovery, the operator's way back in: when the organization's owner has no
// working credential (their keys revoked or lost, no password, no OIDC), someone with access to
// the service's database issues a new API key for the owner. It is printed once by
// scripts/owner-recover.ts and only its hash is stored; the audit log records the issuance.
// Nothing here is reachable over HTTP: database access is the proof of authority.
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAuditEvent } from '../audit/audit.service.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-keys.js';
import { ApiKey, User } from './entities.js';

export class RecoveryRefused extends Error {}

export interface RecoveredKey {
  organizationId: string;
  ownerId: string;
  apiKeyId: string;
  /** The raw key: shown once. */
  key: string;
}

export async function issueOwnerRecoveryKey(
  em: EntityManager,
  input: { email: string; organizationId?: string | undefined; now: Date },
): Promise<RecoveredKey> {
  const owners = await em.find(User, {
    email: input.email.toLowerCase(),
    role: 'owner',
    ...(input.organizationId ? { organization: input.organizationId } : {}),
  });
  if (owners.length === 0) throw new RecoveryRefused(`No organization owner has the email ${input.email}${input.organizationId ? ` in organization ${input.organizationId}` : ''}`);
  if (owners.length > 1) {
    throw new RecoveryRefused(`${input.email} owns several organizations (${owners.map((owner) => owner.organization.id).join(', ')}); name one with --organization`);
  }
  const owner = owners[0]!;
  const rawKey = generateApiKey();
  const key = em.create(ApiKey, {
    organization: owner.organization,
    user: owner,
    name: `recovery ${input.now.toISOString()}`,
    keyHash: hashApiKey(rawKey),
    prefix: displayPrefix(rawKey),
    createdAt: input.now,
  });
  // The owner can never be disabled through the API; a database edit could have: recovery restores access.
  owner.status = 'active';
  recordAuditEvent(em, {
    organizationId: owner.organization.id,
    action: 'api_key.recovery_issued',
    target: { type: 'api_key', id: key.id },
    metadata: { ownerId: owner.id, prefix: key.prefix, via: 'operator' },
    at: input.now,
  });
  await em.flush();
  return { organizationId: owner.organization.id, ownerId: owner.id, apiKeyId: key.id, key: rawKey };
}
