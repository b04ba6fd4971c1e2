// Config once (docs/configuration.md): src/ reads the environment in src/config.ts, and elsewhere
// only where a variable belongs to the platform or a child process (the table "Read outside
// src/config.ts" names each). A new `process.env` read elsewhere fails here: route it through
// config.ts (a schema entry, or `Config.environment` for what passes variables on).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../../src');
const READERS = [
  'config.ts',
  'node-flags.ts', // NODE_OPTIONS, the platform's: a V8 bound given there wins
  'connectors/process-transport.ts', // the few variables a connector process inherits
  'connectors/sandbox.ts', // PATH, to tell a missing command from a confined one
  'dev/temporal-server.ts', // the dev runner's Temporal CLI cache and its child's environment
  'dev/first-start.ts', // the dev runner passes its environment to its first-start child
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

describe('environment reads', () => {
  it('happen in src/config.ts and the listed platform and child-process readers only', () => {
    const readers = sourceFiles(src)
      .filter((file) => /\bprocess\.env\b/.test(fs.readFileSync(file, 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '')))
      .map((file) => path.relative(src, file).split(path.sep).join('/'))
      .sort();
    expect(readers).toEqual([...READERS].sort());
  });
});
