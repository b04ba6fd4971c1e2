import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpPglite, openDatabase, type Orm } from './orm.js';
import { countStatements } from './pglite-driver.js';

describe('countStatements', () => {
  it.each([
    ['select 1', 1],
    ['select 1;', 1],
    ['select 1; select 2', 2],
    ['  ;; select 1 ;; ', 1],
    ['select 1 -- a comment; with a semicolon\n', 1],
    ['select 1 /* a; /* nested; */ comment; */ + 1', 1],
    ["select 'a;b', 'it''s; fine'", 1],
    ["select E'a\\';b'", 1],
    ['select "odd;name" from t', 1],
    ['select $$a;b$$, $fn$ c; $$ d; $fn$', 1],
    ['select $1::int; select $2', 2],
    ["create table t (x int); insert into t values (1); -- done;\n", 2],
    ['', 0],
    ['-- only a comment;', 0],
  ])('%j holds %i statement(s)', (sql, expected) => {
    expect(countStatements(sql)).toBe(expected);
  });
});

describe('the embedded driver binds parameters whatever the text holds', () => {
  let orm: Orm;
  beforeAll(async () => {
    orm = await openDatabase({ pgliteDir: 'memory://' }, { entities: [], migrations: [] });
  });
  afterAll(async () => {
    await orm?.close(true);
  });

  it('runs a bound statement with a semicolon in a comment and in a string (42P02 before)', async () => {
    const rows = await orm.em.getConnection().execute<{ n: number; s: string }[]>(
      `-- a comment; with a semicolon
       select ?::int + 1 as "n", ?::text || ';' as "s" /* and here; too */`,
      [41, 'x'],
    );
    expect(rows).toEqual([{ n: 42, s: 'x;' }]);
  });

  it('still runs several statements without bindings', async () => {
    const connection = orm.em.getConnection();
    await connection.execute('create temporary table "pglite_t" ("x" int); insert into "pglite_t" values (1), (2);');
    expect(await connection.execute('select count(*)::int as "c" from "pglite_t"')).toEqual([{ c: 2 }]);
  });

  it('answers a single unbound statement with a semicolon in a string as rows, not as a list of results', async () => {
    expect(await orm.em.getConnection().execute(`select 'a;b' as "v"`)).toEqual([{ v: 'a;b' }]);
  });
});

describe('an in-memory database started from a snapshot', () => {
  it('holds what the dumped one held, and each start is a copy of its own', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-snapshot-')), 'db.tar');
    const source = await openDatabase({ pgliteDir: 'memory://' }, { entities: [], migrations: [] });
    await source.em.getConnection().execute('create table "kept" ("x" int); insert into "kept" values (7);');
    await dumpPglite(source, file);
    await source.close(true);

    const first = await openDatabase({ pgliteDir: 'memory://', pgliteSnapshot: file }, { entities: [], migrations: [] });
    const second = await openDatabase({ pgliteDir: 'memory://', pgliteSnapshot: file }, { entities: [], migrations: [] });
    try {
      await first.em.getConnection().execute('insert into "kept" values (8)');
      expect(await first.em.getConnection().execute('select count(*)::int as "n" from "kept"')).toEqual([{ n: 2 }]);
      expect(await second.em.getConnection().execute('select "x" from "kept"')).toEqual([{ x: 7 }]);
    } finally {
      await Promise.all([first.close(true), second.close(true)]);
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});
