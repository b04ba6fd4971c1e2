// The embedded database's MikroORM driver: mikro-orm-pglite's, with one fix in how a query is
// sent. knex-pglite runs a raw query whose text splits on `;` into several parts with PGlite's
// `exec()`, which takes no parameters: a `;` in a comment or a string literal of a bound statement
// made it drop the bindings (`42P02 there is no parameter $1`), while PostgreSQL ran the same text.
// Here a query with bindings is always one bound statement (as on PostgreSQL's extended protocol),
// and only a text that really holds several statements, outside strings, quoted names, comments
// and dollar quotes, goes to `exec()`.
// A connection whose options name a `snapshot` (a dumped data directory) starts its in-memory
// PGlite from it, and closes that PGlite with the connection.
import fs from 'node:fs';
import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import { AbstractSqlDriver, PostgreSqlPlatform, type Configuration, type Knex, type MikroORM } from '@mikro-orm/postgresql';
import { PGliteConnection } from 'mikro-orm-pglite';

interface QueryObject {
  sql?: string;
  bindings?: unknown[];
  method?: string;
  response?: unknown;
}

/**
 * How many statements `sql` holds: the `;`-separated parts that are not empty, counting only
 * separators outside '…' and E'…' strings, "…" names, -- and nested /* *\/ comments and $tag$…$tag$.
 */
export function countStatements(sql: string): number {
  let count = 0;
  let pending = false; // the current statement has text
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === ';') {
      if (pending) count += 1;
      pending = false;
      i += 1;
      continue;
    }
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    if (c === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? n : end + 1;
      continue;
    }
    if (c === '/' && next === '*') {
      i = skipBlockComment(sql, i);
      continue;
    }
    pending = true;
    if (c === "'") i = skipQuoted(sql, i + 1, "'", isEscapeString(sql, i));
    else if (c === '"') i = skipQuoted(sql, i + 1, '"', false);
    else if (c === '$') i = skipDollarQuote(sql, i);
    else i += 1;
  }
  return count + (pending ? 1 : 0);
}

/** A string literal opened at `quote` is an escape string when an E (not part of a longer word) precedes it. */
function isEscapeString(sql: string, quote: number): boolean {
  const before = sql[quote - 1];
  return (before === 'e' || before === 'E') && !/[\w$]/.test(sql[quote - 2] ?? '');
}

/** The index after the closing quote; a doubled quote (and a backslash in an escape string) escapes. */
function skipQuoted(sql: string, from: number, quote: string, backslashEscapes: boolean): number {
  for (let i = from; i < sql.length; i++) {
    const c = sql[i];
    if (backslashEscapes && c === '\\') {
      i += 1;
    } else if (c === quote) {
      if (sql[i + 1] === quote) i += 1;
      else return i + 1;
    }
  }
  return sql.length;
}

function skipBlockComment(sql: string, from: number): number {
  let depth = 0;
  for (let i = from; i < sql.length - 1; i++) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth += 1;
      i += 1;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth -= 1;
      i += 1;
      if (depth === 0) return i + 1;
    }
  }
  return sql.length;
}

/** `$tag$ … $tag$` (the tag may be empty); a `$` that opens no tag (a `$1` parameter) is one character. */
function skipDollarQuote(sql: string, from: number): number {
  const open = /^\$([A-Za-z_][\w]*)?\$/.exec(sql.slice(from, from + 64));
  if (!open) return from + 1;
  const close = sql.indexOf(open[0], from + open[0].length);
  return close === -1 ? sql.length : close + open[0].length;
}

async function sendQuery(connection: PGliteInterface, obj: QueryObject): Promise<QueryObject> {
  if (!obj.sql) throw new Error('The query is empty');
  const bindings = obj.bindings ?? [];
  obj.response = obj.method === 'raw' && bindings.length === 0 && countStatements(obj.sql) > 1
    ? await connection.exec(obj.sql)
    : await connection.query(obj.sql, bindings);
  return obj;
}

class BindingPGliteConnection extends PGliteConnection {
  /** The PGlite started from a snapshot: knex-pglite only borrows it, so this connection closes it. */
  private fromSnapshot: PGlite | undefined;

  protected override getKnexOptions(type: string): Knex.Config {
    const options = super.getKnexOptions(type);
    const connection = options.connection as { snapshot?: string } | undefined;
    if (!connection?.snapshot) return options;
    const file = connection.snapshot;
    const pglite = async () => {
      this.fromSnapshot = await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(file)]) });
      return this.fromSnapshot;
    };
    return { ...options, connection: { ...connection, pglite } as Knex.Config['connection'] };
  }

  override async close(force?: boolean): Promise<void> {
    await super.close(force);
    await this.fromSnapshot?.close();
    this.fromSnapshot = undefined;
  }

  override createKnex(): void {
    super.createKnex();
    // The dialect instance knex built for this connection: its `_query` is the one that sends SQL.
    const dialect = this.getKnex().client as { _query: (connection: PGliteInterface, obj: QueryObject) => Promise<QueryObject> };
    dialect._query = sendQuery;
  }
}

export class PGliteDriver extends AbstractSqlDriver<BindingPGliteConnection> {
  constructor(config: Configuration) {
    super(config, new PostgreSqlPlatform(), BindingPGliteConnection, ['knex', '@electric-sql/pglite', '@harryplusplus/knex-pglite']);
  }
}

/** Writes the PGlite behind `orm` to `file`, uncompressed (loading it is then a copy). */
export async function dumpPgliteDataDir(orm: MikroORM, file: string): Promise<void> {
  const dialect = orm.em.getConnection().getKnex().client as { getDataSource(): { getPGlite(): PGlite | null } };
  const pglite = dialect.getDataSource().getPGlite();
  if (!pglite) throw new Error('No embedded database is open to dump');
  const dump = await pglite.dumpDataDir('none');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
}
