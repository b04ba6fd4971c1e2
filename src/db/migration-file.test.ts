// migration:create writes a skeleton that sorts after every committed migration and registers
// it in the list the ORM runs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migration } from '@mikro-orm/migrations';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMigrationFile, MIGRATIONS_DIR } from './migration-file.js';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  fs.copyFileSync(path.join(MIGRATIONS_DIR, 'index.ts'), path.join(dir, 'index.ts'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('createMigrationFile', () => {
  it('writes Migration<UTC timestamp>_<name>.ts and appends it, last, to the committed list', async () => {
    const { className, file } = createMigrationFile({ name: 'add_user_locale', dir, now: new Date('2027-03-04T05:06:07.890Z') });

    expect(className).toBe('Migration20270304050607_add_user_locale');
    expect(file).toBe(path.join(dir, `${className}.ts`));
    const source = fs.readFileSync(file, 'utf8');
    expect(source).toContain(`export class ${className} extends Migration {`);
    const generated = (await import(file)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(generated[className])).toBe(Migration);

    const index = fs.readFileSync(path.join(dir, 'index.ts'), 'utf8');
    expect(index).toContain(`import { ${className} } from './${className}.js';\n`);
    const names = [...index.matchAll(/\{ name: '(\w+)', class: (\w+) \}/g)].map((match) => match[1]);
    expect(names.at(-1)).toBe(className);
    expect(names.slice(0, -1)).toEqual(
      fs.readdirSync(MIGRATIONS_DIR).filter((f) => f.startsWith('Migration')).map((f) => f.replace(/\.ts$/, '')).sort(),
    );
  });

  it('sorts after the newest committed migration even when the clock is behind it', () => {
    const { className } = createMigrationFile({ name: 'late', dir, now: new Date('2020-01-01T00:00:00Z') });
    const index = fs.readFileSync(path.join(dir, 'index.ts'), 'utf8');
    const stamps = [...index.matchAll(/name: 'Migration(\d{14})_/g)].map((match) => match[1]!);
    expect(className.slice('Migration'.length, 'Migration'.length + 14)).toBe(stamps.at(-1));
    expect([...stamps].sort()).toEqual(stamps);
    expect(new Set(stamps).size).toBe(stamps.length);
  });

  it('refuses a name that is not snake_case, writing nothing', () => {
    const before = fs.readFileSync(path.join(dir, 'index.ts'), 'utf8');
    expect(() => createMigrationFile({ name: 'Add-Locale', dir })).toThrow(/snake_case/);
    expect(fs.readdirSync(dir)).toEqual(['index.ts']);
    expect(fs.readFileSync(path.join(dir, 'index.ts'), 'utf8')).toBe(before);
  });
});
