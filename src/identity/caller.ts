// The authenticated caller every service receives: who, in which organization, with what role.
import type { Role } from './entities.js';

export interface Caller {
  organizationId: string;
  userId: string;
  email: string;
  role: Role;
  /** How the request authenticated. */
  via: 'api_key' | 'session';
  apiKeyId?: string;
  sessionId?: string;
}

const RANK: Record<Role, number> = { member: 0, admin: 1, owner: 2 };

export function hasRole(caller: Caller, minimum: Role): boolean {
  return RANK[caller.role] >= RANK[minimum];
}
