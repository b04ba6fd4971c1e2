// The import-cycle check (scripts/check-cycles.sh, part of `npm test` and `npm run check:cycles`)
// fails on a cycle, type-only imports included, and passes on this repository.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../..');
const script = path.join(repo, 'scripts/check-cycles.sh');

async function checkCycles(dir?: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('bash', dir ? [script, dir] : [script], { cwd: repo, timeout: 60_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), text);
  }
}

let scratch: string;
beforeAll(async () => {
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'import-cycles-'));
});
afterAll(async () => {
  await fs.rm(scratch, { recursive: true, force: true });
});

describe('import cycle check', () => {
  it('fails on a cycle made of type-only imports and names the files', async () => {
    const dir = path.join(scratch, 'type-cycle');
    await writeFiles(dir, {
      'src/deps.ts': "import type { Feature } from './feature/service.js';\nexport interface Deps { feature: Feature }\n",
      'src/feature/service.ts': "import type { Deps } from '../deps.js';\nexport interface Feature { run(deps: Deps): void }\n",
    });
    const result = await checkCycles(dir);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/src\/deps\.ts -> src\/feature\/service\.ts|src\/feature\/service\.ts -> src\/deps\.ts/);
  });

  it('fails on a cycle of value imports in test/', async () => {
    const dir = path.join(scratch, 'value-cycle');
    await writeFiles(dir, {
      'test/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'test/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
    });
    const result = await checkCycles(dir);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/test\/a\.ts -> test\/b\.ts|test\/b\.ts -> test\/a\.ts/);
  });

  it('fails when an import cannot be resolved, since a dropped edge could hide a cycle', async () => {
    const dir = path.join(scratch, 'unresolved');
    await writeFiles(dir, { 'src/feature.ts': "import { gone } from './gone.js';\nexport const feature = gone;\n" });
    const result = await checkCycles(dir);
    expect(result.code).toBe(1);
    expect(result.output).toContain('miss "./gone.js"');
  });

  it('passes on the same files once the one-way rule holds', async () => {
    const dir = path.join(scratch, 'one-way');
    await writeFiles(dir, {
      'src/deps.ts': 'export interface Deps { name: string }\n',
      'src/feature/service.ts': "import type { Deps } from '../deps.js';\nexport interface Feature { run(deps: Deps): void }\n",
    });
    const result = await checkCycles(dir);
    expect(result.output).not.toContain('1)');
    expect(result.code).toBe(0);
  });

  // Two folders importing each other without any file cycle: a/x -> b/y and b/z -> a/w.
  const folderLoop = {
    'src/a/w.ts': 'export const w = 1;\n',
    'src/a/x.ts': "import { y } from '../b/y.js';\nexport const x = y;\n",
    'src/b/y.ts': 'export const y = 2;\n',
    'src/b/z.ts': "import { w } from '../a/w.js';\nexport const z = w;\n",
  };

  it('fails on two folders that import each other, naming the file imports each way', async () => {
    const dir = path.join(scratch, 'folders');
    await writeFiles(dir, folderLoop);
    const result = await checkCycles(dir);
    expect(result.output).toContain('no circular dependency');
    expect(result.output).toContain('folders import each other: a <-> b');
    expect(result.output).toContain('src/a/x.ts -> src/b/y.ts');
    expect(result.output).toContain('src/b/z.ts -> src/a/w.ts');
    expect(result.code).toBe(1);
  });

  it('passes on a pair on the allow-list, and fails once a listed pair is gone (the list only shrinks)', async () => {
    const dir = path.join(scratch, 'folders-allowed');
    await writeFiles(dir, { ...folderLoop, 'scripts/folder-cycles.allow.json': '["a <-> b"]\n' });
    const allowed = await checkCycles(dir);
    expect(allowed.output).toContain('1 pair(s) importing each other, 1 on the allow-list');
    expect(allowed.code).toBe(0);
    await fs.writeFile(path.join(dir, 'src/b/z.ts'), 'export const z = 3;\n');
    const untangled = await checkCycles(dir);
    expect(untangled.output).toContain('a <-> b no longer import each other');
    expect(untangled.code).toBe(1);
  });

  // dpdm parses the whole tree (~290 files): seconds when idle, over 30 s beside a loaded suite.
  it('passes on this repository', async () => {
    const result = await checkCycles();
    expect(result.output).toContain('no circular dependency');
    expect(result.output).toMatch(/folders: \d+ pair\(s\) importing each other/);
    expect(result.code).toBe(0);
  }, 180_000);
});
