// What the soak measures of each process and of the database. RSS from /proc/<pid>/status for
// every process of the API (the cluster primary and its forks) and the worker; heap used and
// event-loop delay p99 from each process's own GET /metrics (prom-client's default metrics; the
// API's forks share one port, so a scrape lands on one of them: several scrapes per sample, each on
// a new connection, matched to a pid by the resident memory it reports). The
// event-loop p99 is of the span since that process's previous scrape (prom-client resets it).
import fs from 'node:fs';
import http from 'node:http';
import pg from 'pg';

export interface ProcessSample {
  atMs: number;
  rssMiB: number;
  heapMiB?: number;
  loopP99Ms?: number;
}

export interface ProcessSeries {
  pid: number;
  name: string;
  samples: ProcessSample[];
}

interface MetricsReading {
  rssMiB: number;
  heapMiB: number;
  loopP99Ms: number;
}

const MiB = 1024 * 1024;

function metricValue(text: string, name: string): number | undefined {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text);
  return match ? Number(match[1]) : undefined;
}

async function scrape(url: string): Promise<MetricsReading | undefined> {
  try {
    const text = await getOnNewConnection(url);
    if (text === undefined) return undefined;
    return {
      rssMiB: (metricValue(text, 'process_resident_memory_bytes') ?? 0) / MiB,
      heapMiB: (metricValue(text, 'nodejs_heap_size_used_bytes') ?? 0) / MiB,
      loopP99Ms: (metricValue(text, 'nodejs_eventloop_lag_p99_seconds') ?? 0) * 1000,
    };
  } catch {
    return undefined;
  }
}

/** A GET on a connection of its own: the cluster hands each new connection to the next fork. */
function getOnNewConnection(url: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 5000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(res.statusCode === 200 ? Buffer.concat(chunks).toString('utf8') : undefined));
      res.on('error', () => resolve(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}

function rssOf(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status);
    return kb ? Number(kb[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Processes whose command line runs `script`, with their parent pid. */
export function processesRunning(script: string): { pid: number; ppid: number }[] {
  const found: { pid: number; ppid: number }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes(script)) continue;
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      found.push({ pid: Number(entry), ppid });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

export class ProcessSampler {
  readonly series = new Map<number, ProcessSeries>();

  constructor(private readonly targets: { name: string; script: string; metricsUrl?: string; scrapesPerSample: number }[]) {}

  async sample(atMs: number): Promise<void> {
    for (const target of this.targets) {
      const processes = processesRunning(target.script);
      const pids = new Set(processes.map((p) => p.pid));
      // The cluster primary (its parent is not one of them) never serves: no metrics of its own.
      const serving = processes.filter(({ ppid }) => processes.length === 1 || pids.has(ppid)).map(({ pid }) => pid);
      const metrics = new Map<number, MetricsReading>();
      for (let i = 0; target.metricsUrl && i < target.scrapesPerSample && metrics.size < serving.length; i += 1) {
        const reading = await scrape(target.metricsUrl);
        if (!reading) continue;
        // Whose: the serving process whose resident memory, read right after, is nearest to what it reported.
        const nearest = serving
          .map((pid) => ({ pid, distance: Math.abs((rssOf(pid) ?? Infinity) - reading.rssMiB) }))
          .sort((a, b) => a.distance - b.distance)[0];
        // The first reading of a process covers the span since the previous sample; later ones a few ms.
        if (nearest && !metrics.has(nearest.pid)) metrics.set(nearest.pid, reading);
      }
      for (const { pid } of processes) {
        const rssMiB = rssOf(pid);
        if (rssMiB === undefined) continue;
        const role = serving.includes(pid) ? target.name : `${target.name} primary`;
        const reading = metrics.get(pid);
        const series = this.series.get(pid) ?? { pid, name: role, samples: [] };
        series.samples.push({ atMs, rssMiB, heapMiB: reading?.heapMiB, loopP99Ms: reading?.loopP99Ms });
        this.series.set(pid, series);
      }
    }
  }
}

/** Least-squares slope of `value` over minutes, of the samples at or after `fromMs`. */
export function slopePerMinute(samples: ProcessSample[], fromMs: number, value: (sample: ProcessSample) => number | undefined): number | undefined {
  const points = samples.filter((s) => s.atMs >= fromMs).flatMap((s) => {
    const v = value(s);
    return v === undefined ? [] : [[s.atMs / 60_000, v] as const];
  });
  if (points.length < 2) return undefined;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const sxy = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const sxx = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return sxx === 0 ? undefined : sxy / sxx;
}

export const GROWTH_TABLES = ['gateway_requests', 'usage_records', 'gateway_responses', 'audit_logs', 'automation_runs', 'webhook_executions', 'channel_deliveries', 'tool_approvals', 'usage_hourly'];

export interface TableSize {
  rows: number;
  bytes: number;
}

/** Exact rows and total bytes (heap, indexes, TOAST) of each growth table. */
export async function tableSizes(databaseUrl: string): Promise<Map<string, TableSize>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const sizes = new Map<string, TableSize>();
    for (const table of GROWTH_TABLES) {
      const { rows } = await client.query<{ rows: string; bytes: string }>(`select (select count(*) from "${table}") as "rows", pg_total_relation_size('"${table}"') as "bytes"`);
      sizes.set(table, { rows: Number(rows[0]!.rows), bytes: Number(rows[0]!.bytes) });
    }
    return sizes;
  } finally {
    await client.end();
  }
}
