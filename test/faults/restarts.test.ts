// Faults under load on the production build (test/faults/scenarios.ts): a burst of webhook events
// to an assistant and an automation while the worker, then the API, is SIGKILLed and started
// again; and a worker SIGKILLed while 200 automation runs are in flight. The tests assert outcomes
// (every acknowledged event and every run ends `success`, delivered under exactly one delivery
// id), never times; bench/faults/restart.bench.ts measures how long a restart delays work.
// The API and worker processes share one database, so these need PostgreSQL (an in-memory PGlite
// belongs to one process); the embedded path's one-process restart is test/faults/dev-runner-kill.test.ts.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildProduction } from '../helpers/production.js';
import { formatReport, runsInFlight, startFaultStack, webhookBurst, type FaultStack, type FaultStackOptions } from './scenarios.js';

describe.skipIf(!inject('databaseUrl'))('restarts under load (production build)', () => {
  let buildDir: string;
  let options: FaultStackOptions;
  const stacks: FaultStack[] = [];

  beforeAll(async () => {
    buildDir = await buildProduction(`faults-${process.pid}`);
    options = {
      buildDir,
      databaseUrl: inject('databaseUrl')!,
      redisUrl: inject('redisUrl'),
      temporalAddress: inject('temporalAddress'),
      bundlePath: inject('workflowBundlePath'),
      upstreamLatencyMs: 400,
    };
  });
  afterAll(async () => {
    await Promise.all(stacks.map((stack) => stack.stop()));
    if (buildDir) fs.rmSync(buildDir, { recursive: true, force: true });
  });

  it('ends every acknowledged webhook event in success, delivered once, while the worker and then the API are SIGKILLed', { timeout: 420_000 }, async () => {
    const stack = await startFaultStack(options);
    stacks.push(stack);
    const report = await webhookBurst(stack, { events: 90, lanes: 6, killWorkerAt: 1 / 3, killApiAt: 2 / 3 });
    process.stdout.write(`[faults] ${formatReport('webhook burst, worker and API killed', report)}\n`);
    expect(report.failures).toEqual([]);
    expect(report).toMatchObject({ events: 90, acknowledged: 90, success: 90, failure: 0, undelivered: 0, duplicates: 0 });
  });

  it('completes every automation run in flight when the worker is SIGKILLed, none twice', { timeout: 420_000 }, async () => {
    const stack = await startFaultStack({ ...options, upstreamLatencyMs: 1500 });
    stacks.push(stack);
    const report = await runsInFlight(stack, { runs: 200, databaseUrl: options.databaseUrl });
    process.stdout.write(`[faults] ${formatReport('200 runs in flight, worker killed', report)}\n`);
    expect(report.failures).toEqual([]);
    expect(report).toMatchObject({ acknowledged: 200, failed: 0, duplicated: 0, undelivered: 0 });
    expect(report.runs).toBeGreaterThanOrEqual(200);
    expect(report.completed).toBe(report.runs);
  });
});
