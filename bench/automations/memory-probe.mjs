// Diagnostic preload for a worker process (`node --import ./bench/automations/memory-probe.mjs
// dist/worker/main.js`, which fire-lateness.bench.ts adds with MEMORY_PROBE_DIR): whenever a file
// named `request` appears in MEMORY_PROBE_DIR/<pid> it removes it and writes there one JSON report of where the process's memory is: the RSS and
// smaps_rollup (anonymous vs file-backed), the anonymous mappings grouped by size (glibc arenas
// reserve 64 MB each, thread stacks 8 MB, V8 pages are smaller), process.memoryUsage(), and the
// V8 heap (per space) of the main thread and of every worker thread (the SDK's workflow threads),
// each after a full GC; and peak.json, the same taken without GC when the RSS was highest. With MEMORY_PROBE_SNAPSHOTS=1 it also writes a heap snapshot of each
// isolate (heap-diff.ts and heap-retained.ts read them; taking them inflates the RSS). Plain
// JavaScript: it runs in the production build's process, without the transpiler. (Not a signal:
// the Temporal SDK's runtime shuts its workers down on SIGUSR2.)
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { pipeline } from 'node:stream/promises';
import { setInterval } from 'node:timers';
import { URL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import workerThreads from 'node:worker_threads';

// One directory per process (the supervisor's children each have their own).
const DIR = process.env.MEMORY_PROBE_DIR && path.join(process.env.MEMORY_PROBE_DIR, String(process.pid));
const SNAPSHOTS = process.env.MEMORY_PROBE_SNAPSHOTS === '1';
v8.setFlagsFromString('--expose_gc');
const collect = vm.runInNewContext('gc');

// The SDK starts each workflow thread with `new worker_threads.Worker(path)`: start it through a
// wrapper that answers heap statistics (after a full GC there) on a port of its own.
const WRAPPER = `
const { workerData } = require('node:worker_threads');
const v8 = require('node:v8');
v8.setFlagsFromString('--expose_gc');
const collect = require('node:vm').runInNewContext('gc');
workerData.__probePort.on('message', (request) => {
  if (request === 'stats') collect();
  workerData.__probePort.postMessage({ heap: v8.getHeapStatistics(), spaces: v8.getHeapSpaceStatistics(), usage: process.memoryUsage() });
});
workerData.__probePort.unref();
const target = workerData.__probeTarget;
workerData.__probeTarget = undefined;
require(target);
`;
const threads = [];
const OriginalWorker = workerThreads.Worker;
workerThreads.Worker = class extends OriginalWorker {
  constructor(target, options = {}) {
    if (options.eval) {
      super(target, options);
      return;
    }
    const { port1, port2 } = new workerThreads.MessageChannel();
    const workerData = { ...options.workerData, __probePort: port2, __probeTarget: String(target instanceof URL ? target.pathname : target) };
    super(WRAPPER, { ...options, eval: true, workerData, transferList: [...(options.transferList ?? []), port2] });
    port1.unref();
    const index = threads.length;
    threads.push({
      index,
      thread: this,
      // 'stats' after a full GC in the thread, 'sample' as it is.
      stats: (request = 'stats') => new Promise((resolve) => {
        port1.once('message', resolve);
        port1.postMessage(request);
      }),
    });
  }
};

const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;

function heapSummary(heap, spaces) {
  return {
    usedMb: mb(heap.used_heap_size),
    committedMb: mb(heap.total_heap_size),
    externalMb: mb(heap.external_memory),
    mallocedMb: mb(heap.malloced_memory),
    peakMallocedMb: mb(heap.peak_malloced_memory),
    contexts: heap.number_of_native_contexts,
    spaces: Object.fromEntries(spaces.map((space) => [space.space_name, { usedMb: mb(space.space_used_size), committedMb: mb(space.space_size) }])),
  };
}

/** /proc/self/smaps: resident memory by kind of mapping. */
function smapsSummary() {
  const byFile = new Map();
  const anonBySize = new Map();
  let current;
  const flush = () => {
    if (!current) return;
    if (current.name && !current.name.startsWith('[')) {
      byFile.set(current.name, (byFile.get(current.name) ?? 0) + current.rss);
    } else {
      // Group anonymous mappings by reserved size: 64 MB (and 128 MB) are glibc arenas and
      // large V8 reservations, 8 MB + a page are thread stacks, the rest V8 pages and malloc'ed blocks.
      const bucket = current.name === '[heap]' ? '[heap] (brk: main arena)' : current.name === '[stack]' ? '[stack]' :
        current.sizeKb >= 65536 ? `${Math.round(current.sizeKb / 1024)} MB mappings` :
          current.sizeKb >= 8192 && current.sizeKb <= 8200 ? '8 MB mappings (thread stacks)' :
            current.sizeKb >= 1024 ? '1-64 MB mappings' : '< 1 MB mappings';
      const entry = anonBySize.get(bucket) ?? { count: 0, rssKb: 0 };
      entry.count += 1;
      entry.rssKb += current.rss;
      anonBySize.set(bucket, entry);
    }
  };
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      flush();
      current = { name: header[3], sizeKb: (parseInt(header[2], 16) - parseInt(header[1], 16)) / 1024, rss: 0 };
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) current.rss = Number(rss[1]);
  }
  flush();
  const files = [...byFile].filter(([, kb]) => kb >= 1024).sort((a, b) => b[1] - a[1]).map(([name, kb]) => ({ name, rssMb: mb(kb * 1024) }));
  const anonymous = [...anonBySize].sort((a, b) => b[1].rssKb - a[1].rssKb).map(([bucket, { count, rssKb }]) => ({ bucket, count, rssMb: mb(rssKb * 1024) }));
  return { anonymous, files };
}

function rollup() {
  const text = fs.readFileSync('/proc/self/smaps_rollup', 'utf8');
  const field = (name) => mb(Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024);
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const statusField = (name) => mb(Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024);
  return {
    rssMb: field('Rss'), anonymousMb: field('Anonymous'), fileMb: statusField('RssFile'), shmemMb: statusField('RssShmem'),
    peakMb: statusField('VmHWM'), threads: Number(/^Threads:\s+(\d+)/m.exec(status)?.[1]),
  };
}

/** Where the memory is now: after a full GC in every isolate (`gc`), or as it is (a sample). */
async function measure(gc) {
  if (gc) collect();
  const result = {
    at: new Date().toISOString(),
    process: rollup(),
    memoryUsage: Object.fromEntries(Object.entries(process.memoryUsage()).map(([key, value]) => [key, mb(value)])),
    main: heapSummary(v8.getHeapStatistics(), v8.getHeapSpaceStatistics()),
    threads: [],
    smaps: smapsSummary(),
  };
  for (const { index, stats } of threads) {
    const { heap, spaces } = await stats(gc ? 'stats' : 'sample');
    result.threads.push({ index, ...heapSummary(heap, spaces) });
  }
  return result;
}

let reports = 0;
async function report(snapshots) {
  const label = `${String(++reports).padStart(2, '0')}`;
  const result = await measure(true);
  if (snapshots) {
    for (const { index, thread } of threads) {
      await pipeline(await thread.getHeapSnapshot(), fs.createWriteStream(path.join(DIR, `${label}-thread${index}.heapsnapshot`)));
    }
    v8.writeHeapSnapshot(path.join(DIR, `${label}-main.heapsnapshot`));
  }
  fs.writeFileSync(path.join(DIR, `${label}.json`), `${JSON.stringify(result, null, 2)}\n`);
}

// The peak: every second, when the RSS is above the highest seen so far (by 4 MB), a sample
// without GC, written as peak.json (the heaps as they were when the process was largest).
let highestMb = 0;
async function samplePeak() {
  const rssMb = Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
  if (rssMb < highestMb + 4) return;
  highestMb = rssMb;
  fs.writeFileSync(path.join(DIR, 'peak.json'), `${JSON.stringify(await measure(false), null, 2)}\n`);
}

if (DIR) {
  fs.mkdirSync(DIR, { recursive: true });
  const request = path.join(DIR, 'request');
  let busy = false;
  setInterval(() => {
    if (busy || !fs.existsSync(request)) return;
    busy = true;
    // A request that says `no-snapshot` wants the report only (the soak's reports between its first and last).
    const snapshots = SNAPSHOTS && fs.readFileSync(request, 'utf8').trim() !== 'no-snapshot';
    fs.rmSync(request, { force: true });
    report(snapshots)
      .catch((error) => process.stderr.write(`memory probe: ${error.stack}\n`))
      .finally(() => { busy = false; });
  }, 250).unref();
  let sampling = false;
  setInterval(() => {
    if (sampling || busy) return;
    sampling = true;
    samplePeak()
      .catch((error) => process.stderr.write(`memory probe: ${error.stack}\n`))
      .finally(() => { sampling = false; });
  }, 1000).unref();
}
