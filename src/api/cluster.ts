// WEB_CONCURRENCY: how many API processes serve the port. One Node process runs JavaScript on one
// core, and the gateway is CPU-bound under load, so production runs one per core by default
// (node:cluster: the primary only forks, restarts a process that died, and forwards shutdown;
// the kernel-side listening socket is shared and the primary hands connections out round-robin).
// Development and tests run one. Several processes need shared state: without DATABASE_URL
// (embedded PGlite, one process only) or REDIS_URL (in-process rate limits and budget holds)
// it stays at one, said once in the log.
import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { API_NODE_FLAGS, withNodeFlags } from '../node-flags.js';

/** Set on the processes the primary forks: 0 for the first, which runs the once-per-service chores. */
export const API_PROCESS_INDEX_ENV = 'AIW_API_PROCESS_INDEX';

/** How many API processes to run, and why not more when shared state is missing. */
export function apiProcessCount(config: Pick<Config, 'WEB_CONCURRENCY' | 'NODE_ENV' | 'DATABASE_URL' | 'REDIS_URL'>, cores = os.availableParallelism()): { count: number; limitedBy?: string } {
  const wanted = config.WEB_CONCURRENCY ?? (config.NODE_ENV === 'production' ? cores : 1);
  if (wanted <= 1) return { count: 1 };
  if (!config.DATABASE_URL) return { count: 1, limitedBy: 'DATABASE_URL is not set (embedded PGlite serves one process)' };
  if (!config.REDIS_URL) return { count: 1, limitedBy: 'REDIS_URL is not set (rate limits and budget holds would be per process)' };
  return { count: wanted };
}

/** This process is a forked API process (not the primary, not a single-process API). */
export function isForkedApiProcess(config: Pick<Config, 'AIW_API_PROCESS_INDEX'>): boolean {
  return cluster.isWorker && config.AIW_API_PROCESS_INDEX !== undefined;
}

/** True in the one process that runs once-per-service work (the only one, or the first fork). */
export function isFirstApiProcess(config: Pick<Config, 'AIW_API_PROCESS_INDEX'>): boolean {
  return !isForkedApiProcess(config) || config.AIW_API_PROCESS_INDEX === 0;
}

/**
 * The primary: forks `count` API processes, re-forks one that exits unexpectedly (after a short
 * pause, so a crash loop does not spin), and returns the stop function that asks every process
 * to drain (SIGTERM) and resolves when all have exited.
 */
export function superviseApiProcesses(count: number, logger: Logger): () => Promise<void> {
  let stopping = false;
  // A bare `node dist/api/main.js` still gives its forks the API's young-generation bound.
  cluster.setupPrimary({ execArgv: withNodeFlags(API_NODE_FLAGS) });
  const fork = (index: number): Worker => {
    const worker = cluster.fork({ [API_PROCESS_INDEX_ENV]: String(index) });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      logger.error({ index, code, signal }, 'api process exited; starting another');
      setTimeout(() => fork(index), 1000).unref();
    });
    return worker;
  };
  for (let index = 0; index < count; index++) fork(index);
  logger.info({ processes: count }, 'api processes started (WEB_CONCURRENCY)');
  return async () => {
    stopping = true;
    const running = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && !worker.isDead());
    await Promise.all(
      running.map((worker) => new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.process.kill('SIGTERM');
      })),
    );
  };
}
