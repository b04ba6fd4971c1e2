// Request bodies and parameters of the identity endpoints. Every object is strict: an unknown or
// privileged field (role, organizationId, status...) is a 400, never silently applied.
import { z } from 'zod';
import { badRequest } from '../errors.js';
import { mcpToolPatternsSchema } from './mcp-tool-patterns.js';

export const idParam = z.uuid('must be a valid id');

export const createApiKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  /** Model and tier ids of the gateway config this key may use; absent = every one. */
  models: z.array(z.string().min(1).max(200)).min(1).max(100).optional(),
  /** USD per calendar month (UTC) for this key alone, within the organization's cap. */
  monthlyBudget: z.number().min(0).max(1e9).optional(),
  rateLimitPerMinute: z.number().int().min(1).max(1_000_000).optional(),
  /** Tools the key reaches through /v1/mcp: `<toolId>__<toolName>` or `<toolId>__*`; absent = every tool of its user, [] = none. */
  mcpTools: mcpToolPatternsSchema.optional(),
});

export const inviteUserBody = z.strictObject({
  email: z.email().max(320),
  role: z.enum(['admin', 'member']).default('member'),
});

export const changeRoleBody = z.strictObject({
  role: z.enum(['admin', 'member'], 'must be admin or member (ownership is not assigned here)'),
});

export const changeStatusBody = z.strictObject({
  status: z.enum(['active', 'disabled'], 'must be active or disabled'),
});

export const password = z.string().min(12, 'must be at least 12 characters').max(256);

/** The console's API key sign-in: the key is exchanged for a session (identity/api-key-sign-in.ts). */
export const apiKeySignInBody = z.strictObject({
  apiKey: z.string().min(1).max(256),
});

export const loginBody = z.strictObject({
  email: z.email().max(320),
  password: z.string().min(1).max(256),
  /** Needed only when the email and password open accounts in several organizations. */
  organizationId: z.uuid('must be an organization id').optional(),
});

/** `GET /auth/oidc/login`: an invitation being accepted, or the organization to sign in to. */
export const oidcLoginQuery = z.object({
  invitation: z.string().min(20).max(200).optional(),
  /** `console`: after sign-in, go to the web console (/console/) instead of SIGN_IN_REDIRECT_URL. */
  returnTo: z.enum(['console'], { error: 'must be console' }).optional(),
  organizationId: z.uuid('must be an organization id').optional(),
});

export const acceptInvitationBody = z.strictObject({
  token: z.string().min(20).max(200),
  name: z.string().trim().min(1).max(200),
  password,
});

export const pageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

/** Parses `value` or throws 400 bad_request naming the first bad field (`param`). */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, paramPrefix?: string): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : (issue?.path ?? []);
  const field = [paramPrefix, ...path.map(String)].filter((part) => part !== undefined && part !== '').join('.');
  const detail = issue?.code === 'unrecognized_keys' ? 'is not an accepted field' : (issue?.message ?? 'is invalid');
  throw badRequest(field ? `${field} ${detail}` : detail, field || null);
}
