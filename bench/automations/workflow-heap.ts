// Diagnostic: what one cached automation entity workflow costs the worker, and where. Starts a
// dev server and one SDK worker in this process (no activities: an idle automation's first task
// calls none), starts idle (yearly) automation workflows in two steps, and after each reports the
// RSS and both threads' V8 heaps (used and committed, after a full GC), and writes a heap snapshot
// of the workflow thread. `heap-diff.ts a b N` then names the heap's growth per workflow by
// constructor, `heap-retained.ts b ReusableVMWorkflow` what one workflow retains. RSS minus the
// heaps is native memory (the Rust core, and what the allocator keeps; `SMAPS=1` saves
// /proc/self/smaps at each step). Memory only: the snapshots themselves inflate the RSS, so take
// RSS figures with SNAPSHOTS=0.
//
//   node --expose-gc --import tsx bench/automations/workflow-heap.ts
//   (FIRST=200 SECOND=600 by default; HEAP_DIR=<dir> for the snapshots, default a temp dir;
//   MAX_CACHED=<n> bounds the cache; SNAPSHOTS=0 skips them; GRPC_COMPRESSION=gzip: the SDK's default)
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import v8 from 'node:v8';
import workerThreads from 'node:worker_threads';
import { Client } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, makeTelemetryFilterString } from '@temporalio/worker';
import { freePort, startTemporalDevServer } from '../../src/dev/temporal-server.js';
import { clientDataConverter, createPayloadCodec, workerDataConverter } from '../../src/payloads/data-converters.js';
import { SEARCH_ATTRIBUTES } from '../../src/search-attributes.js';
import { writeWorkflowBundle } from '../../src/worker/bundle.js';
import type { AutomationWorkflow, AutomationWorkflowState } from '../../src/workflows/automation.contract.js';

const FIRST = Number(process.env.FIRST ?? 200);
const SECOND = Number(process.env.SECOND ?? 600);
const MAX_CACHED = process.env.MAX_CACHED ? Number(process.env.MAX_CACHED) : 100_000;
const HEAP_DIR = process.env.HEAP_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'workflow-heap-'));
const SNAPSHOTS = process.env.SNAPSHOTS !== '0';

// The SDK creates its workflow thread with `new worker_threads.Worker(path)` when the worker is
// created. Start it through a small wrapper instead, which answers heap statistics (after a full
// GC there) on a port of its own, then loads the SDK's thread script unchanged.
const WRAPPER = `
const { workerData } = require('node:worker_threads');
const v8 = require('node:v8');
v8.setFlagsFromString('--expose_gc');
const collect = require("node:vm").runInNewContext("gc");
workerData.__heapPort.on("message", () => { collect(); workerData.__heapPort.postMessage(v8.getHeapStatistics()); });
require(workerData.__target);
`;
const threads: { thread: workerThreads.Worker; stats: () => Promise<v8.HeapInfo> }[] = [];
const OriginalWorker = workerThreads.Worker;
(workerThreads as { Worker: typeof OriginalWorker }).Worker = class extends OriginalWorker {
  constructor(target: string | URL, options: workerThreads.WorkerOptions = {}) {
    const { port1, port2 } = new workerThreads.MessageChannel();
    super(WRAPPER, { ...options, eval: true, workerData: { __heapPort: port2, __target: String(target) }, transferList: [port2] });
    port1.unref();
    threads.push({
      thread: this,
      stats: () => new Promise((resolve) => {
        port1.once('message', resolve);
        port1.postMessage('stats');
      }),
    });
  }
} as typeof OriginalWorker;

async function inPool<T>(items: T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
  }));
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024;

/** A heap snapshot of the workflow thread (taking it runs a full GC there first). */
async function snapshot(label: string): Promise<string | undefined> {
  if (!SNAPSHOTS) return undefined;
  const file = path.join(HEAP_DIR, `${label}.heapsnapshot`);
  await pipeline(await threads[0]!.thread.getHeapSnapshot(), fs.createWriteStream(file));
  return file;
}

async function main(): Promise<void> {
  Runtime.install({ telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} } } });
  const temporal = await startTemporalDevServer({ port: await freePort() });
  const bundlePath = await writeWorkflowBundle(path.join(HEAP_DIR, 'workflow-bundle.js'));
  const codec = createPayloadCodec(randomBytes(32), {});
  const connection = await NativeConnection.connect({
    address: temporal.address,
    // As the worker connects (src/worker/worker.ts); GRPC_COMPRESSION=gzip for the SDK's default.
    grpcCompression: { codec: process.env.GRPC_COMPRESSION === 'gzip' ? 'gzip' : 'none' },
  });
  const taskQueue = `heap-${randomUUID()}`;
  const worker = await Worker.create({
    connection,
    namespace: 'default',
    taskQueue,
    workflowBundle: { codePath: bundlePath },
    dataConverter: workerDataConverter(codec),
    maxCachedWorkflows: MAX_CACHED,
  });
  const running = worker.run();
  const { Connection } = await import('@temporalio/client');
  const clientConnection = await Connection.connect({ address: temporal.address });
  const organizationId = randomUUID();
  const client = new Client({ connection: clientConnection, namespace: 'default', dataConverter: clientDataConverter(codec, organizationId) });
  const nextYear = Date.UTC(new Date().getUTCFullYear() + 1, 0, 1);

  let started = 0;
  async function startIdle(count: number): Promise<void> {
    await inPool(Array.from({ length: count }, (_, i) => started + i), 50, async () => {
      const automationId = randomUUID();
      const state: AutomationWorkflowState = {
        automationId, organizationId, status: 'active', schedule: '0 0 1 1 *', timezone: 'UTC', nextRunAt: nextYear,
        running: [], skippedFires: 0, version: 1, continueAsNewAfterEvents: 1000, minIntervalSeconds: 60, runsTaskQueue: `${taskQueue}-runs`,
      };
      await client.workflow.start<AutomationWorkflow>('automationWorkflow', {
        workflowId: `automation/${automationId}`, taskQueue, args: [state],
        typedSearchAttributes: [
          { key: SEARCH_ATTRIBUTES.OrganizationId, value: organizationId },
          { key: SEARCH_ATTRIBUTES.AutomationId, value: automationId },
        ],
      });
    });
    started += count;
    // Every first task done: the worker holds `started` workflows (or its cache bound).
    const deadline = Date.now() + 300_000;
    while (Date.now() < deadline) {
      const cached = worker.getStatus().numCachedWorkflows;
      if (cached >= Math.min(started, MAX_CACHED)) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }

  const report: string[] = [];
  const measure = async (label: string) => {
    global.gc?.();
    const main = v8.getHeapStatistics();
    const thread = await threads[0]!.stats();
    const shot = await snapshot(label);
    if (process.env.SMAPS) fs.writeFileSync(path.join(HEAP_DIR, `${label}.smaps`), fs.readFileSync('/proc/self/smaps'));
    const line = `${label}: started ${started}, cached ${worker.getStatus().numCachedWorkflows}, RSS ${mb(rss())}; ` +
      `main heap used ${mb(main.used_heap_size)} of ${mb(main.total_heap_size)}, external ${mb(main.external_memory)}, malloced ${mb(main.malloced_memory)}; ` +
      `workflow thread heap used ${mb(thread.used_heap_size)} of ${mb(thread.total_heap_size)}, external ${mb(thread.external_memory)}, malloced ${mb(thread.malloced_memory)}` +
      (shot ? `; snapshot ${shot}` : '');
    report.push(line);
    process.stdout.write(`${line}\n`);
  };
  await measure('start');
  await startIdle(FIRST);
  await measure(`n${FIRST}`);
  await startIdle(SECOND - FIRST);
  await measure(`n${SECOND}`);
  process.stdout.write(`\n${report.join('\n')}\n`);
  worker.shutdown();
  await running;
  await clientConnection.close();
  await connection.close();
  await temporal.stop();
}

await main();
