// Benchmark: the webhook id lookup on the ack path, before and after it learned to check the
// owner (SECURITY.md, "User lifecycle": webhooks of a disabled or removed owner answer 404). Baseline, measured in the
// same run on the same rows: the former single-table lookup (token hash, not revoked). Measured:
// findActiveWebhook, which also joins the automation or assistant and its owner's status.
// Lookups alternate between the two so machine load affects both alike.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/webhooks/lookup.bench.ts   (LOOKUPS=2000, WEBHOOKS=2000)
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../src/db/orm.js';
import { entities } from '../../src/orm-entities.js';
import { generateWebhookId, hashWebhookId } from '../../src/webhooks/webhook-ids.js';
import { findActiveWebhook } from '../../src/webhooks/webhooks.service.js';
import { createScratchDatabase } from '../../test/helpers/scratch-database.js';

const LOOKUPS = Number(process.env.LOOKUPS ?? 2000);
const WEBHOOKS = Number(process.env.WEBHOOKS ?? 2000);
const BASE_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const scratch = await createScratchDatabase(BASE_DATABASE_URL, 'bench_webhook_lookup');
const orm = await openDatabase({ databaseUrl: scratch.url }, { entities });
try {
  const sql = (text: string, params: unknown[] = []) => orm.em.getConnection().execute(text, params);
  const now = new Date().toISOString();
  const organizationId = randomUUID();
  const userId = randomUUID();
  await sql(`insert into "organizations" ("id", "name", "created_at", "updated_at") values (?, 'bench', ?, ?)`, [organizationId, now, now]);
  await sql(`insert into "users" ("id", "organization_id", "email", "role", "status", "created_at", "updated_at") values (?, ?, 'bench@example.test', 'owner', 'active', ?, ?)`, [userId, organizationId, now, now]);
  const ids: string[] = [];
  for (let i = 0; i < WEBHOOKS; i++) {
    const urlId = generateWebhookId();
    ids.push(urlId);
    const targetId = randomUUID();
    if (i % 2 === 0) {
      await sql(`insert into "assistants" ("id", "organization_id", "created_by", "owner_id", "name", "system_prompt", "model", "created_at", "updated_at") values (?, ?, ?, ?, 'a', 'p', 'standard', ?, ?)`, [targetId, organizationId, userId, userId, now, now]);
    } else {
      await sql(
        `insert into "automations" ("id", "organization_id", "created_by", "owner_id", "name", "system_prompt", "model", "schedule", "timezone", "status", "created_at", "updated_at") values (?, ?, ?, ?, 'n', 'p', 'standard', '0 9 * * *', 'UTC', 'paused', ?, ?)`,
        [targetId, organizationId, userId, userId, now, now],
      );
    }
    await sql(
      `insert into "webhooks" ("id", "organization_id", "assistant_id", "automation_id", "token_hash", "token_encrypted", "token_hint", "created_by", "created_at") values (?, ?, ?, ?, ?, 'x', 'wh_x', ?, ?)`,
      [randomUUID(), organizationId, i % 2 === 0 ? targetId : null, i % 2 === 0 ? null : targetId, hashWebhookId(urlId), userId, now],
    );
  }
  await sql('analyze');

  const baseline = (urlId: string) =>
    orm.em.fork().getConnection().execute('select "id", "organization_id", "assistant_id", "automation_id" from "webhooks" where "token_hash" = ? and "revoked_at" is null limit 1', [hashWebhookId(urlId)]);
  const measured = (urlId: string) => findActiveWebhook(orm.em.fork(), urlId);

  const times = { baseline: [] as number[], measured: [] as number[] };
  for (let i = 0; i < 200; i++) {
    await baseline(ids[i % ids.length]!);
    await measured(ids[i % ids.length]!);
  }
  for (let i = 0; i < LOOKUPS; i++) {
    const urlId = ids[(i * 7919) % ids.length]!;
    const [first, second] = i % 2 === 0 ? (['baseline', 'measured'] as const) : (['measured', 'baseline'] as const);
    for (const which of [first, second]) {
      const start = performance.now();
      const found = await (which === 'baseline' ? baseline(urlId) : measured(urlId));
      times[which].push(performance.now() - start);
      if (!found || (Array.isArray(found) && found.length === 0)) throw new Error(`${which} found no webhook`);
    }
  }
  const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
  const row = (name: string, values: number[]) =>
    `| ${name} | ${values.length} | ${quantile(values, 0.5).toFixed(3)} | ${quantile(values, 0.99).toFixed(3)} | ${(quantile(values, 0.5) / quantile(times.baseline, 0.5)).toFixed(2)} |`;
  console.log(`\nwebhook id lookup, ${new Date().toISOString()}, ${WEBHOOKS} webhooks, load average ${os.loadavg()[0]!.toFixed(1)}`);
  console.log('| lookup | lookups | p50 ms | p99 ms | p50 / baseline |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(row('webhooks only (baseline, before issue 15)', times.baseline));
  console.log(row('findActiveWebhook (+ target and owner status)', times.measured));
} finally {
  await orm.close();
  await scratch.drop();
}
