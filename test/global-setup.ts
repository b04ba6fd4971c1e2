// Starts what the whole test run shares, once: a real Temporal dev server (in-memory, search
// attributes registered), the workflow bundle, and a fresh PostgreSQL database migrated from the
// committed migrations (when DATABASE_URL is set; otherwise each stack runs on an in-memory PGlite
// started from one migrated here and dumped, instead of migrating its own).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { dumpPglite, openDatabase } from '../src/db/orm.js';
import { entities } from '../src/orm-entities.js';
import { freePort, startTemporalDevServer } from '../src/dev/temporal-server.js';
import { writeWorkflowBundle } from '../src/worker/bundle.js';
import { createScratchDatabase } from './helpers/scratch-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
    databaseUrl: string | undefined;
    redisUrl: string | undefined;
    /** A migrated PGlite data directory (tarball) each embedded stack starts from; undefined on PostgreSQL. */
    pgliteSnapshot: string | undefined;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const [temporal, bundlePath] = await Promise.all([
    freePort().then((port) => startTemporalDevServer({ port })),
    // Always bundled afresh for this run: a shared, mtime-checked bundle could come from another checkout.
    writeWorkflowBundle(path.join(os.tmpdir(), `ai-workspace-test-${process.pid}`, 'workflow-bundle.js')),
  ]);
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let pgliteSnapshot: string | undefined;
  if (process.env.DATABASE_URL) {
    database = await createScratchDatabase(process.env.DATABASE_URL, 'test');
    const orm = await openDatabase({ databaseUrl: database.url }, { entities });
    await orm.close();
  } else {
    const orm = await openDatabase({ pgliteDir: 'memory://' }, { entities });
    pgliteSnapshot = path.join(path.dirname(bundlePath), 'pglite-migrated.tar');
    await dumpPglite(orm, pgliteSnapshot).finally(() => orm.close(true));
  }
  project.provide('temporalAddress', temporal.address);
  project.provide('workflowBundlePath', bundlePath);
  project.provide('databaseUrl', database?.url);
  project.provide('redisUrl', process.env.REDIS_URL || undefined);
  project.provide('pgliteSnapshot', pgliteSnapshot);
  process.stdout.write(
    `[global-setup] Temporal ${temporal.address}, database ${database ? 'PostgreSQL (fresh)' : 'PGlite (in-memory per stack)'}, ` +
      `Redis ${process.env.REDIS_URL ? 'yes' : 'in-process fallback'}; ready in ${Date.now() - started} ms\n`,
  );
  return async () => {
    await temporal.stop();
    fs.rmSync(path.dirname(bundlePath), { recursive: true, force: true });
    await database?.drop();
  };
}
