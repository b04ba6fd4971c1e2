// The billing endpoints' inputs, parsed at the edge with zod.
import { z } from 'zod';
import { badRequest } from '../errors.js';

/** An ISO 8601 date (`2026-11-01`) or date-time with a zone (`2026-11-01T12:00:00Z`). */
const isoDateOrDateTime = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: 'must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone',
});

export const usageQuery = z.object({
  from: isoDateOrDateTime.optional(),
  to: isoDateOrDateTime.optional(),
  groupBy: z.enum(['model', 'user', 'day', 'key'], { error: 'must be one of model, user, day, key' }).optional(),
});
export type UsageQuery = z.infer<typeof usageQuery>;

export const budgetBody = z.strictObject({
  monthlyCap: z.number({ error: 'must be a non-negative number or null' }).finite().min(0, 'must not be negative').max(1_000_000_000, 'must be at most 1000000000').nullable(),
});

/** Parses `value` or throws 400 bad_request whose `param` names the first bad field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : (issue?.path ?? []);
  const field = path.map(String).join('.');
  const detail = issue?.code === 'unrecognized_keys' ? 'is not an accepted field' : (issue?.message ?? 'is invalid');
  throw badRequest(field ? `${field} ${detail}` : detail, field || null);
}
