// A failed start releases what it opened and says why: a failing migration closes the ORM (no
// pooled connection left to keep the process alive) and names the database; a bad gateway config
// after the database opened closes it too and names the file and line; the API process itself
// exits 1 with the cause instead of hanging, and never answers /healthz.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migration } from '@mikro-orm/migrations';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { migrationsList } from '../../src/db/migrations/index.js';
import { openDatabase } from '../../src/db/orm.js';
import { entities } from '../../src/orm-entities.js';
import { call } from '../helpers/http.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import { startStack, testEnv } from '../helpers/stack.js';

const baseUrl = inject('databaseUrl');
const scratches: ScratchDatabase[] = [];

async function scratch(prefix: string): Promise<ScratchDatabase> {
  const created = await createScratchDatabase(baseUrl!, prefix);
  scratches.push(created);
  return created;
}

/** Sessions connected to the database, other than the one asking. */
async function connectionsTo(database: ScratchDatabase): Promise<number> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>('select count(*) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database.name]);
    return Number(result.rows[0]!.count);
  } finally {
    await client.end();
  }
}

class Migration20991231000000_fails extends Migration {
  override async up(): Promise<void> {
    this.addSql('select 1 / 0');
  }
}

afterAll(async () => {
  for (const database of scratches) await database.drop();
});

// These count PostgreSQL sessions and start processes on scratch databases: PostgreSQL only. The
// embedded database's failed migration is below.
describe.skipIf(!baseUrl)('a failed start', () => {
  it('closes the ORM when a migration fails and surfaces the error with the database', async () => {
    const database = await scratch('test_failing_migration');
    const failing = [...migrationsList, { name: 'Migration20991231000000_fails', class: Migration20991231000000_fails }];
    const error = (await openDatabase({ databaseUrl: database.url }, { entities, migrations: failing }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/^Database migration failed on PostgreSQL 127\.0\.0\.1:5432\/test_failing_migration_\S+: .*division by zero/);
    expect(await connectionsTo(database)).toBe(0);
    // allOrNothing: the good migrations rolled back with the bad one, so a fixed release starts clean.
    const orm = await openDatabase({ databaseUrl: database.url }, { entities });
    expect((await orm.getMigrator().getExecutedMigrations()).length).toBe(migrationsList.length);
    await orm.close(true);
  });

  it('closes the database when the gateway config is bad, naming the file and line', async () => {
    const database = await scratch('test_bad_gateway_config');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bad-gateway-'));
    const file = path.join(dir, 'gateway.yaml'); // JSON inside: the format comes from the content
    fs.writeFileSync(file, '{\n  "providers": [\n    { "id": "p", "type": "openai", }\n  ]\n}\n');
    const error = (await startStack({ worker: false, env: { DATABASE_URL: database.url, GATEWAY_CONFIG: file } }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain(`Invalid gateway config ${file}:3:`);
    expect(error.message).toContain('not valid JSON');
    expect(await connectionsTo(database)).toBe(0);
  });

  it('the API process exits 1 with the migration error instead of hanging', { timeout: 120_000 }, async () => {
    const database = await scratch('test_api_migration');
    // A table the first migration creates, already there: the migration fails.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('create table "organizations" (x int)');
    await client.end();
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/api/main.ts'], {
      env: { ...process.env, ...testEnv(), DATABASE_URL: database.url, PORT: String(port), HOST: '127.0.0.1', AUTOMATION_RECONCILE_ON_START: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(-1);
      }, 90_000);
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(code, output).toBe(1);
    expect(output).toContain('api failed to start');
    expect(output).toMatch(/Database migration failed on PostgreSQL [\s\S]*Migration20261122000000_identity[\s\S]*relation "organizations" already exists/);
    await expect(call(`http://127.0.0.1:${port}`, 'GET', '/healthz')).rejects.toThrow();
    expect(await connectionsTo(database)).toBe(0);
  });
});

describe('a failed start on the embedded database', () => {
  it('surfaces a failing migration with the database it ran on, and starts clean once it is fixed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'failing-migration-'));
    try {
      const target = { pgliteDir: path.join(dir, 'pglite') };
      const failing = [...migrationsList, { name: 'Migration20991231000000_fails', class: Migration20991231000000_fails }];
      const error = (await openDatabase(target, { entities, migrations: failing }).catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(Error);
      expect(error.message).toMatch(/^Database migration failed on PGlite \S+pglite: .*division by zero/);
      // allOrNothing, and the PGlite directory was released: the fixed release opens it.
      const orm = await openDatabase(target, { entities });
      expect((await orm.getMigrator().getExecutedMigrations()).length).toBe(migrationsList.length);
      await orm.close(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
