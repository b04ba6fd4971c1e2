// The principal an automation run or an assistant execution acts as: its owner (`ownerId`), who
// must still be an active user of the organization when the run does anything. A disabled or
// removed owner fails the run with a reason that says what to do, instead of the run acting with
// the account of someone who no longer may.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';

export const OWNER_INACTIVE_MESSAGE = 'The owner of this automation or assistant is disabled or removed; an admin may take ownership to run it again';

/** True when `userId` is an active user of `organizationId` (one indexed lookup, no hydration). */
export async function isActiveMember(em: EntityManager, organizationId: string, userId: string): Promise<boolean> {
  const rows = await em
    .getConnection()
    .execute<{ status: string }[]>('select "status" from "users" where "id" = ? and "organization_id" = ? limit 1', [userId, organizationId]);
  return rows[0]?.status === 'active';
}

/** Throws 403 `forbidden` (permanent for a run) unless the owner is active. */
export async function assertOwnerActive(em: EntityManager, organizationId: string, ownerId: string): Promise<void> {
  if (!(await isActiveMember(em, organizationId, ownerId))) throw new AppError('forbidden', OWNER_INACTIVE_MESSAGE, { param: 'ownerId' });
}
