// Registry entry of the web console's own endpoint: the deployment facts it links to.
import { z } from 'zod';
import { apiSchemas, type Operation } from './registry.js';

const consoleSettings = z
  .object({
    temporalUiOrigin: z.string().describe('Origin of the Temporal Web UI (TEMPORAL_UI_ORIGIN)'),
    temporalNamespace: z.string().describe('The Temporal namespace of the workflows (TEMPORAL_NAMESPACE)'),
  })
  .register(apiSchemas, { id: 'ConsoleSettings' });

export const consoleOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/console/settings',
    operationId: 'getConsoleSettings',
    tag: 'Operations',
    summary: 'Where the Temporal Web UI is, for links from the web console to run workflows',
    description: 'A run `<runId>` is the workflow `run/<runId>` in `temporalNamespace`: `<temporalUiOrigin>/namespaces/<temporalNamespace>/workflows/run%2F<runId>`.',
    auth: 'caller',
    role: 'admin',
    responses: { 200: { description: 'The settings', schema: consoleSettings } },
    errors: [],
  },
];
