// First start: when no user exists, create one organization and its owner with an API key
// (BOOTSTRAP_OWNER_API_KEY when given, else a fresh one returned once for the runner to print).
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey, Organization, User } from './entities.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-keys.js';

export interface BootstrapOptions {
  ownerEmail: string;
  organizationName: string;
  ownerApiKey?: string | undefined;
}

export type BootstrapResult =
  | { created: false }
  | { created: true; organizationId: string; ownerId: string; ownerEmail: string; apiKey: string; generated: boolean };

// Any constant: serialises concurrent first starts (two API replicas) on the same database.
const BOOTSTRAP_LOCK = 724_001;

export async function bootstrapOwner(em: EntityManager, options: BootstrapOptions): Promise<BootstrapResult> {
  return em.transactional(async (tx) => {
    await tx.getConnection().execute(`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`, [], 'all', tx.getTransactionContext());
    if ((await tx.count(User, {})) > 0) return { created: false };
    const organization = tx.create(Organization, { name: options.organizationName });
    const owner = tx.create(User, {
      organization,
      email: options.ownerEmail.toLowerCase(),
      name: 'Owner',
      role: 'owner',
      status: 'active',
    });
    const apiKey = options.ownerApiKey ?? generateApiKey();
    tx.create(ApiKey, {
      organization,
      user: owner,
      name: 'bootstrap',
      keyHash: hashApiKey(apiKey),
      prefix: displayPrefix(apiKey),
    });
    await tx.flush();
    return {
      created: true,
      organizationId: organization.id,
      ownerId: owner.id,
      ownerEmail: owner.email,
      apiKey,
      generated: options.ownerApiKey === undefined,
    };
  });
}
