// The Temporal server SIGKILLed 5 s into a burst of webhook events (an automation firing every
// 2 s meanwhile), started again 10 s later on the same SQLite file, on the production build
// (test/faults/outages.ts). Asserts outcomes only: every acknowledged event ends `success` under
// one delivery id, every fired run ends `success` and is delivered once, and while the server is
// away a sender gets 503 service_unavailable with Retry-After, never a hang.
// API and worker processes share one database, so this needs PostgreSQL (as test/faults/restarts.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from '../helpers/http.js';
import { buildProduction } from '../helpers/production.js';
import { killableTemporal, outageBurst } from './outages.js';
import { startFaultStack, type FaultStack } from './scenarios.js';

describe.skipIf(!inject('databaseUrl'))('Temporal server outage during a burst (production build)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-outage-'));
  let buildDir: string;
  let temporal: Awaited<ReturnType<typeof killableTemporal>> | undefined;
  let stack: FaultStack | undefined;

  beforeAll(async () => {
    [buildDir, temporal] = await Promise.all([buildProduction(`temporal-outage-${process.pid}`), killableTemporal(dir)]);
  }, 600_000); // tsc of the whole tree: minutes on a busy machine
  afterAll(async () => {
    await stack?.stop();
    await temporal?.stop();
    if (buildDir) fs.rmSync(buildDir, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('acknowledges only durable events, answers 503 with Retry-After while the server is away, and ends every event and fire in success once', { timeout: 480_000 }, async () => {
    stack = await startFaultStack({
      buildDir,
      databaseUrl: inject('databaseUrl')!,
      redisUrl: inject('redisUrl'),
      temporalAddress: temporal!.address,
      bundlePath: inject('workflowBundlePath'),
      upstreamLatencyMs: 300,
      env: { AUTOMATION_MIN_INTERVAL_SECONDS: '1', AUTOMATION_RECONCILE_ON_START: 'false' },
    });
    // Other routes that need Temporal, asked once the server is down: a run-now (an Update to the
    // automation's workflow) and a new automation (its workflow's start).
    const key = stack.org.owner.key;
    const paused = await call(stack.baseUrl, 'POST', '/automations', { key, body: { name: 'Idle', systemPrompt: 'x', schedule: '0 0 1 1 *', status: 'paused' } });
    expect(paused.status, paused.text).toBe(201);
    const timed = async (route: string, body?: unknown) => {
      const began = Date.now();
      const res = await call(stack!.baseUrl, 'POST', route, { key, body });
      return { status: res.status, code: (res.body as any)?.error?.code, retryAfter: res.headers.get('retry-after'), ms: Date.now() - began };
    };
    const otherRoutes: Array<Awaited<ReturnType<typeof timed>>> = [];
    const report = await outageBurst(stack, {
      durationMs: 30_000,
      lanes: 4,
      intervalMs: 400,
      faultAtMs: 5_000,
      fault: async () => {
        await temporal!.kill();
        const downAt = Date.now();
        otherRoutes.push(await timed(`/automations/${paused.body.id}/run`));
        otherRoutes.push(await timed('/automations', { name: 'During the outage', systemPrompt: 'x', schedule: '0 0 1 1 *' }));
        await new Promise((resolve) => setTimeout(resolve, 10_000 - (Date.now() - downAt))); // the rest of the outage itself
        await temporal!.restart();
      },
      firingSchedule: '*/2 * * * * *',
      databaseUrl: () => inject('databaseUrl')!,
    });
    process.stdout.write(`[faults] Temporal outage: ${JSON.stringify({ ...report.burst, refusals: report.refusals.length, slowestAnswerMs: report.slowestAnswerMs, secondsWithoutAck: report.secondsWithoutAck, secondsToDrain: report.secondsToDrain, secondsAfterBurst: report.secondsAfterBurst, runs: report.runs, otherRoutes })}\n`);

    expect(report.burst.failures).toEqual([]);
    expect(report.burst).toMatchObject({ failure: 0, undelivered: 0, duplicates: 0 });
    expect(report.burst.acknowledged).toBe(report.burst.events);
    expect(report.burst.success).toBe(report.burst.events);
    // The outage was felt: senders were refused, each with the documented answer, never left hanging.
    expect(report.refusals.length).toBeGreaterThan(0);
    for (const refusal of report.refusals) {
      expect(refusal).toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: expect.stringMatching(/^\d+$/) });
      expect(refusal.ms).toBeLessThan(8_000);
    }
    for (const answer of otherRoutes) {
      expect(answer).toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: expect.stringMatching(/^\d+$/) });
      expect(answer.ms).toBeLessThan(8_000);
    }
    expect(report.runs.failed).toEqual([]);
    expect(report.runs.fired).toBeGreaterThan(0);
    expect(report.runs).toMatchObject({ success: report.runs.fired, delivered: report.runs.fired, duplicates: 0 });
  });
});
