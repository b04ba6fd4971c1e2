// The API process: serves HTTP on PORT. Runs migrations and the first-start bootstrap. With
// WEB_CONCURRENCY above 1 (production default: one per core) this process becomes the primary
// of a node:cluster: it migrates and bootstraps once, then forks the API processes (cluster.ts).
import cluster from 'node:cluster';
import { entryPointEnv, loadConfig } from '../config.js';
import { resolveSecretKey } from '../crypto/secrets.js';
import { openDatabase } from '../db/orm.js';
import { entities } from '../orm-entities.js';
import { bootstrapOnFirstStart } from '../identity/announce.js';
import { createLogger } from '../logger.js';
import { runMain } from '../process-lifecycle.js';
import { apiProcessCount, isFirstApiProcess, isForkedApiProcess, superviseApiProcesses } from './cluster.js';

await runMain('api', async () => {
  const config = loadConfig(entryPointEnv());
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'api' });
  const processes = apiProcessCount(config);
  if (processes.limitedBy) logger.warn({ reason: processes.limitedBy }, 'WEB_CONCURRENCY: running one API process');

  if (cluster.isPrimary && processes.count > 1) {
    // A production start without SECRET_KEY stops here, not in a loop of forks that each exit.
    resolveSecretKey(config, logger);
    // Once, before the forks open the database: they would race each other to migrate.
    // Several processes only run on PostgreSQL (apiProcessCount).
    const orm = await openDatabase({ databaseUrl: config.DATABASE_URL! }, { entities, logger });
    announceBootstrap(await bootstrapOnFirstStart(orm, config, logger));
    await orm.close();
    return superviseApiProcesses(processes.count, logger);
  }

  // Loaded here, not at the top: the primary never serves requests and stays small without them.
  const [{ openRuntime }, { startApi }, { reconcileAutomationWorkflowsInBackground }, { retentionSettingsOf, startRetentionSweeps }] = await Promise.all([
    import('../runtime.js'),
    import('./server.js'),
    import('../automations/automation-workflows.js'),
    import('../retention/retention.js'),
  ]);
  const runtime = await openRuntime(config, logger);
  if (!isForkedApiProcess(config)) announceBootstrap(await bootstrapOnFirstStart(runtime.orm, config, logger));
  const api = await startApi(runtime, { port: config.PORT, host: config.HOST });
  if (isFirstApiProcess(config)) reconcileAutomationWorkflowsInBackground(runtime);
  // One sweeper per host is enough; sweepers of several hosts delete disjoint rows (retention.ts).
  const retention = isFirstApiProcess(config) ? startRetentionSweeps({ ...runtime, settings: retentionSettingsOf(config) }) : undefined;
  return async () => {
    await retention?.stop();
    await api.stop();
    await runtime.close();
  };
});

function announceBootstrap(bootstrap: Awaited<ReturnType<typeof bootstrapOnFirstStart>>): void {
  if (bootstrap.created && bootstrap.generated) {
    process.stderr.write(`\nOwner API key (shown once): ${bootstrap.apiKey}\n\n`);
  }
}
