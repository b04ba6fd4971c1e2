// Benchmark: what an outage of a dependency costs during a burst (docs/design.md "Targets", "outages";
// docs/operations.md "What an outage costs"). The production build on a Temporal dev server on a
// file of its own (so it can be SIGKILLed and started again) and a PostgreSQL server of its own
// (so it can be crashed; the machine's shared server is never touched), Redis when REDIS_URL is
// set. The scenario is the fault tests' (test/faults/outages.ts): webhook events from 4 senders for
// DURATION_S seconds plus an automation firing every 2 s, with, 5 s in:
//   - no fault (the baseline, same run);
//   - the Temporal server SIGKILLed, started again TEMPORAL_DOWN_S (10) seconds later;
//   - PostgreSQL crashed (`pg_ctl stop -m immediate`), started again POSTGRES_DOWN_S (5) seconds later.
// The table: events acknowledged and ended `success`, refusals (503 with Retry-After) and the
// slowest answer a sender waited for, seconds without an acknowledgment from the fault's start,
// seconds from the dependency's return until the last event was delivered, seconds from the last
// acknowledgment to the last delivery (the backlog the burst left; the baseline's is the steady lag),
// and the fired runs.
//
//   REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/faults/outage.bench.ts     (DURATION_S=30, SCENARIOS=none,temporal,postgres)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/orm.js';
import { entities } from '../../src/orm-entities.js';
import { writeWorkflowBundle } from '../../src/worker/bundle.js';
import { startPostgresServer } from '../../test/fixtures/postgres-server.js';
import { buildProduction } from '../../test/helpers/production.js';
import { killableTemporal, outageBurst, type OutageReport } from '../../test/faults/outages.js';
import { startFaultStack, type FaultStackOptions } from '../../test/faults/scenarios.js';

const DURATION_S = Number(process.env.DURATION_S ?? 30);
const TEMPORAL_DOWN_S = Number(process.env.TEMPORAL_DOWN_S ?? 10);
const POSTGRES_DOWN_S = Number(process.env.POSTGRES_DOWN_S ?? 5);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outage-bench-'));
const [temporal, postgres, bundlePath, buildDir] = await Promise.all([
  killableTemporal(dir),
  startPostgresServer(),
  writeWorkflowBundle(path.join(dir, 'workflow-bundle.js')),
  buildProduction(`outage-bench-${process.pid}`),
]);
await (await openDatabase({ databaseUrl: postgres.url }, { entities })).close();
const rows: string[] = [];
const pause = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
/** Which scenarios to run (default all): `none`, `temporal`, `postgres`. */
const ONLY = (process.env.SCENARIOS ?? 'none,temporal,postgres').split(',');
const scenarios = ([
  ['none', 'no fault', async () => undefined],
  ['temporal', `Temporal SIGKILLed, back after ${TEMPORAL_DOWN_S} s`, async () => {
    await temporal.kill();
    await pause(TEMPORAL_DOWN_S);
    await temporal.restart();
  }],
  ['postgres', `PostgreSQL crashed, back after ${POSTGRES_DOWN_S} s`, async () => {
    await postgres.crash();
    await pause(POSTGRES_DOWN_S);
    await postgres.start();
  }],
] as Array<[string, string, () => Promise<void>]>).filter(([id]) => ONLY.includes(id)).map(([, name, fault]) => [name, fault] as const);
try {
  for (const [name, fault] of scenarios) {
    const options: FaultStackOptions = {
      buildDir,
      databaseUrl: postgres.url,
      redisUrl: process.env.REDIS_URL,
      temporalAddress: temporal.address,
      bundlePath,
      upstreamLatencyMs: 300,
      env: { AUTOMATION_MIN_INTERVAL_SECONDS: '1', AUTOMATION_RECONCILE_ON_START: 'false' },
    };
    const stack = await startFaultStack(options);
    try {
      const report = await outageBurst(stack, {
        durationMs: DURATION_S * 1000, lanes: 4, intervalMs: 400, faultAtMs: 5_000, fault, firingSchedule: '*/2 * * * * *', databaseUrl: () => postgres.url,
      });
      rows.push(row(name, report));
      process.stdout.write(`${rows.at(-1)}\n`);
    } finally {
      await stack.stop();
    }
  }
} finally {
  await temporal.stop();
  await postgres.remove();
  fs.rmSync(buildDir, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
}

process.stdout.write([
  '',
  `Outages during a burst: webhook events from 4 senders for ${DURATION_S} s (upstream 300 ms) and an automation every 2 s; fault 5 s in; Redis ${process.env.REDIS_URL ? 'yes' : 'no'}`,
  '',
  '| scenario | events acknowledged | success | duplicates | refusals (503) | slowest answer | s without an ack | s from return to last delivery | s from last ack to last delivery | fired runs success / delivered |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows,
  '',
].join('\n'));

function row(name: string, r: OutageReport): string {
  const refusals = r.refusals.filter((refusal) => refusal.status === 503 && refusal.retryAfter).length;
  // Any other answer, by status and code (0: no answer within the sender's 15 s, or the connection cut).
  const others = r.refusals.filter((refusal) => !(refusal.status === 503 && refusal.retryAfter)).map((refusal) => `${refusal.status} ${refusal.code ?? ''}`.trim());
  const withoutAck = Number.isFinite(r.secondsWithoutAck) ? r.secondsWithoutAck.toFixed(1) : '-';
  return `| ${name} | ${r.burst.acknowledged} | ${r.burst.success} | ${r.burst.duplicates} | ${refusals}${others.length ? ` (+${others.length}: ${others.join(', ')})` : ''} | ${(r.slowestAnswerMs / 1000).toFixed(1)} s | ${withoutAck} | ${r.secondsToDrain.toFixed(1)} | ${r.secondsAfterBurst.toFixed(1)} | ${r.runs.success}/${r.runs.fired} / ${r.runs.delivered} |`;
}
