// New migrations for `npm run migration:create -- <name>`: writes a MikroORM migration class
// named `Migration<UTC yyyyMMddHHmmss>_<name>` into src/db/migrations and appends it to the
// committed list in migrations/index.ts (the ORM runs that list, not a folder glob).
//
// The class is a skeleton for hand-written SQL, like every migration here: the entities do not
// declare the check constraints, partial indexes and defaults the migrations create, so a schema
// diff from the entities (MikroORM's `createMigration`) proposes dropping them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

const NAME_PATTERN = /^[a-z][a-z0-9_]*$/;
const LIST_END = '\n];';

export interface CreatedMigration {
  className: string;
  file: string;
}

/** Writes the migration file and registers it in `index.ts` of `dir`. */
export function createMigrationFile(options: { name: string; dir?: string; now?: Date }): CreatedMigration {
  const dir = options.dir ?? MIGRATIONS_DIR;
  if (!NAME_PATTERN.test(options.name)) {
    throw new Error(`migration name must be snake_case (a-z, 0-9, _), starting with a letter: "${options.name}"`);
  }
  const indexFile = path.join(dir, 'index.ts');
  const index = fs.readFileSync(indexFile, 'utf8');
  const className = `Migration${nextTimestamp(index, options.now ?? new Date())}_${options.name}`;
  const file = path.join(dir, `${className}.ts`);
  if (fs.existsSync(file)) throw new Error(`${file} already exists`);
  fs.writeFileSync(file, migrationSource(className));
  fs.writeFileSync(indexFile, registerMigration(index, className));
  return { className, file };
}

/** yyyyMMddHHmmss in UTC, after every timestamp already listed so the new one runs last. */
function nextTimestamp(index: string, now: Date): string {
  const current = Number(now.toISOString().replace(/[-T:]|\.\d{3}Z$/g, ''));
  const listed = [...index.matchAll(/\bMigration(\d{14})_/g)].map((match) => Number(match[1]));
  return String(Math.max(current, ...listed.map((stamp) => stamp + 1)));
}

function migrationSource(className: string): string {
  return `import { Migration } from '@mikro-orm/migrations';

// TODO: what this migration changes and why (it never changes once it has landed on main).
export class ${className} extends Migration {
  override async up(): Promise<void> {
    // Replace this line with the SQL, one this.addSql(...) per statement.
    throw new Error('${className} has no SQL yet');
  }

  override async down(): Promise<void> {
    // The statements that undo up(), newest first.
  }
}
`;
}

function registerMigration(index: string, className: string): string {
  const importLine = `import { ${className} } from './${className}.js';\n`;
  const lastImport = index.lastIndexOf('\nimport ');
  const listEnd = index.lastIndexOf(LIST_END);
  if (lastImport < 0 || listEnd < 0) throw new Error('migrations/index.ts no longer has the expected imports and list');
  const afterLastImport = index.indexOf('\n', lastImport + 1) + 1;
  const entry = `\n  { name: '${className}', class: ${className} },`;
  return index.slice(0, afterLastImport) + importLine + index.slice(afterLastImport, listEnd) + entry + index.slice(listEnd);
}
