// A first start of the dev runner (no workflow bundle yet, or an embedded database still to be
// created) is prepared in a child process (prepare.ts): what bundling and PGlite's first
// migrations take in memory leaves with it, so a first start idles like a restart (BENCHMARKS.md).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { databaseTarget } from '../runtime.js';
import { isBundleFresh } from '../worker/bundle.js';

/** True when the bundle is missing or stale, or the PGlite directory holds no database yet. */
export function needsPreparation(config: Config, bundlePath: string): boolean {
  if (!isBundleFresh(bundlePath)) return true;
  const { pgliteDir } = databaseTarget(config);
  return pgliteDir !== undefined && !fs.existsSync(path.join(pgliteDir, 'PG_VERSION'));
}

/** Runs prepare.ts (the same loader and environment as this process) and waits for it. */
export async function prepareInChildProcess(): Promise<void> {
  const here = fileURLToPath(import.meta.url);
  const script = path.join(path.dirname(here), `prepare${path.extname(here)}`);
  const child = spawn(process.execPath, [...process.execArgv, script], { stdio: 'inherit', env: process.env });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`preparing the first start (workflow bundle, database) failed: ${signal ?? `exit code ${code}`}`);
}
