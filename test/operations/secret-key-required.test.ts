// The API and worker entry points refuse to start without SECRET_KEY (or with a malformed one)
// outside development: NODE_ENV unset counts as production there, as in the built image. A
// generated key would live in DATA_DIR, which a container loses, and every stored secret and
// encrypted Temporal payload with it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function startEntry(entry: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['NODE_ENV', 'SECRET_KEY', 'SECRET_KEY_PREVIOUS'].includes(name)));
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => child.once('exit', (code) => {
    clearTimeout(killer);
    resolve({ code, output });
  }));
}

describe('production entry points', () => {
  for (const entry of ['src/api/main.ts', 'src/worker/main.ts']) {
    it(`${entry} exits naming SECRET_KEY when it is missing, and writes no generated key`, async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-key-required-'));
      const { code, output } = await startEntry(entry, { DATA_DIR: dataDir, TEMPORAL_ADDRESS: '127.0.0.1:1' });
      expect(code).toBe(1);
      expect(output).toMatch(/SECRET_KEY: required in production/);
      expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
    }, 90_000);

    it(`${entry} exits naming SECRET_KEY when it is malformed`, async () => {
      const { code, output } = await startEntry(entry, { SECRET_KEY: 'too-short', TEMPORAL_ADDRESS: '127.0.0.1:1' });
      expect(code).toBe(1);
      expect(output).toMatch(/Invalid environment variable SECRET_KEY/);
    }, 90_000);
  }
});
