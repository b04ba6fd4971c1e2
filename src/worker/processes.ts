// WORKER_PROCESSES (docs/design.md, "Contract"): the worker entry point starts that many worker
// processes, each a full worker on both task queues. Temporal spreads the tasks over every
// process polling a queue (and over every machine doing so), so N processes are N times the
// workflow-thread CPU, each with its own workflow cache. This supervisor forks the children,
// gives each its own metrics ports, forwards SIGINT/SIGTERM, and exits non-zero when a child dies
// unexpectedly so that the process manager (compose, Kubernetes, systemd) restarts the whole set.
import { fork, type ChildProcess } from 'node:child_process';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';

/** Set in the children: which one they are (0..N-1). The supervisor never sets it on itself. */
export const WORKER_INDEX_ENV = 'WORKER_PROCESS_INDEX';

/** The env of child `index`: one process each, metrics ports offset by the index. */
export function childEnv(env: Readonly<NodeJS.ProcessEnv>, index: number): NodeJS.ProcessEnv {
  const child: NodeJS.ProcessEnv = { ...env, WORKER_PROCESSES: '1', [WORKER_INDEX_ENV]: String(index) };
  if (env.WORKER_METRICS_PORT) child.WORKER_METRICS_PORT = String(Number(env.WORKER_METRICS_PORT) + index);
  const bind = env.TEMPORAL_METRICS_BIND_ADDRESS && /^(.*):(\d+)$/.exec(env.TEMPORAL_METRICS_BIND_ADDRESS);
  if (bind) child.TEMPORAL_METRICS_BIND_ADDRESS = `${bind[1]}:${Number(bind[2]) + index}`;
  return child;
}

/** Forks `count` copies of this entry point; resolves with a stop function for runMain. */
export function superviseWorkerProcesses(config: Pick<Config, 'WORKER_PROCESSES' | 'environment'>, logger: Logger): () => Promise<void> {
  const count = config.WORKER_PROCESSES;
  const children = new Set<ChildProcess>();
  let stopping = false;
  for (let index = 0; index < count; index += 1) {
    const child = fork(process.argv[1]!, process.argv.slice(2), { env: childEnv(config.environment, index), execArgv: process.execArgv });
    children.add(child);
    child.once('exit', (code, signal) => {
      children.delete(child);
      if (stopping) return;
      logger.fatal({ index, code, signal }, 'worker process exited: stopping the others');
      stopping = true;
      for (const other of children) other.kill('SIGTERM');
      process.exitCode = 1;
    });
  }
  logger.info({ processes: count }, 'worker processes started');
  return async () => {
    stopping = true;
    const exits = [...children].map((child) => new Promise((resolve) => child.once('exit', resolve)));
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(exits);
  };
}
