// How a stdio connector process is confined (SECURITY.md, "Connectors"): a `network: none`
// connector runs in its own network namespace (`unshare -rn`: an unprivileged user namespace
// with only a loopback device that is down), every connector gets a memory limit (V8's heap
// limit for node and npx, the address-space limit through prlimit for anything else) and a CPU
// time limit, and at most TOOLS_MAX_PROCESSES run at once in one process; the session deadline
// kills the whole process group. Where a tool is missing the connector still runs, and the
// service logs a warning once.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.js';

export interface SandboxOptions {
  network: 'none' | 'egress';
  memoryMb: number;
  /** CPU seconds before the kernel stops the process; the wall-clock deadline is the session's. */
  cpuSeconds: number;
  logger?: Pick<Logger, 'warn'>;
}

export interface Command {
  command: string;
  args: string[];
  env: Record<string, string>;
}

const NODE_COMMANDS = new Set(['node', 'nodejs', 'npx', 'npm']);

let tools: { unshare: boolean; prlimit: boolean } | undefined;
const warned = new Set<string>();

/** Whether `unshare -rn` and `prlimit` work on this host (checked once per process). */
export function sandboxTools(): { unshare: boolean; prlimit: boolean } {
  tools ??= {
    unshare: process.platform === 'linux' && spawnSync('unshare', ['-rn', 'true'], { stdio: 'ignore', timeout: 5000 }).status === 0,
    prlimit: process.platform === 'linux' && spawnSync('prlimit', ['--cpu=1', 'true'], { stdio: 'ignore', timeout: 5000 }).status === 0,
  };
  return tools;
}

/** The command line that runs `command` confined. */
export function sandboxCommand(target: Command, options: SandboxOptions): Command {
  // A command that does not exist must fail to spawn (stage "start"), not inside the wrapper.
  if (!isExecutable(target.command, target.env.PATH ?? process.env.PATH ?? '')) return target;
  const available = sandboxTools();
  const isNode = NODE_COMMANDS.has(path.basename(target.command)) || target.command === process.execPath;
  const env = { ...target.env };
  if (isNode) {
    // RLIMIT_AS breaks V8 (it reserves far more address space than it uses): cap the heap instead.
    env.NODE_OPTIONS = [env.NODE_OPTIONS, `--max-old-space-size=${options.memoryMb}`].filter(Boolean).join(' ');
  }
  let prefix: string[] = [];
  if (available.prlimit) {
    prefix = ['prlimit', `--cpu=${options.cpuSeconds}`, ...(isNode ? [] : [`--as=${options.memoryMb * 1024 * 1024}`]), '--'];
  } else {
    warnOnce(options.logger, 'prlimit', 'prlimit is not available: connector processes run without a memory or CPU limit');
  }
  if (options.network === 'none') {
    if (available.unshare) prefix = ['unshare', '-rn', '--', ...prefix];
    else warnOnce(options.logger, 'unshare', 'unshare -rn is not available: network "none" connectors run with the host network');
    // No registry to ask from inside the namespace: launchers use what they have cached.
    env.npm_config_prefer_offline = 'true';
    env.UV_OFFLINE = '1';
  }
  if (prefix.length === 0) return { ...target, env };
  return { command: prefix[0]!, args: [...prefix.slice(1), target.command, ...target.args], env };
}

function isExecutable(command: string, searchPath: string): boolean {
  const candidates = command.includes('/') ? [command] : searchPath.split(':').filter(Boolean).map((dir) => path.join(dir, command));
  return candidates.some((candidate) => {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return fs.statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

function warnOnce(logger: Pick<Logger, 'warn'> | undefined, key: string, message: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  logger?.warn({}, message);
}

/**
 * Connector processes running at once in this process. Beyond the limit a start waits in a
 * FIFO queue (at most four times the limit long) until its session deadline; a full queue or a
 * passed deadline fails the start at once with a message naming TOOLS_MAX_PROCESSES.
 */
export class ProcessSlots {
  private running = 0;
  private readonly waiting: { grant: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(readonly limit: number) {}

  get inUse(): number {
    return this.running;
  }

  async acquire(deadline: number): Promise<() => void> {
    if (this.running < this.limit && this.waiting.length === 0) return this.take();
    if (this.waiting.length >= this.limit * 4) throw new SlotUnavailable(this.limit, 'the queue of waiting connectors is full');
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        grant: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(new SlotUnavailable(this.limit, 'no process slot freed up before the deadline'));
        }, Math.max(0, deadline - Date.now())),
      };
      this.waiting.push(waiter);
    });
    // The releasing session handed its slot over: `running` already counts this one.
    return this.releaser();
  }

  private take(): () => void {
    this.running += 1;
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next.grant();
      else this.running -= 1;
    };
  }
}

export class SlotUnavailable extends Error {
  constructor(limit: number, why: string) {
    super(`too many connector processes on this server (TOOLS_MAX_PROCESSES=${limit}): ${why}; retry later`);
    this.name = 'SlotUnavailable';
  }
}

const slotsByLimit = new Map<number, ProcessSlots>();

/** The process-wide slots for this limit. */
export function processSlots(limit: number): ProcessSlots {
  let slots = slotsByLimit.get(limit);
  if (!slots) {
    slots = new ProcessSlots(limit);
    slotsByLimit.set(limit, slots);
  }
  return slots;
}
