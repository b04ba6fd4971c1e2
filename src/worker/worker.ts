// Creates the Temporal worker: the pre-bundled workflows plus the activities built from their
// dependencies. Used by the worker process, the dev runner and the tests.
import { NativeConnection, Runtime, Worker, makeTelemetryFilterString, type LogLevel, type LogMetadata } from '@temporalio/worker';
import type { Logger } from '../logger.js';
import { createActivities } from '../activities/index.js';
import type { AppDeps } from '../runtime-deps.js';
import { workerTracingOptions } from '../telemetry/temporal-tracing.js';

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  bundlePath: string;
  activityDeps: AppDeps;
  identity?: string;
  /** How long running activities get to finish when the worker stops (default 10 s). */
  shutdownGraceMs?: number;
  /** `host:port` for the Temporal SDK's Prometheus exporter; only the first worker of a process sets it. */
  metricsBindAddress?: string | undefined;
}

export interface RunningWorker {
  worker: Worker;
  connection: NativeConnection;
  /** Resolves when the worker stopped; rejects if it crashed. */
  done: Promise<void>;
  /** Drains: stops polling, lets running activities finish, then closes the connection. */
  stop(): Promise<void>;
}

let runtimeInstalled = false;

/**
 * Routes the SDK's own logs (WARN and above) into our JSON logger and, with a bind address,
 * serves the SDK's metrics (task latencies, slots, pollers, ...) for Prometheus; once per process.
 */
export function installWorkerRuntime(logger: Logger, metricsBindAddress?: string): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const sdkLogger = logger.child({ component: 'temporal-sdk' });
  const levels: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
    TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error',
  };
  const log = (level: LogLevel, message: string, meta?: LogMetadata) => sdkLogger[levels[level]](meta ?? {}, message);
  Runtime.install({
    logger: {
      log,
      trace: (m, meta) => log('TRACE', m, meta),
      debug: (m, meta) => log('DEBUG', m, meta),
      info: (m, meta) => log('INFO', m, meta),
      warn: (m, meta) => log('WARN', m, meta),
      error: (m, meta) => log('ERROR', m, meta),
    },
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} },
      ...(metricsBindAddress ? { metrics: { prometheus: { bindAddress: metricsBindAddress } } } : {}),
    },
  });
  if (metricsBindAddress) logger.info({ bindAddress: metricsBindAddress }, 'Temporal SDK metrics served for Prometheus');
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  installWorkerRuntime(options.activityDeps.logger, options.metricsBindAddress);
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle: { codePath: options.bundlePath },
    activities: createActivities(options.activityDeps),
    ...(options.identity ? { identity: options.identity } : {}),
    ...capacity(options.activityDeps.config),
    shutdownGraceTime: options.shutdownGraceMs ?? 10_000,
    ...(await workerTracingOptions()),
  });
  const done = worker.run();
  return {
    worker,
    connection,
    done,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done.catch(() => undefined);
      await connection.close();
    },
  };
}

/** The worker's capacity settings: the sticky queue timeout, and the configured limits (else the SDK's). */
export function capacity(config: Pick<AppDeps['config'], 'WORKER_MAX_CACHED_WORKFLOWS' | 'WORKER_MAX_CONCURRENT_ACTIVITIES' | 'WORKER_MAX_CONCURRENT_WORKFLOW_TASKS' | 'WORKER_STICKY_QUEUE_TIMEOUT_SECONDS'>): {
  stickyQueueScheduleToStartTimeout: number;
  maxCachedWorkflows?: number;
  maxConcurrentActivityTaskExecutions?: number;
  maxConcurrentWorkflowTaskExecutions?: number;
} {
  return {
    stickyQueueScheduleToStartTimeout: config.WORKER_STICKY_QUEUE_TIMEOUT_SECONDS * 1000,
    ...(config.WORKER_MAX_CACHED_WORKFLOWS !== undefined ? { maxCachedWorkflows: config.WORKER_MAX_CACHED_WORKFLOWS } : {}),
    ...(config.WORKER_MAX_CONCURRENT_ACTIVITIES !== undefined ? { maxConcurrentActivityTaskExecutions: config.WORKER_MAX_CONCURRENT_ACTIVITIES } : {}),
    ...(config.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS !== undefined ? { maxConcurrentWorkflowTaskExecutions: config.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS } : {}),
  };
}
