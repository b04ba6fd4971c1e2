// Writes the pre-bundled workflow code the worker loads (dist/workflow-bundle.js, or the path
// given as the first argument).
import { DEFAULT_BUNDLE_PATH, writeWorkflowBundle } from '../src/worker/bundle.js';

const output = process.argv[2] ?? DEFAULT_BUNDLE_PATH;
const started = Date.now();
await writeWorkflowBundle(output);
process.stdout.write(`workflow bundle written to ${output} in ${Date.now() - started} ms\n`);
