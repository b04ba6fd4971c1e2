// Starts the Temporal CLI dev server (`temporal server start-dev`) for the dev runner and the
// tests. Where the server comes from, in order: the CLI from scripts/temporal.sh (`temporal` on
// PATH, else the pinned CLI built once with Go into a versioned cache), else the Temporal SDK's
// download of a dev server (kept in the same cache); when all fail, one error names each reason
// and the ways out. Search attributes are registered at start; SQLite file persistence for the
// dev runner, in-memory for tests.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import type { LocalTestWorkflowEnvironmentOptions } from '@temporalio/testing';
import { searchAttributeArgs, SEARCH_ATTRIBUTES } from '../search-attributes.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const PROVISION_SCRIPT = path.resolve(here, '../../scripts/temporal.sh');

export interface DevServerOptions {
  port: number;
  /** Web UI port; undefined = headless. */
  uiPort?: number | undefined;
  /** SQLite file; undefined = in-memory. */
  dbFile?: string | undefined;
  /** `PRAGMA=VALUE` statements for the SQLite file (`--sqlite-pragma`); default DEV_SERVER_SQLITE_PRAGMAS, [] for SQLite's own. */
  sqlitePragmas?: readonly string[] | undefined;
  namespace?: string;
  /** Remote codec endpoint the Web UI decodes payloads with (the API's /v1/codec). */
  uiCodecEndpoint?: string | undefined;
  /** Dynamic config, e.g. limits raised for benchmarks. */
  dynamicConfig?: Record<string, unknown>;
  onLog?: (line: string) => void;
}

export interface DevServer {
  address: string;
  uiUrl: string | undefined;
  /** The running process's pid, for fault tests that kill it. */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Where a dev server can come from, tried in this order; injectable so tests can check the order without a download. */
export interface DevServerSources {
  /** The Temporal CLI binary: `temporal` on PATH, else the pinned build (built with Go if needed). Rejects when there is none. */
  provisionCli(): Promise<string>;
  startCli(binary: string, options: DevServerOptions): Promise<DevServer>;
  /** The Temporal SDK's download of a dev server (needs the internet). */
  startSdkDownload(options: DevServerOptions): Promise<DevServer>;
  /** Says that the download comes next (it can take a while). */
  notice(message: string): void;
}

export const defaultDevServerSources: DevServerSources = {
  provisionCli: () => provisionTemporalCli(),
  startCli: startWithCli,
  startSdkDownload: (options) => startWithSdkDownload(options),
  notice: (message) => process.stderr.write(`[temporal] ${message}\n`),
};

/** The versioned cache scripts/temporal.sh builds into (same rule as the script). */
export function temporalCliCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TEMPORAL_CLI_CACHE) return env.TEMPORAL_CLI_CACHE;
  const cacheHome = env.XDG_CACHE_HOME || path.join(env.HOME || os.homedir(), '.cache');
  return path.join(cacheHome, 'ai-workspace', 'temporal-cli');
}

/**
 * Path of the Temporal CLI from scripts/temporal.sh, building it if needed. Rejects with the
 * script's reason (what is missing) when there is no CLI. `env` is the script's environment.
 */
export async function provisionTemporalCli(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)('bash', [PROVISION_SCRIPT, 'path'], { env, maxBuffer: 16 << 20, timeout: 30 * 60_000 }));
  } catch (error) {
    throw new Error(scriptReason((error as { stderr?: string }).stderr) ?? (error as Error).message);
  }
  const binary = stdout.trim().split('\n').pop() ?? '';
  if (!binary || !fs.existsSync(binary)) throw new Error(`scripts/temporal.sh printed no usable path (${binary})`);
  return binary;
}

/** The script's own summary (its last `[temporal.sh]` line), not the `go install` output before it. */
function scriptReason(stderr: string | undefined): string | undefined {
  const lines = (stderr ?? '').split('\n').filter((line) => line.startsWith('[temporal.sh] '));
  return lines.at(-1)?.slice('[temporal.sh] '.length);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a dev server from the first source that has one. A CLI that is there but fails to start
 * is an error of its own, not a reason to download another.
 */
export async function startTemporalDevServer(options: DevServerOptions, sources: DevServerSources = defaultDevServerSources): Promise<DevServer> {
  let binary: string;
  try {
    binary = await sources.provisionCli();
  } catch (error) {
    const cliUnavailable = error as Error;
    sources.notice(`${cliUnavailable.message}; starting a dev server through the Temporal SDK's download instead`);
    try {
      return await sources.startSdkDownload(options);
    } catch (downloadError) {
      throw new Error(noDevServerMessage(cliUnavailable, downloadError as Error), { cause: downloadError });
    }
  }
  return sources.startCli(binary, options);
}

function noDevServerMessage(cliUnavailable: Error, downloadFailed: Error): string {
  return [
    'Cannot start a Temporal dev server. Tried, in order:',
    `  1. the Temporal CLI (scripts/temporal.sh): ${cliUnavailable.message}`,
    `  2. the Temporal SDK's download of a dev server: failed (no network?): ${downloadFailed.message}`,
    `Put the Temporal CLI on PATH, install Go >= 1.23 (the pinned CLI is then built once into ${temporalCliCacheRoot()}),`,
    "allow internet access for the SDK's download, or set TEMPORAL_ADDRESS to an existing Temporal server.",
  ].join('\n');
}

async function startWithCli(binary: string, options: DevServerOptions): Promise<DevServer> {
  const namespace = options.namespace ?? 'default';
  const args = [
    'server', 'start-dev',
    '--ip', '127.0.0.1',
    '--port', String(options.port),
    '--namespace', namespace,
    '--log-level', 'warn',
    ...searchAttributeArgs(),
  ];
  if (options.uiPort === undefined) args.push('--headless');
  else args.push('--ui-port', String(options.uiPort), ...uiCodecArgs(options));
  if (options.dbFile) {
    fs.mkdirSync(path.dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
    args.push(...sqlitePragmaArgs(options));
  }
  args.push(...dynamicConfigArgs(options));
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], env: devServerEnv(process.env) });
  const recent: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      recent.push(line);
      if (recent.length > 30) recent.shift();
      options.onLog?.(line);
    }
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const address = `127.0.0.1:${options.port}`;
  await waitUntilServing(address, namespace, child, () => recent.join('\n'));
  return {
    address,
    uiUrl: options.uiPort === undefined ? undefined : `http://localhost:${options.uiPort}`,
    pid: child.pid,
    stop: () => stopChild(child),
  };
}

async function waitUntilServing(address: string, namespace: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? -1;
  });
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (exited !== null) {
      throw new Error(`temporal server start-dev exited with code ${exited}:\n${output()}`);
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: '1s' });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`Temporal dev server at ${address} not ready after 60 s: ${(lastError as Error)?.message}\n${output()}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** The options of the SDK's dev server: the same server settings, the download kept in the CLI cache. */
export function sdkDownloadOptions(options: DevServerOptions, env: NodeJS.ProcessEnv = process.env): LocalTestWorkflowEnvironmentOptions {
  return {
    server: {
      executable: { type: 'cached-download', downloadDir: path.join(temporalCliCacheRoot(env), 'sdk-download') },
      ip: '127.0.0.1',
      port: options.port,
      namespace: options.namespace ?? 'default',
      ui: options.uiPort !== undefined,
      ...(options.uiPort !== undefined ? { uiPort: options.uiPort } : {}),
      ...(options.dbFile ? { dbFilename: options.dbFile } : {}),
      searchAttributes: Object.values(SEARCH_ATTRIBUTES),
      extraArgs: [...dynamicConfigArgs(options), ...sqlitePragmaArgs(options), ...(options.uiPort !== undefined ? uiCodecArgs(options) : [])],
    },
  };
}

function sqlitePragmaArgs(options: DevServerOptions): string[] {
  return options.dbFile ? (options.sqlitePragmas ?? DEV_SERVER_SQLITE_PRAGMAS).flatMap((pragma) => ['--sqlite-pragma', pragma]) : [];
}

function uiCodecArgs(options: DevServerOptions): string[] {
  return options.uiCodecEndpoint ? ['--ui-codec-endpoint', options.uiCodecEndpoint] : [];
}

/**
 * The dev server's SQLite file in write-ahead-log mode, synced at checkpoints rather than at every
 * commit: what a development machine wants. With SQLite's defaults (a rollback journal, a sync
 * per commit) and 10,000 closed workflows in the file, the server spent twice the CPU per fire of
 * a burst (64.9 ms against 31.5 ms) and four times as long to run workflows (1,040 s against 249 s
 * for 10,000; BENCHMARKS.md). A killed process loses nothing; a power cut may lose the last
 * commits, never the file.
 */
export const DEV_SERVER_SQLITE_PRAGMAS: readonly string[] = ['journal_mode=wal', 'synchronous=normal'];

/**
 * Dynamic config every dev server we start gets (the caller's `dynamicConfig` wins): settings for
 * one server with one worker per queue, measured with bench/automations (BENCHMARKS.md):
 * - one partition per task queue (the default four suit many workers polling one queue; with one
 *   worker a task on a partition nobody polls is forwarded to the root partition, more work for
 *   the server per task);
 * - eager activity execution: an activity a workflow task schedules on the worker's own queue
 *   comes back in the answer to that task's completion, instead of a trip through matching;
 * - the search attributes' cache is not reloaded from the database at every read (the CLI turns
 *   that on so that attributes added while it runs apply at once; ours are registered at start:
 *   a perf profile of a burst of fires showed the reloads at 6% of the server's CPU).
 * A production cluster sets what applies in its own dynamic config (docs/operations.md, "The
 * Temporal dev server").
 */
export const DEV_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, unknown>> = {
  'matching.numTaskqueueReadPartitions': 1,
  'matching.numTaskqueueWritePartitions': 1,
  'system.enableActivityEagerExecution': true,
  'system.forceSearchAttributesCacheRefreshOnRead': false,
};

/**
 * The dev server's environment: Go's collector runs at a quarter of its default frequency
 * (GOGC=400, unless the environment sets GOGC). In a perf profile of a burst of fires the Go
 * runtime took a third of the server's CPU, a third of that marking the heap; at 400 the server
 * used ~10% less CPU per fire (bench/automations, BENCHMARKS.md) for a larger heap.
 */
export function devServerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, GOGC: env.GOGC ?? '400' };
}

function dynamicConfigArgs(options: DevServerOptions): string[] {
  return Object.entries({ ...DEV_SERVER_DYNAMIC_CONFIG, ...options.dynamicConfig }).flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${JSON.stringify(value)}`]);
}

/** Last resort: the SDK downloads a CLI build (needs the internet) and runs its dev server. */
async function startWithSdkDownload(options: DevServerOptions): Promise<DevServer> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  if (options.dbFile) fs.mkdirSync(path.dirname(options.dbFile), { recursive: true });
  const env = await TestWorkflowEnvironment.createLocal(sdkDownloadOptions(options));
  return {
    address: `127.0.0.1:${options.port}`,
    uiUrl: options.uiPort === undefined ? undefined : `http://localhost:${options.uiPort}`,
    pid: undefined,
    stop: () => env.teardown(),
  };
}
