// `npm run owner:recover -- --email owner@example.com [--organization <id>]`: issues a new API key
// for an organization's owner and prints it once (see src/identity/owner-recovery.ts). Reads the
// same environment as the API (DATABASE_URL, or DATA_DIR for embedded PGlite: stop the API
// first then, PGlite has one process at a time). Exit 1 without issuing anything when refused.
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/orm.js';
import { entities } from '../src/orm-entities.js';
import { issueOwnerRecoveryKey, RecoveryRefused } from '../src/identity/owner-recovery.js';
import { databaseTarget } from '../src/runtime.js';

function fail(message: string): never {
  process.stderr.write(`owner:recover: ${message}\n`);
  process.exit(1);
}

let values: { email?: string | undefined; organization?: string | undefined };
try {
  ({ values } = parseArgs({ options: { email: { type: 'string' }, organization: { type: 'string' } } }));
} catch (error) {
  fail((error as Error).message);
}
if (!values.email) fail('usage: npm run owner:recover -- --email <owner email> [--organization <organization id>]');

const orm = await openDatabase(databaseTarget(loadConfig(process.env)), { entities });
try {
  const recovered = await issueOwnerRecoveryKey(orm.em.fork(), { email: values.email, organizationId: values.organization, now: new Date() });
  process.stdout.write(
    `New API key for owner ${recovered.ownerId} of organization ${recovered.organizationId} (shown once, store it now):\n${recovered.key}\n`,
  );
} catch (error) {
  if (error instanceof RecoveryRefused) fail(error.message);
  throw error;
} finally {
  await orm.close();
}
