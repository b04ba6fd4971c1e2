// Benchmark: what a SIGKILL of the worker or the API costs under load (docs/design.md "Targets",
// "faults"). The production build on PostgreSQL (+ Redis when REDIS_URL is set) and a fresh
// Temporal dev server; the scenarios are the fault tests' (test/faults/scenarios.ts):
//   - a burst of EVENTS webhook events (half to an assistant, half to an automation), first with
//     no fault (the baseline, same run), then with the worker SIGKILLed and restarted a third of
//     the way in and the API two thirds in;
//   - RUNS manual runs in flight when the worker is SIGKILLed and restarted.
// Each for every WORKER_STICKY_QUEUE_TIMEOUT_SECONDS in STICKY (default "30,10"). The table:
// events, acknowledged, success, failure, undelivered, duplicates (an event delivered under a second
// id), repeats (the same id again), the baseline's median seconds from acknowledgment to delivery,
// and the delay (the slowest event less that median); for runs: completed, duplicated, seconds
// from the kill until every run had ended.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 \
//     npx tsx bench/faults/restart.bench.ts          (EVENTS=150, RUNS=200, STICKY=30,10)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/orm.js';
import { entities } from '../../src/orm-entities.js';
import { freePort, startTemporalDevServer } from '../../src/dev/temporal-server.js';
import { writeWorkflowBundle } from '../../src/worker/bundle.js';
import { buildProduction } from '../../test/helpers/production.js';
import { createScratchDatabase } from '../../test/helpers/scratch-database.js';
import { runsInFlight, startFaultStack, webhookBurst, type BurstReport, type FaultStackOptions, type InFlightReport } from '../../test/faults/scenarios.js';

const EVENTS = Number(process.env.EVENTS ?? 150);
const RUNS = Number(process.env.RUNS ?? 200);
const STICKY = (process.env.STICKY ?? '30,10').split(',').map(Number);
const UPSTREAM_LATENCY_MS = Number(process.env.UPSTREAM_LATENCY_MS ?? 400);
const BASE_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const temporal = await startTemporalDevServer({ port: await freePort() });
const bundlePath = await writeWorkflowBundle(path.join(os.tmpdir(), `faults-bench-${process.pid}`, 'workflow-bundle.js'));
const database = await createScratchDatabase(BASE_DATABASE_URL, 'faults_bench');
await (await openDatabase({ databaseUrl: database.url }, { entities })).close();
const buildDir = await buildProduction(`faults-bench-${process.pid}`);
const rows: string[] = [];
try {
  for (const sticky of STICKY) {
    const options: FaultStackOptions = {
      buildDir,
      databaseUrl: database.url,
      redisUrl: process.env.REDIS_URL,
      temporalAddress: temporal.address,
      bundlePath,
      upstreamLatencyMs: UPSTREAM_LATENCY_MS,
      env: { WORKER_STICKY_QUEUE_TIMEOUT_SECONDS: String(sticky) },
    };
    for (const [name, kills] of [['no fault', {}], ['worker and API killed', { killWorkerAt: 1 / 3, killApiAt: 2 / 3 }]] as const) {
      const stack = await startFaultStack(options);
      try {
        const report = await webhookBurst(stack, { events: EVENTS, lanes: 8, ...kills });
        rows.push(burstRow(`webhook burst, ${name}`, sticky, report));
        process.stdout.write(`${rows.at(-1)}\n`);
      } finally {
        await stack.stop();
      }
    }
    const stack = await startFaultStack({ ...options, upstreamLatencyMs: 1500 });
    try {
      const report = await runsInFlight(stack, { runs: RUNS, databaseUrl: database.url });
      rows.push(runsRow(sticky, report));
      process.stdout.write(`${rows.at(-1)}\n`);
    } finally {
      await stack.stop();
    }
  }
} finally {
  await temporal.stop();
  await database.drop();
  fs.rmSync(buildDir, { recursive: true, force: true });
  fs.rmSync(path.dirname(bundlePath), { recursive: true, force: true });
}

process.stdout.write([
  '',
  `Restarts under load: ${EVENTS} webhook events (8 senders, upstream ${UPSTREAM_LATENCY_MS} ms), ${RUNS} runs in flight (upstream 1500 ms); Redis ${process.env.REDIS_URL ? 'yes' : 'no'}`,
  '',
  '| scenario | sticky timeout | events / runs | acknowledged | success | failure | undelivered | duplicates | repeats | baseline median (s) | delay (s) |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows,
  '',
].join('\n'));

function burstRow(name: string, sticky: number, r: BurstReport): string {
  return `| ${name} | ${sticky} s | ${r.events} | ${r.acknowledged} | ${r.success} | ${r.failure} | ${r.undelivered} | ${r.duplicates} | ${r.repeats} | ${r.baselineSeconds.toFixed(1)} | ${r.delaySeconds.toFixed(1)} |`;
}

function runsRow(sticky: number, r: InFlightReport): string {
  return `| ${r.runs} runs in flight, worker killed | ${sticky} s | ${r.runs} | ${r.acknowledged} | ${r.completed} | ${r.failed} | ${r.undelivered} | ${r.duplicated} | ${r.repeats} | - | ${r.secondsToFinishAfterKill.toFixed(1)} (kill to last run) |`;
}
