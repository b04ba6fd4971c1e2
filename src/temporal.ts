// Temporal wiring shared by the API, the worker and the dev runner: the client connection and
// the search attributes the workflows set (registered on the dev server at start). Clients encrypt
// every payload (src/payloads): `clientFor(organizationId)` for what belongs to an organization,
// `client` for the service's own calls (service key) and for reading.
import { Client, Connection, type WorkflowClientInterceptor } from '@temporalio/client';
import type { EncryptionCodec } from './payloads/codec.js';
import { clientDataConverter } from './payloads/data-converters.js';
import type { TemporalConnectionOptions } from './temporal-connection.js';

export { SEARCH_ATTRIBUTES, searchAttributeArgs } from './search-attributes.js';

export interface TemporalHandle {
  connection: Connection;
  /**
   * The readiness probe's own connection, without the client's retry interceptor: a probe
   * reports the frontend as it is now, and leaves no retry timer behind (the SDK's retry timers
   * are not cleared on cancel, and one firing after the connection closed throws).
   */
  probe: Connection;
  /** The service's client: payloads it sends are encrypted under the service key. */
  client: Client;
  /** A client whose payloads are labelled with, and encrypted for, `organizationId`. */
  clientFor(organizationId: string): Client;
  codec: EncryptionCodec;
  namespace: string;
  taskQueue: string;
  close(): Promise<void>;
}

/** Per-organization clients are cheap, but kept: a busy API would otherwise build one per request. */
const MAX_CACHED_CLIENTS = 1000;

export async function connectTemporal(options: {
  connection: TemporalConnectionOptions;
  namespace: string;
  taskQueue: string;
  codec: EncryptionCodec;
  /** Workflow client interceptors (traces: the span context goes into each start's headers). */
  interceptors?: WorkflowClientInterceptor[];
}): Promise<TemporalHandle> {
  const connection = await Connection.connect({ ...options.connection, connectTimeout: '5s' });
  const probe = Connection.lazy({ ...options.connection, interceptors: [] });
  const makeClient = (organizationId?: string) =>
    new Client({
      connection,
      namespace: options.namespace,
      dataConverter: clientDataConverter(options.codec, organizationId),
      interceptors: { workflow: options.interceptors ?? [] },
    });
  const client = makeClient();
  const clients = new Map<string, Client>();
  return {
    connection,
    probe,
    client,
    clientFor(organizationId) {
      let scoped = clients.get(organizationId);
      if (!scoped) {
        if (clients.size >= MAX_CACHED_CLIENTS) clients.delete(clients.keys().next().value!);
        scoped = makeClient(organizationId);
        clients.set(organizationId, scoped);
      }
      return scoped;
    },
    codec: options.codec,
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
