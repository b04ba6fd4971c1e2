// Temporal wiring shared by the API, the worker and the dev runner: the client connection and
// the search attributes the workflows set (registered on the dev server at start).
import { Client, Connection } from '@temporalio/client';

export { SEARCH_ATTRIBUTES, searchAttributeArgs } from './search-attributes.js';

export interface TemporalHandle {
  connection: Connection;
  client: Client;
  namespace: string;
  taskQueue: string;
}

export async function connectTemporal(options: {
  address: string;
  namespace: string;
  taskQueue: string;
}): Promise<TemporalHandle> {
  const connection = await Connection.connect({ address: options.address, connectTimeout: '5s' });
  const client = new Client({ connection, namespace: options.namespace });
  return { connection, client, namespace: options.namespace, taskQueue: options.taskQueue };
}

/** Readiness: the frontend answers for our namespace. */
export async function pingTemporal(handle: TemporalHandle): Promise<void> {
  await handle.connection.workflowService.describeNamespace(
    { namespace: handle.namespace },
  );
}
