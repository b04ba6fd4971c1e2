// Request shapes of the approvals API (zod 4); errors name the field.
import { z } from 'zod';
import { APPROVAL_STATUSES } from '../approval-policy/entities.js';

const queryInteger = (fallback: number) =>
  z.string().regex(/^\d+$/, 'an integer').optional().transform((value) => (value === undefined ? fallback : Number(value)));

export const listApprovalsQuery = z.object({
  status: z.enum(APPROVAL_STATUSES, { error: `must be one of ${APPROVAL_STATUSES.join(', ')}` }).optional(),
  automationId: z.uuid('must be an automation id (UUID)').optional(),
  assistantId: z.uuid('must be an assistant id (UUID)').optional(),
  limit: queryInteger(20).pipe(z.number().int().min(1).max(100)),
  offset: queryInteger(0).pipe(z.number().int().min(0)),
});
export type ListApprovalsQuery = z.infer<typeof listApprovalsQuery>;

export const approveBody = z.strictObject({
  /** Make this tool `never` for the automation (or assistant) from now on: its owner only. */
  remember: z.boolean().optional(),
});

export const denyBody = z.strictObject({
  /** Why, handed to the model with the refusal. */
  reason: z.string().trim().min(1).max(1000).optional(),
});

export const approvalIdSchema = z.uuid();
