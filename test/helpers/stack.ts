// Builds the real stack for one test file: database (the run's PostgreSQL database, or a fresh
// in-memory PGlite), Redis (or the fallback) under a key prefix of its own, a Temporal client and
// worker on a task queue of its own, and the API on port 0. Tests isolate by organization.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { inject } from 'vitest';
import type { ApiServer } from '../../src/api/server.js';
import { startApi } from '../../src/api/server.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import { startWorker, type RunningWorker } from '../../src/worker/worker.js';

export interface StackOptions {
  /** Start a worker on this stack's task queue (default true). */
  worker?: boolean;
  /** Extra environment, as the process would see it. */
  env?: Record<string, string | undefined>;
  clock?: Clock;
  /** Share another stack's task queue and Redis prefix (a second API instance). */
  shareWith?: Stack;
}

export interface Stack {
  config: Config;
  runtime: Runtime;
  api: ApiServer;
  worker: RunningWorker | undefined;
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /** Every log line the stack wrote, for tests that prove secrets never reach the logs. */
  logs: string[];
  stop(): Promise<void>;
}

export function testEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATA_DIR: '/tmp/ai-workspace-test-data',
    DATABASE_URL: inject('databaseUrl'),
    REDIS_URL: inject('redisUrl'),
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    REDIS_KEY_PREFIX: `test:${randomUUID()}:`,
    SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    ...extra,
  };
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const shared = options.shareWith?.config;
  const env = testEnv({
    ...(shared ? { TEMPORAL_TASK_QUEUE: shared.TEMPORAL_TASK_QUEUE, REDIS_KEY_PREFIX: shared.REDIS_KEY_PREFIX } : {}),
    ...options.env,
  });
  const config = loadConfig(env as NodeJS.ProcessEnv);
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  const logger = createLogger({ level: config.LOG_LEVEL, destination });
  const runtime = await openRuntime(config, logger, {
    database: config.DATABASE_URL
      ? { databaseUrl: config.DATABASE_URL, poolMax: 5 }
      // A fresh in-memory PGlite per stack, from the run's migrated one (test/global-setup.ts).
      : { pgliteDir: 'memory://', pgliteSnapshot: inject('pgliteSnapshot') },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const worker = options.worker === false ? undefined : await startStackWorker({ config, runtime });
  const api = await startApi(runtime, { port: 0, host: '127.0.0.1' });
  const stack: Stack = {
    config,
    runtime,
    api,
    worker,
    baseUrl: `${api.url}/v1`,
    logs,
    async stop() {
      await api.stop(2000);
      // The worker running now: a test may have replaced the first one (a restart).
      await stack.worker?.stop();
      await runtime.close();
    },
  };
  return stack;
}

/**
 * A worker on the stack's task queue, as the worker process would start: the stack's first, or
 * the one a test starts after stopping it (assign it to `stack.worker` so `stop()` stops it).
 */
export function startStackWorker(stack: Pick<Stack, 'config' | 'runtime'>): Promise<RunningWorker> {
  return startWorker({
    address: stack.config.TEMPORAL_ADDRESS!,
    namespace: stack.config.TEMPORAL_NAMESPACE,
    taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
    bundlePath: inject('workflowBundlePath'),
    activityDeps: stack.runtime,
  });
}
