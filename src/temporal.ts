// Temporal wiring shared by the API, the worker and the dev runner: the client connection and
// the search attributes the workflows set (registered on the dev server at start).
import { Client, Connection, type WorkflowClientInterceptor } from '@temporalio/client';

export { SEARCH_ATTRIBUTES, searchAttributeArgs } from './search-attributes.js';

export interface TemporalHandle {
  connection: Connection;
  /**
   * The readiness probe's own connection, without the client's retry interceptor: a probe
   * reports the frontend as it is now, and leaves no retry timer behind (the SDK's retry timers
   * are not cleared on cancel, and one firing after the connection closed throws).
   */
  probe: Connection;
  client: Client;
  namespace: string;
  taskQueue: string;
  close(): Promise<void>;
}

export async function connectTemporal(options: {
  address: string;
  namespace: string;
  taskQueue: string;
  /** Workflow client interceptors (traces: the span context goes into each start's headers). */
  interceptors?: WorkflowClientInterceptor[];
}): Promise<TemporalHandle> {
  const connection = await Connection.connect({ address: options.address, connectTimeout: '5s' });
  const probe = Connection.lazy({ address: options.address, interceptors: [] });
  const client = new Client({ connection, namespace: options.namespace, interceptors: { workflow: options.interceptors ?? [] } });
  return {
    connection,
    probe,
    client,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    async close() {
      await Promise.all([connection.close(), probe.close()]);
    },
  };
}

/**
 * Readiness: the frontend answers for our namespace within `timeoutMs`, one attempt on the probe
 * connection. (Through the main connection a probe during an outage kept retrying in the
 * background, one more call per probe, and a retry firing after shutdown threw.)
 */
export async function pingTemporal(handle: TemporalHandle, timeoutMs: number): Promise<void> {
  await handle.probe.withDeadline(Date.now() + timeoutMs, () =>
    handle.probe.workflowService.describeNamespace({ namespace: handle.namespace }));
}
