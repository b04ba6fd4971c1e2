// Row locks on API keys, so that revocation is final. A key created with a key and the
// revocation of that key (or of any key above it) both lock the creating key's line (the key and
// every key above it, `api_key_ancestors`) before they write: either the creation commits first
// and the revocation, whose update reads the keys under the revoked one only after it holds the
// lock, revokes the new key with the rest; or the revocation commits first and the creation finds
// its key revoked. Every writer that locks several keys takes them from the top down (a key
// after every key above it), and before the organization row the quota check locks, so two of
// them never wait on each other in a cycle. A user's row comes before their keys: a creation
// holds it (shared) from its start, a disable or removal changes it first, so a key created in a
// session while its user is disabled is either committed before the disable revokes the user's
// keys or refused (the same order as a key's revocation, for creations without a key).
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
export async function lockKeysOfUser(em: EntityManager, userId: string): Promise<string[]> {
  if (!em.isInTransaction()) throw new Error('lockKeysOfUser must run inside the transaction that writes');
  const rows = await em.execute<Array<{ id: string }>>(
    `select k."id" from "api_keys" k where k."user_id" = ?
      order by (select count(*) from "api_key_ancestors" a where a."key_id" = k."id"), k."id"
      for update`,
    [userId],
  );
  return rows.map((row) => row.id);
}

/**
 * Holds the user's row against a status change (shared) until the transaction ends; true while
 * the user is active. A writer that creates a key takes it before any key's lock.
 */
export async function lockActiveUser(em: EntityManager, userId: string): Promise<boolean> {
  if (!em.isInTransaction()) throw new Error('lockActiveUser must run inside the transaction that writes');
  const rows = await em.execute<Array<{ status: string }>>(`select "status" from "users" where "id" = ? for share`, [userId]);
  return rows[0]?.status === 'active';
}

/** Locks the user's row before their sessions, keys and row go (a removal), after any creation holding it. */
export async function lockUser(em: EntityManager, userId: string): Promise<void> {
  if (!em.isInTransaction()) throw new Error('lockUser must run inside the transaction that writes');
  await em.execute(`select "id" from "users" where "id" = ? for update`, [userId]);
}
