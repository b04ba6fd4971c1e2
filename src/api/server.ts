// The API process as an object: start() listens (port 0 in tests), stop() drains: it stops
// accepting connections, lets in-flight requests and streams finish within a deadline (their
// responses carry `Connection: close`, and each connection closes as soon as it is idle), then
// closes whatever is left.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppDeps } from '../runtime-deps.js';
import { buildApp } from './app.js';
import { gatewayFastPath } from './fast-path.js';

export interface ApiServer {
  readonly url: string;
  readonly port: number;
  /** Resolves once every connection is closed: when the last request finished, or at the deadline. */
  stop(deadlineMs?: number): Promise<void>;
}

export async function startApi(deps: AppDeps, options: { port: number; host?: string }): Promise<ApiServer> {
  const app = buildApp(deps);
  const fastPath = gatewayFastPath(deps);
  let draining = false;
  const inFlight = new Set<http.ServerResponse>();
  function forget(this: http.ServerResponse): void {
    inFlight.delete(this);
  }
  const server = http.createServer((req, res) => {
    if (draining) res.setHeader('connection', 'close');
    inFlight.add(res);
    res.once('close', forget);
    if (!fastPath?.(req, res)) app(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('connection', (socket) => socket.setNoDelay(true));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  deps.logger.info({ port }, 'api listening');
  return {
    url,
    port,
    async stop(deadlineMs = deps.config.SHUTDOWN_GRACE_SECONDS * 1000) {
      if (!server.listening) return;
      draining = true;
      // Tells the clients of requests still running to take their next request elsewhere.
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      deps.logger.info({ deadlineMs }, 'api draining');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A keep-alive connection whose request finishes while draining would otherwise idle
      // until its timeout; a stream sent its own `Connection: keep-alive` header.
      const closeIdle = setInterval(() => server.closeIdleConnections(), 50);
      server.closeIdleConnections();
      const deadline = setTimeout(() => {
        deps.logger.warn('api drain deadline reached: closing the remaining connections');
        server.closeAllConnections();
      }, deadlineMs);
      await closed;
      clearInterval(closeIdle);
      clearTimeout(deadline);
      deps.logger.info('api stopped');
    },
  };
}
