// The worker process's own Prometheus metrics (the prom-client registry: run outcomes, tokens
// and cost of run model calls, process metrics) on GET /metrics of WORKER_METRICS_PORT, guarded
// by METRICS_TOKEN like the API's. The Temporal SDK's metrics have their own exporter
// (TEMPORAL_METRICS_BIND_ADDRESS).
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { registry } from '../metrics.js';

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(options: { port: number; host?: string; token?: string | undefined }): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    if (options.token && !sameSecret(req.headers.authorization ?? '', `Bearer ${options.token}`)) {
      res.writeHead(401).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
