// The API process as an object: start() listens (port 0 in tests), stop() stops accepting,
// lets in-flight requests finish within a deadline, then closes the rest.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppDeps } from './deps.js';
import { buildApp } from './app.js';

export interface ApiServer {
  readonly url: string;
  readonly port: number;
  stop(deadlineMs?: number): Promise<void>;
}

export async function startApi(deps: AppDeps, options: { port: number; host?: string }): Promise<ApiServer> {
  const app = buildApp(deps);
  const server = http.createServer(app);
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
    async stop(deadlineMs = 10_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const deadline = setTimeout(() => server.closeAllConnections(), deadlineMs);
      await closed;
      clearTimeout(deadline);
    },
  };
}
