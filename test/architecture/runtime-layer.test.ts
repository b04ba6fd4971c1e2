// The shared runtime sits at the bottom (docs/ARCHITECTURE.md): src/db/ opens the
// database with the entities the composition root hands it (src/orm-entities.ts) and imports no
// feature folder, nor the composition root. The folder check (scripts/folder-cycles.ts) only sees
// folders that import each other; this one also fails on a one-way import from db/ upwards.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../../src');
const COMPOSITION_ROOT = new Set(['runtime.ts', 'runtime-deps.ts', 'orm-entities.ts']);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/** Every relative module a file imports (static, `export ... from` and dynamic), as a path under src/. */
function relativeImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)].map((match) => match[1]!);
  return specifiers.map((specifier) => path.relative(src, path.resolve(path.dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

describe('the database layer', () => {
  it('imports no feature and not the composition root: only itself and files of the shared runtime', () => {
    const outside = sourceFiles(path.join(src, 'db')).flatMap((file) =>
      relativeImports(file)
        .filter((target) => !target.startsWith(`db${path.sep}`))
        .map((target) => `${path.relative(src, file)} -> ${target}`),
    );
    const upward = outside.filter((edge) => {
      const target = edge.split(' -> ')[1]!;
      return target.includes(path.sep) || COMPOSITION_ROOT.has(target);
    });
    expect(upward).toEqual([]);
    // The scan sees the imports it should: orm.ts takes the logger's type from the shared runtime.
    expect(outside).toContain(`db${path.sep}orm.ts -> logger.ts`);
  });
});
