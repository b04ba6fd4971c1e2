// Temporal wiring shared by the API, the worker and the dev runner: the client connection and
// the search attributes the workflows set (registered on the dev server at start). Clients encrypt
// every payload (src/payloads): `clientFor(organizationId)` for what belongs to an organization,
// `client` for the service's own calls (service key) and for reading. While the frontend is
// down a call fails within seconds (a bounded retry budget, not the SDK's ~20 s of retries), and
// `isTemporalUnavailable` tells that failure apart so the API answers 503 with Retry-After.
import {
  Client,
  Connection,
  defaultGrpcRetryOptions,
  isGrpcServiceError,
  makeGrpcRetryInterceptor,
  type GrpcRetryOptions,
  type WorkflowClientInterceptor,
} from '@temporalio/client';
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
  const connection = await Connection.connect({
    ...options.connection,
    connectTimeout: '5s',
    interceptors: [makeGrpcRetryInterceptor(boundedRetryOptions())],
  });
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

/**
 * Attempts of a call while the frontend is UNAVAILABLE (down, restarting, unreachable): about
 * 3 s of backoff (100 ms x 1.7^n), after which the call fails and a request answers 503. The
 * SDK's default of 10 attempts (~20 s) held a webhook sender past its own timeout during an outage.
 * Other retryable codes (RESOURCE_EXHAUSTED under load) keep the SDK's default budget.
 */
export const UNAVAILABLE_ATTEMPTS = 6;

// gRPC status codes (the numbers are the protocol's; @grpc/grpc-js is not a direct dependency).
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNAVAILABLE = 14;

export function boundedRetryOptions(): GrpcRetryOptions {
  const defaults = defaultGrpcRetryOptions();
  return {
    delayFunction: defaults.delayFunction,
    retryableDecider(attempt, status) {
      if (status.code === GRPC_UNAVAILABLE && attempt >= UNAVAILABLE_ATTEMPTS) return false;
      return defaults.retryableDecider(attempt, status);
    },
  };
}

/** Seconds a client is told to wait (Retry-After) when Temporal is unavailable: a restart takes a few. */
export const TEMPORAL_RETRY_AFTER_SECONDS = 2;

/**
 * Whether `error` says the Temporal frontend could not be reached (gRPC UNAVAILABLE after the
 * retry budget, or a deadline passed with no answer), as opposed to an answer that refused the call.
 */
export function isTemporalUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    if (isGrpcServiceError(current)) return current.code === GRPC_UNAVAILABLE || current.code === GRPC_DEADLINE_EXCEEDED;
    current = current.cause;
  }
  return false;
}
