// An MCP stdio client transport that owns its process group. Connectors are usually launchers
// (npx, uvx) that start the real server as a grandchild; the SDK's StdioClientTransport signals
// only its direct child, which would leave the server running. This transport starts the
// command as the leader of a new process group and, on close, signals the whole group:
// SIGTERM, then SIGKILL after a short grace. stderr is kept in a bounded buffer for diagnostics
// and never forwarded anywhere (it may echo credentials).
import { spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Variables a connector inherits from this process; everything else comes from the catalog and the connection. */
export const INHERITED_ENV_VARS = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'TMPDIR'] as const;

const STDERR_LIMIT_BYTES = 8 * 1024;

export interface ProcessGroupOptions {
  command: string;
  args: string[];
  /** Merged over the inherited minimal environment. */
  env: Record<string, string>;
  cwd?: string;
  /** Time between SIGTERM and SIGKILL of the group on close. */
  killGraceMs?: number;
}

export function minimalEnvironment(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV_VARS) {
    const value = source[name];
    // A value starting with "()" is an exported shell function: never pass those on.
    if (value !== undefined && !value.startsWith('()')) env[name] = value;
  }
  return env;
}

export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** True once the command started (a failed spawn leaves it false). */
  spawned = false;
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private readonly readBuffer = new ReadBuffer();
  private stderrChunks: Buffer[] = [];
  private stderrBytes = 0;

  constructor(private readonly options: ProcessGroupOptions) {}

  /** The process group id (the leader's pid), once started. */
  pid: number | undefined;
  /** How the leader ended, once it has: `exit code 3` or `signal SIGKILL`. */
  exitDescription: string | undefined;

  /** The last few kilobytes the connector wrote to stderr. */
  stderrTail(): string {
    return Buffer.concat(this.stderrChunks).toString('utf8');
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessGroupTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args, {
        env: { ...minimalEnvironment(), ...this.options.env },
        cwd: this.options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        shell: false,
      });
      this.child = child;
      this.pid = child.pid;
      this.exited = new Promise((done) => child.once('close', () => done()));
      child.once('exit', (code, signal) => {
        this.exitDescription = code !== null ? `exit code ${code}` : `signal ${signal}`;
      });
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        this.spawned = true;
        resolve();
      });
      child.once('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stderr?.on('data', (chunk: Buffer) => this.keepStderr(chunk));
      child.stdin?.on('error', (error) => this.onerror?.(error));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (child?.pid !== undefined) {
      child.stdin?.end();
      await this.killGroup(child.pid);
    }
    this.readBuffer.clear();
  }

  private async killGroup(pgid: number): Promise<void> {
    signalGroup(pgid, 'SIGTERM');
    const grace = this.options.killGraceMs ?? 1000;
    const exitedInTime = await Promise.race([
      this.exited!.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), grace).unref()),
    ]);
    // Grandchildren may outlive the leader: SIGKILL the group even when the leader exited.
    signalGroup(pgid, 'SIGKILL');
    if (!exitedInTime) await this.exited;
  }

  private receive(chunk: Buffer): void {
    try {
      this.readBuffer.append(chunk);
    } catch (error) {
      // An oversized message: the stream cannot be resynchronised, so end the session.
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  private keepStderr(chunk: Buffer): void {
    this.stderrChunks.push(chunk);
    this.stderrBytes += chunk.length;
    while (this.stderrBytes > STDERR_LIMIT_BYTES && this.stderrChunks.length > 1) {
      this.stderrBytes -= this.stderrChunks.shift()!.length;
    }
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the whole group is already gone.
  }
}
