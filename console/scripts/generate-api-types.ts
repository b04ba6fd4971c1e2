// Writes console/src/api-types.ts: TypeScript types of the API generated from the OpenAPI
// document the API builds (src/api/openapi/document.ts), with openapi-typescript. The console's
// API client is typed by these, never by hand. `--check` exits 1 when the file is out of date
// (test/console/api-types.test.ts runs it). Run from the repository root:
//   npx tsx console/scripts/generate-api-types.ts [--check]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from '../../src/api/openapi/document.js';

const HEADER = '// Generated from the API\'s OpenAPI document by console/scripts/generate-api-types.ts; do not edit.\n';
export const API_TYPES_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'api-types.ts');

export async function generateApiTypes(): Promise<string> {
  const ast = await openapiTS(shapesOnly(openApiDocument()) as Parameters<typeof openapiTS>[0]);
  return HEADER + '/* eslint-disable */\n' + astToString(ast);
}

/**
 * The document without its prose (descriptions, summaries, examples): the types say what the
 * client may send and read, so rewording a description elsewhere leaves this file as it is.
 */
function shapesOnly(value: unknown, namesOnly = false): unknown {
  if (Array.isArray(value)) return value.map((item) => shapesOnly(item));
  if (value === null || typeof value !== 'object') return value;
  // Under `properties` (and the like) the keys are field names: a field called `description` stays.
  const entries = Object.entries(value).filter(([key]) => namesOnly || !PROSE.has(key));
  return Object.fromEntries(entries.map(([key, inner]) => [key, shapesOnly(inner, !namesOnly && NAMED_CHILDREN.has(key))]));
}

const PROSE = new Set(['description', 'summary', 'example', 'examples']);
const NAMED_CHILDREN = new Set(['properties', 'patternProperties', 'schemas', 'paths', 'responses', 'parameters', 'headers', 'content', 'requestBodies', 'securitySchemes', '$defs']);

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const generated = await generateApiTypes();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(API_TYPES_FILE) ? fs.readFileSync(API_TYPES_FILE, 'utf8') : '';
    if (current !== generated) {
      console.error('console/src/api-types.ts is out of date with the OpenAPI document: run npx tsx console/scripts/generate-api-types.ts');
      process.exit(1);
    }
  } else {
    fs.writeFileSync(API_TYPES_FILE, generated);
    console.info(`wrote ${path.relative(process.cwd(), API_TYPES_FILE)}`);
  }
}
