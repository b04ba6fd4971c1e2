// The dev runner's first-start preparation, run by the runner in a child process (prepare-child.ts)
// so that the memory it takes leaves with that process: writing the workflow bundle (webpack in
// this process: ~400 MB of RSS that the runner kept until it stopped, 930 MB idle after a first
// start without a bundle) and creating the embedded database (PGlite's initdb and every migration
// grow its WebAssembly memory, which never shrinks: ~70 MB more than opening an existing one).
// The runner then opens both as on any restart.
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/orm.js';
import { entities } from '../orm-entities.js';
import { createLogger } from '../logger.js';
import { databaseTarget } from '../runtime.js';
import { DEFAULT_BUNDLE_PATH, ensureWorkflowBundle } from '../worker/bundle.js';

const config = loadConfig();
const logger = createLogger({ level: config.LOG_LEVEL, name: 'dev' });
await ensureWorkflowBundle(config.WORKFLOW_BUNDLE_PATH ?? DEFAULT_BUNDLE_PATH);
if (!config.DATABASE_URL) {
  const orm = await openDatabase(databaseTarget(config), { entities, logger });
  await orm.close();
}
// Nothing may keep this process alive once done (the runner waits for its exit).
process.exit(0);
