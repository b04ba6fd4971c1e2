// The pre-bundled workflow code the worker runs. `npm run bundle:workflows` (and the dev runner
// and test setup, when the bundle is missing or older than the sources) writes it once, so
// workers start without webpack.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH, WORKFLOW_INTERCEPTORS_PATH, WORKFLOW_PAYLOAD_CONVERTER_PATH } from '../payloads/data-converters.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const WORKFLOWS_DIR = path.resolve(here, '../workflows');
export const DEFAULT_BUNDLE_PATH = path.resolve(here, '../../dist/workflow-bundle.js');

function workflowsEntry(): string {
  return workflowModule('index');
}

function workflowModule(name: string): string {
  const ts = path.join(WORKFLOWS_DIR, `${name}.ts`);
  return fs.existsSync(ts) ? ts : path.join(WORKFLOWS_DIR, `${name}.js`);
}

function scheduleModule(): string {
  const ts = path.resolve(WORKFLOWS_DIR, '../schedule/schedule.ts');
  return fs.existsSync(ts) ? ts : path.resolve(WORKFLOWS_DIR, '../schedule/schedule.js');
}

/** Bundles src/workflows into one file (webpack, run by the Temporal SDK). */
export async function writeWorkflowBundle(outputPath = DEFAULT_BUNDLE_PATH): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: workflowsEntry(),
    // Inside the sandbox payloads are labelled with the workflow's organization, error messages
    // become encoded payloads, and activities learn their organization (src/payloads).
    payloadConverterPath: WORKFLOW_PAYLOAD_CONVERTER_PATH,
    failureConverterPath: FAILURE_CONVERTER_PATH,
    // Traces: inert unless a workflow's start carries a trace context (see the module).
    workflowInterceptorModules: [WORKFLOW_INTERCEPTORS_PATH, workflowModule('tracing-interceptors')],
    // Loaded once into the reusable V8 context and shared by every cached workflow, instead of
    // evaluated again for each one (a module a workflow loads is otherwise its own copy: its
    // closures, classes and export getters, ~35 KB per workflow for these): the cron module (with
    // croner), the converters, the interceptors and the workflows with what they import (our
    // modules and the SDK's workflow package index). None keeps per-workflow state at module
    // level: the schedule module caches Intl formatters by zone, plaintext-summaries registers a
    // summary and takes it back within the same start command; workflow state lives in each
    // workflow's function. The SDK freezes them (their exports) once loaded.
    preloadModules: [scheduleModule(), WORKFLOW_PAYLOAD_CONVERTER_PATH, FAILURE_CONVERTER_PATH, WORKFLOW_INTERCEPTORS_PATH, workflowModule('tracing-interceptors'), workflowsEntry()],
    webpackConfigHook: (config) => ({
      ...config,
      // Sources import siblings as `./x.js` (NodeNext); let webpack find the `.ts` file.
      resolve: { ...config.resolve, extensionAlias: { '.js': ['.ts', '.js'] } },
      // The SDK's inline source map without the sources' text: every workflow thread holds the
      // bundle and its source map (V8 keeps a script's source, and its sourceMappingURL as a
      // second string), and the sources, two thirds of the map, served nothing: stack traces
      // need only the mappings, and the worker does not send sources with stack trace queries
      // (`showStackTraceSources` is off).
      devtool: 'inline-nosources-source-map',
    }),
    logger: new DefaultLogger('WARN'),
  });
  fs.mkdirSync(path.dirname(outputPath), { recursive: true });
  const temporary = `${outputPath}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, asciiOnly(code));
  fs.renameSync(temporary, outputPath);
  return outputPath;
}

/**
 * The bundle with every non-ASCII character written as a `\\uXXXX` escape. V8 stores a string
 * with any character beyond Latin-1 at two bytes per character, so a few em dashes in the
 * comments of the SDK's sources doubled the bundle in every isolate that holds it (6.8 MB instead
 * of 3.4 MB per workflow thread). Those characters are in comments, where an escape changes
 * nothing; in a string, template or regular expression literal it is the same character (only a
 * template's raw text, as `String.raw` sees it, would differ).
 */
export function asciiOnly(code: string): string {
  return code.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name.endsWith('.test.ts')) continue;
    const full = path.join(entry.parentPath, entry.name);
    newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** True when the bundle exists and no workflow source (or what it imports) is newer. */
export function isBundleFresh(bundlePath: string): boolean {
  if (!fs.existsSync(bundlePath)) return false;
  if (!fs.existsSync(path.join(WORKFLOWS_DIR, 'index.ts'))) return true; // built image: no sources
  const srcDir = path.resolve(WORKFLOWS_DIR, '..');
  return fs.statSync(bundlePath).mtimeMs >= newestSourceMtime(srcDir);
}

/** The path of an up-to-date bundle, writing it first when needed. */
export async function ensureWorkflowBundle(bundlePath = DEFAULT_BUNDLE_PATH): Promise<string> {
  if (isBundleFresh(bundlePath)) return bundlePath;
  return writeWorkflowBundle(bundlePath);
}
