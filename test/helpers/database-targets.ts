// The databases a test runs its cases on: an in-memory PGlite always, and with PostgreSQL a
// scratch database of its own (an empty one, apart from the suite's shared database).
import { openDatabase, type Orm } from '../../src/db/orm.js';
import { entities } from '../../src/orm-entities.js';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database.js';

export interface DatabaseTarget {
  name: string;
  open: () => Promise<Orm>;
  cleanup?: () => Promise<void>;
}

/** PGlite, and PostgreSQL in a scratch database named after `prefix` when `postgresBase` is set. */
export function databaseTargets(prefix: string, postgresBase: string | undefined): DatabaseTarget[] {
  const targets: DatabaseTarget[] = [{ name: 'PGlite', open: () => openDatabase({ pgliteDir: 'memory://' }, { entities }) }];
  if (postgresBase) {
    let scratch: ScratchDatabase | undefined;
    targets.push({
      name: 'PostgreSQL',
      open: async () => {
        scratch = await createScratchDatabase(postgresBase, prefix);
        return openDatabase({ databaseUrl: scratch.url }, { entities });
      },
      cleanup: async () => scratch?.drop(),
    });
  }
  return targets;
}
