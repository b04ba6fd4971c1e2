// Row locks on API keys, so that revocation is final. A key created with a key and the
// revocation of that key (or of any key above it) both lock the creating key's line (the key and
// every key above it, `api_key_ancestors`) before they write: either the creation commits first
// and the revocation, whose update reads the keys under the revoked one only after it holds the
// lock, revokes the new key with the rest; or the revocation commits first and the creation finds
// its key revoked. Every writer that locks several keys takes them from the top down (a key
// after every key above it), and before the organization row the quota check locks, so two of
// them never wait on each other in a cycle.
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Locks `keyId` and every key above it (topmost first) until the transaction ends; true when
 * all of them exist and none is revoked. `em` must be inside the transaction that writes.
 */
export async function lockKeyLine(em: EntityManager, keyId: string): Promise<boolean> {
  if (!em.isInTransaction()) throw new Error('lockKeyLine must run inside the transaction that writes');
  const rows = await em.execute<Array<{ id: string; revoked_at: Date | null }>>(
    `select k."id", k."revoked_at" from "api_keys" k
      where k."id" = ? or k."id" in (select "ancestor_id" from "api_key_ancestors" where "key_id" = ?)
      order by coalesce((select a."depth" from "api_key_ancestors" a where a."key_id" = ? and a."ancestor_id" = k."id"), 0) desc
      for update`,
    [keyId, keyId, keyId],
  );
  return rows.some((row) => row.id === keyId) && rows.every((row) => row.revoked_at === null);
}

/** Locks every key of a user, each after the keys above it, before the user's keys are revoked or deleted at once. */
export async function lockKeysOfUser(em: EntityManager, userId: string): Promise<void> {
  if (!em.isInTransaction()) throw new Error('lockKeysOfUser must run inside the transaction that writes');
  await em.execute(
    `select k."id" from "api_keys" k where k."user_id" = ?
      order by (select count(*) from "api_key_ancestors" a where a."key_id" = k."id"), k."id"
      for update`,
    [userId],
  );
}
