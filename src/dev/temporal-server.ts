// Starts the Temporal CLI dev server (`temporal server start-dev`) for the dev runner and the
// tests: the binary from scripts/temporal.sh (PATH, else built once with Go into a versioned
// cache), else the SDK's ephemeral-server download. Search attributes are registered at start;
// SQLite file persistence for the dev runner, in-memory for tests.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { searchAttributeArgs, SEARCH_ATTRIBUTES } from '../search-attributes.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const PROVISION_SCRIPT = path.resolve(here, '../../scripts/temporal.sh');

export interface DevServerOptions {
  port: number;
  /** Web UI port; undefined = headless. */
  uiPort?: number | undefined;
  /** SQLite file; undefined = in-memory. */
  dbFile?: string | undefined;
  namespace?: string;
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

/** Path of the Temporal CLI, provisioning it if needed. Rejects with the script's reason. */
export async function provisionTemporalCli(): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)('bash', [PROVISION_SCRIPT, 'path'], {
      maxBuffer: 1 << 20,
      timeout: 30 * 60_000,
    });
    const binary = stdout.trim().split('\n').pop() ?? '';
    if (!binary || !fs.existsSync(binary)) throw new Error(`scripts/temporal.sh printed no usable path (${binary})`);
    return binary;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`Temporal CLI unavailable: ${stderr || (error as Error).message}`);
  }
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

export async function startTemporalDevServer(options: DevServerOptions): Promise<DevServer> {
  let binary: string;
  try {
    binary = await provisionTemporalCli();
  } catch (error) {
    return startWithSdkDownload(options, error as Error);
  }
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
  else args.push('--ui-port', String(options.uiPort));
  if (options.dbFile) {
    fs.mkdirSync(path.dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
  }
  for (const [key, value] of Object.entries(options.dynamicConfig ?? {})) {
    args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  }
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Last resort: the SDK downloads a CLI build (needs the internet). */
async function startWithSdkDownload(options: DevServerOptions, reason: Error): Promise<DevServer> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  try {
    const env = await TestWorkflowEnvironment.createLocal({
      server: {
        ip: '127.0.0.1',
        port: options.port,
        namespace: options.namespace ?? 'default',
        ui: options.uiPort !== undefined,
        ...(options.uiPort !== undefined ? { uiPort: options.uiPort } : {}),
        ...(options.dbFile ? { dbFilename: options.dbFile } : {}),
        searchAttributes: Object.values(SEARCH_ATTRIBUTES),
      },
    });
    return {
      address: `127.0.0.1:${options.port}`,
      uiUrl: options.uiPort === undefined ? undefined : `http://localhost:${options.uiPort}`,
      pid: undefined,
      stop: () => env.teardown(),
    };
  } catch (downloadError) {
    throw new Error(
      `Cannot start a Temporal dev server.\n- ${reason.message}\n- SDK download failed too (no network?): ${(downloadError as Error).message}\n` +
        'Install the Temporal CLI on PATH, install Go so scripts/temporal.sh can build it, or set TEMPORAL_ADDRESS to an existing server.',
    );
  }
}
