// Database: MikroORM 6 on PostgreSQL when DATABASE_URL is set, on embedded PGlite under DATA_DIR
// otherwise. One SQL dialect and one set of committed migrations for both; they run on start.
import fs from 'node:fs';
import path from 'node:path';
import { MikroORM as PostgresORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from '../logger.js';
import { migrationsList } from './migrations/index.js';

export type Orm = PostgresORM;

/** The entity schemas an ORM knows: the composition root assembles them from the features (src/orm-entities.ts). */
export type OrmEntities = NonNullable<Options['entities']>;

export interface OpenDatabaseOptions {
  entities: OrmEntities;
  logger?: Logger | undefined;
  /** Replaces the committed migrations (tests). */
  migrations?: NonNullable<NonNullable<Options['migrations']>['migrationsList']>;
}

export interface DatabaseTarget {
  /** A PostgreSQL URL, or undefined for PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data directory, or `memory://` for an in-memory database (tests). */
  pgliteDir?: string;
  /**
   * An in-memory PGlite starts from this dump of a data directory (`dumpPglite`) instead of an
   * empty one: the tests migrate one database per run and start each stack from it.
   */
  pgliteSnapshot?: string;
  poolMax?: number;
  debug?: boolean;
}

export function describeDatabase(target: DatabaseTarget): string {
  if (target.databaseUrl) {
    const url = new URL(target.databaseUrl);
    return `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}`;
  }
  return `PGlite ${target.pgliteDir ?? 'memory://'}`;
}

async function ormOptions(target: DatabaseTarget, entities: OrmEntities, logger?: Logger): Promise<Options> {
  const common: Options = {
    entities,
    extensions: [Migrator],
    migrations: {
      migrationsList,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    debug: target.debug ?? false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
    ensureDatabase: false,
    discovery: { warnWhenNoEntities: false },
  };
  if (target.databaseUrl) {
    return {
      ...common,
      clientUrl: target.databaseUrl,
      pool: { min: 0, max: target.poolMax ?? 10 },
      // knex reports dropped connections on the console; they belong in the JSON log.
      ...(logger ? { driverOptions: { log: knexLog(logger) } } : {}),
    };
  }
  const dir = target.pgliteDir ?? 'memory://';
  if (!dir.startsWith('memory://')) fs.mkdirSync(path.dirname(dir), { recursive: true });
  // knex-pglite opens PGlite on `connection.filename` (empty = in-memory). Imported only here:
  // a PostgreSQL deployment never loads PGlite (~35 MB of memory).
  const { PGliteDriver } = await import('./pglite-driver.js');
  return {
    ...common,
    driver: PGliteDriver as unknown as Options['driver'],
    dbName: 'pglite',
    driverOptions: { connection: { filename: dir.startsWith('memory://') ? '' : dir, ...(target.pgliteSnapshot ? { snapshot: target.pgliteSnapshot } : {}) } },
  };
}

/**
 * Opens the database with the given entities and brings its schema up to date with the committed
 * migrations. When a migration fails the ORM is closed before the error leaves (its pool would
 * otherwise keep the process alive) and the error names the database.
 */
export async function openDatabase(target: DatabaseTarget, options: OpenDatabaseOptions): Promise<Orm> {
  const { entities, logger } = options;
  const settings = await ormOptions(target, entities, logger);
  if (options.migrations) settings.migrations = { ...settings.migrations, migrationsList: options.migrations };
  const orm = await PostgresORM.init(settings);
  let applied: { name: string }[];
  try {
    applied = await orm.getMigrator().up();
  } catch (error) {
    await orm.close(true).catch((closeError: unknown) => logger?.warn({ err: closeError }, 'closing the ORM after a failed migration failed'));
    throw new Error(`Database migration failed on ${describeDatabase(target)}: ${(error as Error).message}`, { cause: error });
  }
  if (applied.length > 0) {
    logger?.info({ migrations: applied.map((m) => m.name), database: describeDatabase(target) }, 'migrations applied');
  }
  return orm;
}

/** Writes the embedded database's data directory to `file` (a tarball `pgliteSnapshot` starts from). */
export async function dumpPglite(orm: Orm, file: string): Promise<void> {
  const { dumpPgliteDataDir } = await import('./pglite-driver.js');
  await dumpPgliteDataDir(orm, file);
}

/** A cheap round trip, for readiness. */
export async function pingDatabase(orm: Orm): Promise<void> {
  await orm.em.getConnection().execute('select 1');
}

function knexLog(logger: Logger) {
  const log = logger.child({ component: 'knex' });
  return {
    warn: (message: unknown) => log.warn(String(message)),
    error: (message: unknown) => log.error(String(message)),
    deprecate: (message: unknown) => log.warn(String(message)),
    debug: (message: unknown) => log.debug(String(message)),
  };
}
