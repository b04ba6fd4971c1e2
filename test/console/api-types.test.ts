// The console's API types (console/src/api-types.ts) are generated from the OpenAPI document the
// API builds, never written by hand: this fails when the document changed and the file was not
// regenerated (npx tsx console/scripts/generate-api-types.ts).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// A specifier held in a variable: the root's type-check does not follow it into console/, whose
// dependencies live in console/node_modules.
const GENERATOR = path.join(root, 'console', 'scripts', 'generate-api-types.ts');

describe('console/src/api-types.ts', () => {
  beforeAll(() => {
    execFileSync('bash', [path.join(root, 'scripts', 'ensure-console.sh'), 'deps'], { stdio: 'inherit' });
  });

  it('is what openapi-typescript generates from the current OpenAPI document', async () => {
    const { generateApiTypes, API_TYPES_FILE } = (await import(GENERATOR)) as { generateApiTypes: () => Promise<string>; API_TYPES_FILE: string };
    const generated = await generateApiTypes();
    const committed = fs.readFileSync(API_TYPES_FILE, 'utf8');
    expect(generated.includes('"/v1/auth/api-key"'), 'the key exchange is in the document').toBe(true);
    expect(committed === generated, 'console/src/api-types.ts is out of date: run npm run console:types').toBe(true);
  }, 120_000);
});
