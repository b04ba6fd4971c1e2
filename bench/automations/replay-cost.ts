// Diagnostic: what a fire costs an automation entity workflow the worker no longer holds in its
// cache. Such a workflow is rebuilt by replaying its history (since its last continue-as-new)
// when its timer fires, so the cost grows with the history's length. Grows one automation's
// history with a per-second cron on a dev server (the fires are skipped, as while a run is still
// running: a local activity, an activity and the timer, like a fire that starts a run), then
// replays prefixes of that history of increasing length on one replay worker and reports the
// time per replay; and the workflow task time of the same fires when the workflow was cached.
//
//   npx tsx bench/automations/replay-cost.ts     (FIRES=300 by default: ~5 minutes, ~4,100 events;
//   HISTORY_FILE=<file> keeps the history and replays it again on the next run)
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import proto, { type temporal } from '@temporalio/proto';
import { NativeConnection, Runtime, Worker, makeTelemetryFilterString } from '@temporalio/worker';
import { freePort, startTemporalDevServer } from '../../src/dev/temporal-server.js';
import { clientDataConverter, createPayloadCodec, workerDataConverter } from '../../src/payloads/data-converters.js';
import { SEARCH_ATTRIBUTES } from '../../src/search-attributes.js';
import { writeWorkflowBundle } from '../../src/worker/bundle.js';
import type { AutomationWorkflow, AutomationWorkflowState } from '../../src/workflows/automation.contract.js';

const FIRES = Number(process.env.FIRES ?? 300);
const HISTORY_FILE = process.env.HISTORY_FILE;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const eventMs = (event: HistoryEvent) => Number(event.eventTime?.seconds ?? 0) * 1000 + Math.floor((event.eventTime?.nanos ?? 0) / 1e6);

/** The history cut right after its n-th WorkflowTaskStarted: what a worker replays for that task. */
function prefixAtTask(events: HistoryEvent[], task: number): HistoryEvent[] {
  let seen = 0;
  for (let i = 0; i < events.length; i += 1) {
    if (events[i]!.workflowTaskStartedEventAttributes && (seen += 1) === task) return events.slice(0, i + 1);
  }
  return events;
}

/** One automation's history grown by FIRES per-second fires, and the payload key it was written with. */
async function growHistory(): Promise<{ events: HistoryEvent[]; key: Buffer }> {
  const key = randomBytes(32);
  const codec = createPayloadCodec(key, {});
  const temporalServer = await startTemporalDevServer({ port: await freePort() });
  const connection = await NativeConnection.connect({ address: temporalServer.address });
  const taskQueue = `replay-${randomUUID()}`;
  const worker = await Worker.create({
    connection, namespace: 'default', taskQueue, workflowBundle: { codePath: await bundle() }, dataConverter: workerDataConverter(codec),
    activities: {
      saveScheduleState: async () => ({ exists: true }),
      endedRuns: async () => [],
    },
  });
  const running = worker.run();
  const clientConnection = await Connection.connect({ address: temporalServer.address });
  const organizationId = randomUUID();
  const client = new Client({ connection: clientConnection, namespace: 'default', dataConverter: clientDataConverter(codec, organizationId) });
  const automationId = randomUUID();
  const now = Date.now();
  // A run "still running" (carried over): every fire asks whether it ended, then skips and saves.
  const state: AutomationWorkflowState = {
    automationId, organizationId, status: 'active', schedule: '* * * * * *', timezone: 'UTC', nextRunAt: Math.ceil((now + 1000) / 1000) * 1000,
    running: [{ runId: randomUUID(), startedAt: now }], skippedFires: 0, version: 1, continueAsNewAfterEvents: 100_000, minIntervalSeconds: 1,
    runsTaskQueue: `${taskQueue}-runs`,
  };
  const handle = await client.workflow.start<AutomationWorkflow>('automationWorkflow', {
    workflowId: `automation/${automationId}`, taskQueue, args: [state],
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.OrganizationId, value: organizationId },
      { key: SEARCH_ATTRIBUTES.AutomationId, value: automationId },
    ],
  });
  const started = Date.now();
  let events: HistoryEvent[] = [];
  let fires = 0;
  while (fires < FIRES) {
    await new Promise((resolve) => setTimeout(resolve, 5000));
    // The first run only (the server may suggest a continue-as-new at ~4K events).
    events = (await client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).fetchHistory()).events ?? [];
    fires = events.filter((event) => event.timerFiredEventAttributes).length;
    process.stdout.write(`\r${fires} fires, ${events.length} events, ${((Date.now() - started) / 1000).toFixed(0)} s`);
    if (events.some((event) => event.workflowExecutionContinuedAsNewEventAttributes)) break;
  }
  process.stdout.write('\n');
  await client.workflow.getHandle(handle.workflowId).terminate('bench done').catch(() => undefined);
  worker.shutdown();
  await running;
  await clientConnection.close();
  await connection.close();
  await temporalServer.stop();
  return { events, key };
}

let bundlePath: string | undefined;
async function bundle(): Promise<string> {
  bundlePath ??= await writeWorkflowBundle(path.join(os.tmpdir(), `replay-cost-${process.pid}`, 'workflow-bundle.js'));
  return bundlePath;
}

async function main(): Promise<void> {
  Runtime.install({ telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} } } });
  // HISTORY_FILE=<file>: keep the grown history (and its key, <file>.key) to replay it again later.
  let grown: { events: HistoryEvent[]; key: Buffer };
  if (HISTORY_FILE && fs.existsSync(HISTORY_FILE)) {
    grown = { events: proto.temporal.api.history.v1.History.decode(fs.readFileSync(HISTORY_FILE)).events, key: Buffer.from(fs.readFileSync(`${HISTORY_FILE}.key`, 'utf8'), 'base64') };
  } else {
    grown = await growHistory();
    if (HISTORY_FILE) {
      fs.writeFileSync(HISTORY_FILE, proto.temporal.api.history.v1.History.encode({ events: grown.events }).finish());
      fs.writeFileSync(`${HISTORY_FILE}.key`, grown.key.toString('base64'));
    }
  }
  const { events } = grown;
  const codec = createPayloadCodec(grown.key, {});

  // The cached fires: each fire's workflow task, started to completed, from the history.
  const taskMs: number[] = [];
  for (let i = 0; i < events.length; i += 1) {
    if (!events[i]!.timerFiredEventAttributes) continue;
    const started = events.slice(i).find((event) => event.workflowTaskStartedEventAttributes);
    const completed = events.slice(i).find((event) => event.workflowTaskCompletedEventAttributes);
    if (started && completed) taskMs.push(eventMs(completed) - eventMs(started));
  }
  taskMs.sort((a, b) => a - b);

  // The evicted fires: replay prefixes of growing length (each what a worker replays at that fire).
  const totalTasks = events.filter((event) => event.workflowTaskStartedEventAttributes).length;
  const points = [1, 0.02, 0.05, 0.1, 0.25, 0.5, 0.75, 1].map((share, index) => (index === 0 ? 2 : Math.max(2, Math.round(totalTasks * share))));
  // The first replay also starts the replay worker's thread and loads the bundle: a warm-up.
  const histories = points.map((task) => ({ workflowId: `replay-${task}`, history: { events: prefixAtTask(events, task) } }));
  const rows: string[] = [];
  let last = Date.now();
  let lastCpu = process.cpuUsage();
  let index = 0;
  for await (const result of Worker.runReplayHistories({ workflowBundle: { codePath: await bundle() }, dataConverter: workerDataConverter(codec) }, histories)) {
    const ms = Date.now() - last;
    const cpu = process.cpuUsage(lastCpu);
    last = Date.now();
    lastCpu = process.cpuUsage();
    if (result.error) throw result.error;
    const history = histories[index]!.history.events;
    const fired = history.filter((event) => event.timerFiredEventAttributes).length;
    if (index > 0) rows.push(`| ${history.length} | ${fired} | ${ms} ms | ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms |`);
    index += 1;
  }
  process.stdout.write([
    '',
    `cached fires: workflow task started to completed p50 ${taskMs[Math.floor(taskMs.length / 2)]} ms, p99 ${taskMs[Math.floor(taskMs.length * 0.99)]} ms (${taskMs.length} fires)`,
    '',
    'evicted fires: one replay of the history up to that fire (replay worker: wall time, CPU time of all its threads)',
    '',
    '| history events | fires in it | replay wall | replay CPU |',
    '|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n'));
}

await main();
