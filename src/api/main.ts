// The API process: serves HTTP on PORT. Runs migrations and the first-start bootstrap.
import { loadConfig } from '../config.js';
import { reconcileAutomationWorkflowsInBackground } from '../automations/automation-workflows.js';
import { bootstrapOnFirstStart } from '../identity/announce.js';
import { createLogger } from '../logger.js';
import { openRuntime } from '../runtime.js';
import { runMain } from '../process-lifecycle.js';
import { startApi } from './server.js';

await runMain('api', async () => {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'api' });
  const runtime = await openRuntime(config, logger);
  const bootstrap = await bootstrapOnFirstStart(runtime.orm, config, logger);
  if (bootstrap.created && bootstrap.generated) {
    process.stderr.write(`\nOwner API key (shown once): ${bootstrap.apiKey}\n\n`);
  }
  const api = await startApi(runtime, { port: config.PORT, host: config.HOST });
  reconcileAutomationWorkflowsInBackground(runtime);
  return async () => {
    await api.stop();
    await runtime.close();
  };
});
