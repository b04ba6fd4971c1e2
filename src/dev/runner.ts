// The dev runner: the whole service in one command on embedded defaults. Starts the Temporal
// dev server (unless TEMPORAL_ADDRESS is set) with its Web UI and a SQLite file under DATA_DIR,
// then the worker and the API in this process (so they share PGlite when DATABASE_URL is unset),
// and prints where everything is. A first start writes the workflow bundle and creates the
// database in a child process first (first-start.ts), so this process idles as after a restart.
// The Web UI decodes the (encrypted) payloads through the API's codec server, /v1/codec.
// SIGINT/SIGTERM stops all of it cleanly.
import os from 'node:os';
import path from 'node:path';
import { startApi } from '../api/server.js';
import { reconcileAutomationWorkflowsInBackground } from '../automations/automation-workflows.js';
import { loadConfig } from '../config.js';
import { bootstrapOnFirstStart } from '../identity/announce.js';
import { createLogger } from '../logger.js';
import { describeDatabase } from '../db/orm.js';
import { databaseTarget, openRuntime } from '../runtime.js';
import { temporalConnectionOptions } from '../temporal-connection.js';
import { DEFAULT_BUNDLE_PATH, ensureWorkflowBundle } from '../worker/bundle.js';
import { startWorker } from '../worker/worker.js';
import { runMain } from '../process-lifecycle.js';
import { retentionSettingsOf, startRetentionSweeps } from '../retention/retention.js';
import { needsPreparation, prepareInChildProcess } from './first-start.js';
import { startTemporalDevServer, type DevServer } from './temporal-server.js';

await runMain('dev', async () => {
  // One process for everything: runs share the main task queue (one SDK worker and workflow
  // thread instead of two, ~70 MB less) unless TEMPORAL_RUNS_TASK_QUEUE says otherwise.
  const loaded = loadConfig();
  const config = { ...loaded, TEMPORAL_RUNS_TASK_QUEUE: loaded.TEMPORAL_RUNS_TASK_QUEUE ?? loaded.TEMPORAL_TASK_QUEUE };
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'dev' });
  const bundlePath = config.WORKFLOW_BUNDLE_PATH ?? DEFAULT_BUNDLE_PATH;
  if (needsPreparation(config, bundlePath)) {
    logger.info('first start: writing the workflow bundle and creating the database in a child process');
    await prepareInChildProcess();
  }
  let temporalServer: DevServer | undefined;
  const codecEndpoint = `${config.publicBaseUrl}/codec`;
  if (!config.TEMPORAL_ADDRESS) {
    logger.info({ port: config.TEMPORAL_PORT, uiPort: config.TEMPORAL_UI_PORT }, 'starting Temporal dev server');
    temporalServer = await startTemporalDevServer({
      port: config.TEMPORAL_PORT,
      uiPort: config.TEMPORAL_UI_PORT,
      dbFile: path.join(config.dataDir, 'temporal.sqlite'),
      namespace: config.TEMPORAL_NAMESPACE,
      uiCodecEndpoint: codecEndpoint,
    });
  }
  try {
    await ensureWorkflowBundle(bundlePath);
    const runtime = await openRuntime(config, logger);
    const bootstrap = await bootstrapOnFirstStart(runtime.orm, config, logger);
    const worker = await startWorker({
      ...(temporalServer ? { address: temporalServer.address } : temporalConnectionOptions(config)),
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      bundlePath,
      activityDeps: runtime,
      shutdownGraceMs: config.SHUTDOWN_GRACE_SECONDS * 1000,
      metricsBindAddress: config.TEMPORAL_METRICS_BIND_ADDRESS,
      identity: `dev-worker@${os.hostname()}:${process.pid}`,
    });
    const api = await startApi(runtime, { port: config.PORT, host: config.HOST });
    reconcileAutomationWorkflowsInBackground(runtime);
    const retention = startRetentionSweeps({ ...runtime, settings: retentionSettingsOf(config) });

    const lines = [
      '',
      'AI workspace is running',
      `  API base URL      ${config.publicBaseUrl}`,
      `  Web console       ${new URL('/console/', config.publicBaseUrl).href}   (sign in with the owner API key below)`,
      `  Health            http://localhost:${api.port}/readyz`,
      `  Temporal Web UI   ${temporalServer?.uiUrl ?? '(external Temporal at ' + config.TEMPORAL_ADDRESS + ')'}`,
      `  Temporal address  ${temporalServer?.address ?? config.TEMPORAL_ADDRESS}`,
      `  Codec server      ${codecEndpoint}   (the Web UI decodes payloads here: sign in, docs/operations.md, "Reading runs in the Web UI")`,
      `  Database          ${describeDatabase(databaseTarget(config))}`,
      `  Redis             ${config.REDIS_URL ? 'REDIS_URL' : 'in-process fallback (single instance)'}`,
      `  Data directory    ${config.dataDir}`,
    ];
    if (bootstrap.created && bootstrap.generated) {
      lines.push(`  Owner API key     ${bootstrap.apiKey}   (${bootstrap.ownerEmail}; shown only on this first start)`);
    } else if (bootstrap.created) {
      lines.push(`  Owner API key     BOOTSTRAP_OWNER_API_KEY registered for ${bootstrap.ownerEmail}`);
    } else {
      lines.push('  Owner API key     created on the first start (keys are stored hashed; create more with POST /v1/api-keys)');
    }
    lines.push(`  Try               curl -H "Authorization: Bearer <key>" -X POST ${config.publicBaseUrl}/diagnostics/workflow`, '');
    process.stdout.write(lines.join('\n') + '\n');

    worker.done.catch((error: unknown) => logger.fatal({ err: error }, 'worker stopped unexpectedly'));
    return async () => {
      await retention.stop();
      logger.info('stopping');
      await api.stop();
      await worker.stop();
      await runtime.close();
      await temporalServer?.stop();
    };
  } catch (error) {
    await temporalServer?.stop();
    throw error;
  }
});
