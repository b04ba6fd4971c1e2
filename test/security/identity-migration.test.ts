// The run-identity migration on rows written before it (embedded PGlite, the same SQL as on
// PostgreSQL): automations and assistants get their creator as owner; those naming a skill
// without a pin are pinned to the skill's current version (explicit pins are kept); and two
// organizations may then hold users with the same email, but one organization may not twice.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Orm } from '../../src/db/orm.js';
import { entities } from '../../src/orm-entities.js';

const MIGRATION = 'Migration20261125020000_run_identity';
let orm: Orm;
const run = (sql: string, params: unknown[] = []) => orm.em.getConnection().execute(sql, params);

beforeAll(async () => {
  orm = await openDatabase({ pgliteDir: 'memory://' }, { entities });
  // Back to the schema before this migration, to write rows as the previous release did.
  await orm.getMigrator().down({ migrations: [MIGRATION] });
}, 120_000);
afterAll(async () => orm?.close());

describe(MIGRATION, () => {
  it('backfills owners from creators, pins unpinned skills to their current version, scopes email uniqueness per organization', async () => {
    const [orgA, orgB, creator, skill, pinnedAutomation, unpinnedAutomation, plainAutomation, assistant] = Array.from({ length: 8 }, () => randomUUID() as string) as [
      string, string, string, string, string, string, string, string,
    ];
    const now = new Date().toISOString();
    await run(`insert into "organizations" ("id", "name", "created_at", "updated_at") values (?, 'A', ?, ?), (?, 'B', ?, ?)`, [orgA, now, now, orgB, now, now]);
    await run(`insert into "users" ("id", "organization_id", "email", "role", "status", "created_at", "updated_at") values (?, ?, 'same@example.test', 'member', 'active', ?, ?)`, [creator, orgA, now, now]);
    await run(
      `insert into "skills" ("id", "organization_id", "created_by_id", "name", "description", "category", "visibility", "status", "current_version", "created_at", "updated_at")
       values (?, ?, ?, 'S', 'd', 'productivity', 'team', 'draft', 3, ?, ?)`,
      [skill, orgA, creator, now, now],
    );
    const automation = (id: string, skillId: string | null, version: number | null) =>
      run(
        `insert into "automations" ("id", "organization_id", "created_by", "name", "system_prompt", "model", "schedule", "timezone", "status", "skill_id", "skill_version", "created_at", "updated_at")
         values (?, ?, ?, 'n', 'p', 'standard', '0 9 * * *', 'UTC', 'paused', ?, ?, ?, ?)`,
        [id, orgA, creator, skillId, version, now, now],
      );
    await automation(pinnedAutomation, skill, 1);
    await automation(unpinnedAutomation, skill, null);
    await automation(plainAutomation, null, null);
    await run(
      `insert into "assistants" ("id", "organization_id", "created_by", "name", "system_prompt", "model", "skill_id", "created_at", "updated_at")
       values (?, ?, ?, 'a', 'p', 'standard', ?, ?, ?)`,
      [assistant, orgA, creator, skill, now, now],
    );

    await orm.getMigrator().up();

    const automations = await run(`select "id", "owner_id", "skill_version" from "automations" order by "id"`);
    expect(Object.fromEntries(automations.map((row: any) => [row.id, { owner: row.owner_id, version: row.skill_version }]))).toEqual({
      [pinnedAutomation]: { owner: creator, version: 1 },
      [unpinnedAutomation]: { owner: creator, version: 3 },
      [plainAutomation]: { owner: creator, version: null },
    });
    expect(await run(`select "owner_id", "skill_version" from "assistants" where "id" = ?`, [assistant])).toEqual([{ owner_id: creator, skill_version: 3 }]);

    // The same email in another organization is allowed; twice in one is not.
    await run(`insert into "users" ("id", "organization_id", "email", "role", "status", "created_at", "updated_at") values (?, ?, 'same@example.test', 'member', 'invited', ?, ?)`, [randomUUID(), orgB, now, now]);
    await expect(
      run(`insert into "users" ("id", "organization_id", "email", "role", "status", "created_at", "updated_at") values (?, ?, 'same@example.test', 'member', 'invited', ?, ?)`, [randomUUID(), orgA, now, now]),
    ).rejects.toThrow(/unique|duplicate/i);
  });
});
