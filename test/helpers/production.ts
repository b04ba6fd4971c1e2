// The production build as the fault tests and benchmarks run it: `tsc -p tsconfig.build.json` into
// a directory of its own inside the repository (so `node_modules` resolves; gitignored), the JSON
// files copied beside the code as the Dockerfile does, and API and worker processes started from
// it with `node`, each of which can be SIGKILLed and started again on the same settings.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { API_NODE_FLAGS, WORKER_NODE_FLAGS } from '../../src/node-flags.js';
import { waitFor } from './http.js';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Compiles src/ into `.test-build/<name>`; returns that directory (its `api/main.js`,
 * `worker/main.js`). Asynchronous: a test runner's worker keeps answering while tsc runs.
 */
export async function buildProduction(name: string): Promise<string> {
  const outDir = path.join(root, '.test-build', name);
  fs.rmSync(outDir, { recursive: true, force: true });
  await new Promise<void>((resolve, reject) => {
    execFile(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--outDir', outDir], { cwd: root }, (error, stdout, stderr) => {
      if (error) reject(new Error(`tsc failed: ${stdout}${stderr}`, { cause: error }));
      else resolve();
    });
  });
  copyJsonFiles(path.join(root, 'src'), outDir);
  return outDir;
}

function copyJsonFiles(from: string, to: string): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) copyJsonFiles(source, path.join(to, entry.name));
    else if (entry.name.endsWith('.json')) fs.copyFileSync(source, path.join(to, entry.name));
  }
}

export interface ProductionProcess {
  readonly kind: 'api' | 'worker';
  /** Every line it wrote, across restarts. */
  readonly output: string[];
  /** Starts it (again) and waits until it serves: the API's /healthz, the worker's "worker running". */
  start(): Promise<void>;
  /** SIGKILL, and wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (then SIGKILL after 15 s). */
  stop(): Promise<void>;
}

export function productionProcess(buildDir: string, kind: 'api' | 'worker', env: NodeJS.ProcessEnv): ProductionProcess {
  let child: ChildProcess | undefined;
  const output: string[] = [];
  const exited = (process: ChildProcess) => process.exitCode !== null || process.signalCode !== null;
  const waitExit = (process: ChildProcess) => (exited(process) ? Promise.resolve() : new Promise<void>((resolve) => process.once('exit', () => resolve())));
  return {
    kind,
    output,
    async start() {
      const flags = kind === 'api' ? API_NODE_FLAGS : WORKER_NODE_FLAGS;
      const started = spawn(process.execPath, [...flags, path.join(buildDir, kind, 'main.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      const collect = (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean));
      started.stdout!.on('data', collect);
      started.stderr!.on('data', collect);
      const startedAt = output.length;
      await waitFor(async () => {
        if (exited(started)) throw new Error(`the ${kind} process exited:\n${output.slice(startedAt).join('\n')}`);
        if (kind === 'worker') return output.slice(startedAt).some((line) => line.includes('worker running'));
        return (await fetch(`http://127.0.0.1:${env.PORT}/healthz`)).ok;
      }, { timeoutMs: 90_000, intervalMs: 100, what: `the ${kind} process to serve` });
      if (exited(started)) throw new Error(`the ${kind} process exited:\n${output.slice(startedAt).join('\n')}`);
    },
    async kill() {
      if (!child || exited(child)) return;
      const done = waitExit(child);
      child.kill('SIGKILL');
      await done;
    },
    async stop() {
      if (!child || exited(child)) return;
      const done = waitExit(child);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child?.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(timer);
    },
  };
}
