// The worker process: runs workflows from the pre-bundled code and the activities. With
// WORKER_PROCESSES > 1 it is instead the supervisor of that many worker processes.
import os from 'node:os';
import { reconcileAutomationWorkflowsInBackground } from '../automations/automation-workflows.js';
import { entryPointEnv, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { openRuntime } from '../runtime.js';
import { temporalConnectionOptions } from '../temporal-connection.js';
import { runMain } from '../process-lifecycle.js';
import { DEFAULT_BUNDLE_PATH, ensureWorkflowBundle } from './bundle.js';
import { startMetricsServer } from './metrics-server.js';
import { superviseWorkerProcesses } from './processes.js';
import { startWorker } from './worker.js';

await runMain('worker', async () => {
  const config = loadConfig(entryPointEnv());
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'worker' });
  if (config.WORKER_PROCESSES > 1) {
    // Bundle once here rather than racing N children to write the same file.
    await ensureWorkflowBundle(config.WORKFLOW_BUNDLE_PATH ?? DEFAULT_BUNDLE_PATH);
    return superviseWorkerProcesses(config, logger);
  }
  const index = config.WORKER_PROCESS_INDEX;
  const runtime = await openRuntime(config, logger);
  const bundlePath = await ensureWorkflowBundle(config.WORKFLOW_BUNDLE_PATH ?? DEFAULT_BUNDLE_PATH);
  const worker = await startWorker({
    ...temporalConnectionOptions(config),
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    bundlePath,
    activityDeps: runtime,
    shutdownGraceMs: config.SHUTDOWN_GRACE_SECONDS * 1000,
    metricsBindAddress: config.TEMPORAL_METRICS_BIND_ADDRESS,
    identity: `worker${index === undefined ? '' : `-${index}`}@${os.hostname()}:${process.pid}`,
  });
  const metricsServer =
    config.WORKER_METRICS_PORT === undefined
      ? undefined
      : await startMetricsServer({ port: config.WORKER_METRICS_PORT, host: config.HOST, token: config.METRICS_TOKEN });
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, metricsPort: metricsServer?.port }, 'worker running');
  // One reconciliation per set of processes is enough (each start is idempotent anyway).
  if (!index) reconcileAutomationWorkflowsInBackground(runtime);
  worker.done.catch((error: unknown) => {
    logger.fatal({ err: error }, 'worker stopped unexpectedly');
    process.exit(1);
  });
  return async () => {
    await worker.stop();
    await metricsServer?.close();
    await runtime.close();
  };
});
