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
  /** The keys the API key was created under, nearest first: evicting any of them evicts this caller. */
  apiKeyAncestorIds?: readonly string[];
  sessionId?: string;
  /** The API key's own gateway limits (absent for sessions); cached with the caller. */
  keyLimits?: KeyLimits;
}

/** Per-key gateway controls set at creation (keys are never edited, so a cached copy stays true). */
export interface KeyLimits {
  /** Model and tier ids the key may use; null = every one. */
  models: string[] | null;
  /** USD per month for this key; null = only the organization's cap. */
  monthlyBudget: number | null;
  /** Requests per minute; null = the service default. */
  rateLimitPerMinute: number | null;
  /** Tools the key reaches through /v1/mcp (exact names or `<toolId>__*`); null = every tool of its user. */
  mcpTools?: string[] | null | undefined;
  /**
   * The keys this key was created under (nearest first) that have a budget or a rate of their
   * own: calls with this key count against theirs too, so keys minted from a key share its limits.
   */
  above?: readonly KeyAbove[] | undefined;
}

export interface KeyAbove {
  id: string;
  monthlyBudget: number | null;
  rateLimitPerMinute: number | null;
}

const RANK: Record<Role, number> = { member: 0, admin: 1, owner: 2 };

export function hasRole(caller: Caller, minimum: Role): boolean {
  return RANK[caller.role] >= RANK[minimum];
}
