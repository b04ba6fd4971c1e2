// A small closed-loop load generator on undici: `connections` workers each send a request, read
// the whole response, and go again until the deadline. Records per-request latency and, for
// streams, time to first body byte.
import { Pool } from 'undici';

export interface Target {
  name: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body: (stream: boolean) => string;
}

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  meanMs: number;
  p99Ms: number;
  /** Mean time to the first body byte (streams). */
  ttfbMs: number;
}

/** Sends requests until `durationMs` passes or, when given, `requests` have been sent. */
export async function runLoad(target: Target, options: { connections: number; durationMs: number; stream: boolean; requests?: number }): Promise<LoadResult> {
  const pool = new Pool(target.url, { connections: options.connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const body = target.body(options.stream);
  const headers = { 'content-type': 'application/json', ...target.headers };
  const latencies: number[] = [];
  const firstBytes: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;
  let unsent = options.requests ?? Infinity;
  const worker = async () => {
    while (performance.now() < deadline && unsent-- > 0) {
      const t0 = performance.now();
      try {
        const response = await pool.request({ method: 'POST', path: target.path, headers, body });
        let first = true;
        for await (const _chunk of response.body) {
          if (first) {
            firstBytes.push(performance.now() - t0);
            first = false;
          }
        }
        if (response.statusCode !== 200) errors += 1;
        else latencies.push(performance.now() - t0);
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  const elapsed = performance.now() - started;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    rps: (latencies.length / elapsed) * 1000,
    meanMs: mean(latencies),
    p99Ms: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? NaN,
    ttfbMs: mean(firstBytes),
  };
}

function mean(values: number[]): number {
  return values.length === 0 ? NaN : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** Opens `count` streams at once (one connection each) and reads each to its end. */
export async function openStreams(target: Target, count: number): Promise<{ completed: number; minChunks: number; maxOpen: number }> {
  const pool = new Pool(target.url, { connections: count, pipelining: 1, keepAliveTimeout: 30_000 });
  const body = target.body(true);
  const headers = { 'content-type': 'application/json', ...target.headers };
  let open = 0;
  let maxOpen = 0;
  let completed = 0;
  let minChunks = Infinity;
  await Promise.all(
    Array.from({ length: count }, async () => {
      try {
        const response = await pool.request({ method: 'POST', path: target.path, headers, body });
        open += 1;
        maxOpen = Math.max(maxOpen, open);
        let events = 0;
        for await (const chunk of response.body) events += String(chunk).split('data: ').length - 1;
        open -= 1;
        if (response.statusCode === 200) {
          completed += 1;
          minChunks = Math.min(minChunks, events);
        }
      } catch {
        // counted as not completed
      }
    }),
  );
  await pool.close();
  return { completed, minChunks: Number.isFinite(minChunks) ? minChunks : 0, maxOpen };
}
