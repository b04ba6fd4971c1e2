// Creates the Temporal workers of one process: the pre-bundled workflows plus the activities built
// from their dependencies, on two task queues. The main queue carries the automation entity
// workflows (fires, updates, signals), webhook executions and diagnostics; the runs queue
// (TEMPORAL_RUNS_TASK_QUEUE) carries `run/<id>` workflows and their activities, so a burst of
// runs never delays another automation's fire. Used by the worker process, the dev runner and
// the tests.
import v8 from 'node:v8';
import { NativeConnection, Runtime, Worker, makeTelemetryFilterString, type LogLevel, type LogMetadata, type TunerHolder } from '@temporalio/worker';
import type { TLSConfig } from '@temporalio/common/lib/internal-non-workflow/tls-config.js';
import type { Logger } from '../logger.js';
import { createActivities } from '../activities/index.js';
import { runsTaskQueue } from '../config.js';
import { isNodeFlagGiven, WORKFLOW_THREAD_SEMI_SPACE_MB } from '../node-flags.js';
import { organizationActivityInterceptor } from '../payloads/activity-scope.js';
import { workerDataConverter } from '../payloads/data-converters.js';
import type { AppDeps } from '../runtime-deps.js';
import { workerTracingOptions } from '../telemetry/temporal-tracing.js';
import { FiresFirst } from './fires-first.js';

export interface WorkerOptions {
  address: string;
  /** TLS and API key of a production cluster (temporal-connection.ts). */
  tls?: TLSConfig;
  apiKey?: string;
  namespace: string;
  taskQueue: string;
  /** The run workflows' queue; default from the config (`<taskQueue>-runs`). */
  runsTaskQueue?: string;
  bundlePath: string;
  activityDeps: AppDeps;
  identity?: string;
  /** How long running activities get to finish when the worker stops (default 10 s). */
  shutdownGraceMs?: number;
  /** `host:port` for the Temporal SDK's Prometheus exporter; only the first worker of a process sets it. */
  metricsBindAddress?: string | undefined;
}

export interface RunningWorker {
  /** The main queue's worker (entity workflows, webhooks, diagnostics). */
  worker: Worker;
  /** The runs queue's worker. */
  runsWorker: Worker;
  connection: NativeConnection;
  /** Resolves when the worker stopped; rejects if it crashed. */
  done: Promise<void>;
  /** Drains: stops polling, lets running activities finish, then closes the connection. */
  stop(): Promise<void>;
}

let runtimeInstalled = false;

/**
 * Routes the SDK's own logs (WARN and above) into our JSON logger and, with a bind address,
 * serves the SDK's metrics (task latencies, slots, pollers, ...) for Prometheus; once per process.
 */
export function installWorkerRuntime(logger: Logger, metricsBindAddress?: string): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const sdkLogger = logger.child({ component: 'temporal-sdk' });
  const levels: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
    TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error',
  };
  const log = (level: LogLevel, message: string, meta?: LogMetadata) => sdkLogger[levels[level]](meta ?? {}, message);
  Runtime.install({
    logger: {
      log,
      trace: (m, meta) => log('TRACE', m, meta),
      debug: (m, meta) => log('DEBUG', m, meta),
      info: (m, meta) => log('INFO', m, meta),
      warn: (m, meta) => log('WARN', m, meta),
      error: (m, meta) => log('ERROR', m, meta),
    },
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} },
      ...(metricsBindAddress ? { metrics: { prometheus: { bindAddress: metricsBindAddress } } } : {}),
    },
  });
  if (metricsBindAddress) logger.info({ bindAddress: metricsBindAddress }, 'Temporal SDK metrics served for Prometheus');
}


/**
 * How far V8 lets a heap grow past what the last full GC left live before the next one, percent
 * (V8's default, 0, picks a factor of up to 4 from the GC's speed). In a burst of 1,000 fires the
 * worker's main thread (activities, the SDK's activations) had 95 MB live but 232 MB used at the
 * RSS peak: the rest was garbage awaiting a full GC. With 50 the burst's peak RSS was 484 MB
 * against 579-643 MB (bench/automations/fire-lateness.bench.ts with MEMORY_PROBE_DIR).
 */
export const WORKER_HEAP_GROWING_PERCENT = 50;

/**
 * V8 reads the young generation's bound when it creates an isolate, so setting the flag here, before
 * the SDK starts its workflow threads, bounds theirs; the main thread's own is set on the command
 * line (docker-compose.yml, `--max-semi-space-size`). The heap growing factor is read at each GC,
 * so it holds for every thread. A value given on the command line or in NODE_OPTIONS is kept.
 */
function boundWorkerHeaps(): void {
  if (!isNodeFlagGiven('--max-semi-space-size')) v8.setFlagsFromString(`--max-semi-space-size=${WORKFLOW_THREAD_SEMI_SPACE_MB}`);
  if (!isNodeFlagGiven('--heap-growing-percent')) v8.setFlagsFromString(`--heap-growing-percent=${WORKER_HEAP_GROWING_PERCENT}`);
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  installWorkerRuntime(options.activityDeps.logger, options.metricsBindAddress);
  boundWorkerHeaps();
  const config = options.activityDeps.config;
  const connection = await NativeConnection.connect({
    address: options.address,
    ...(options.tls ? { tls: options.tls } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    grpcCompression: grpcCompression(config),
  });
  const activities = createActivities(options.activityDeps);
  const tracingOptions = await workerTracingOptions();
  const common = {
    connection,
    namespace: options.namespace,
    // The bundle carries the sandbox's converters and interceptors (bundle.ts); these serve activities.
    workflowBundle: { codePath: options.bundlePath },
    dataConverter: workerDataConverter(options.activityDeps.temporal.codec),
    activities,
    ...(options.identity ? { identity: options.identity } : {}),
    shutdownGraceTime: options.shutdownGraceMs ?? 10_000,
    ...tracingOptions,
    // Both: the organization interceptor labels activity payloads, the tracing one (when on) spans them.
    interceptors: { activity: [organizationActivityInterceptor, ...(tracingOptions.interceptors?.activity ?? [])] },
  };
  const runsQueue = options.runsTaskQueue ?? runsTaskQueue(config);
  const separate = runsQueue !== options.taskQueue;
  const slots = capacities(config, separate);
  const worker = await Worker.create({ ...common, taskQueue: options.taskQueue, ...slots.main });
  // One queue for both (the dev runner): one SDK worker, one workflow thread, less memory.
  const runsWorker = separate ? await Worker.create({ ...common, taskQueue: runsQueue, ...slots.runs }) : worker;
  const workers = [...new Set([worker, runsWorker])];
  const done = Promise.all(workers.map((each) => each.run())).then(() => undefined);
  return {
    worker,
    runsWorker,
    connection,
    done,
    async stop() {
      for (const each of workers) if (each.getState() === 'RUNNING') each.shutdown();
      await done.catch(() => undefined);
      await connection.close();
    },
  };
}

/**
 * How many workflows each SDK worker keeps in memory between their tasks (the sticky cache), when
 * WORKER_MAX_CACHED_WORKFLOWS / WORKER_MAX_CACHED_RUNS do not say. The SDK's own default grows
 * with the heap limit (~2,300 on a 4 GB heap) and holds every automation a worker ever ran up to
 * that: 10,000 automations took 1,467 MB. What a cached workflow costs, measured (BENCHMARKS.md,
 * bench/automations/workflow-heap.ts): ~50 KB of the workflow thread's heap (mostly the SDK's
 * activator and the stack traces it keeps of each pending promise), ~20 KB of the main thread's and
 * ~20 KB of the Rust core's: ~90-110 KB of RSS in all. A workflow evicted from the cache is rebuilt
 * by replaying its history at its next task: for a sleeping automation that is its next fire, which
 * then replays the history since its last continue-as-new, ~0.75 ms of CPU per event, ~12.5 events
 * per fire (bench/automations/replay-cost.ts: 0.2 s after 13 fires, 2.8 s after 300), instead of a
 * ~20 ms task; memory stays bounded whatever the number of automations.
 *
 * The main queue holds the automation entity workflows, which sleep between fires: 3,000 keeps
 * 1,000 busy automations (and the webhook executions beside them) cached with room to spare, and
 * 10,000 registered automations within 800 MB (700 MB measured). The runs queue holds `run/<id>`
 * workflows, which live for seconds to minutes: its cache only has to cover runs between two of
 * their tasks, and a run evicted in a burst replays a history of a few dozen events; 250 bounds
 * what a burst of fires keeps cached on that queue.
 */
export const DEFAULT_MAX_CACHED_WORKFLOWS = 3000;
export const DEFAULT_MAX_CACHED_RUNS = 250;

type CapacityConfig = Pick<
  AppDeps['config'],
  | 'WORKER_MAX_CACHED_WORKFLOWS'
  | 'WORKER_MAX_CACHED_RUNS'
  | 'WORKER_MAX_CONCURRENT_ACTIVITIES'
  | 'WORKER_MAX_CONCURRENT_WORKFLOW_TASKS'
  | 'WORKER_RUNS_MAX_CONCURRENT_WORKFLOW_TASKS'
  | 'WORKER_RUN_TASKS_DURING_FIRES'
  | 'WORKER_STICKY_QUEUE_TIMEOUT_SECONDS'
>;

interface Capacity {
  stickyQueueScheduleToStartTimeout: number;
  maxCachedWorkflows: number;
  tuner: TunerHolder;
}

/** The SDK's own defaults for what one worker runs at once, kept where the environment says nothing. */
const SDK_WORKFLOW_TASKS = 40;
const SDK_ACTIVITIES = 100;
const SDK_LOCAL_ACTIVITIES = 100;
const SDK_NEXUS_TASKS = 100;

const fixed = (numSlots: number) => ({ type: 'fixed-size', numSlots }) as const;

/**
 * No more workflow tasks at once than the cache holds (each task's workflow must be in it), and
 * never fewer than 2 with a cache: the rule the SDK applies to maxConcurrentWorkflowTaskExecutions,
 * which it does not apply to a tuner's slots.
 */
const withinCache = (tasks: number, cache: number) => (cache > 0 ? Math.max(2, Math.min(tasks, cache)) : tasks);

/**
 * Each queue's worker settings: the sticky queue timeout, its cache bound and its slots. With a
 * runs queue of its own, the two queues' workflow task slots are tied by `FiresFirst`: while a
 * main-queue task (an automation's fire) is being handled, the runs queue's worker takes at most
 * WORKER_RUN_TASKS_DURING_FIRES tasks, and all of its slots again once the main queue is quiet.
 */
export function capacities(config: CapacityConfig, runsQueueOfItsOwn: boolean): { main: Capacity; runs: Capacity } {
  const mainCache = config.WORKER_MAX_CACHED_WORKFLOWS ?? DEFAULT_MAX_CACHED_WORKFLOWS;
  const runsCache = config.WORKER_MAX_CACHED_RUNS ?? DEFAULT_MAX_CACHED_RUNS;
  const workflowTasks = withinCache(config.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS ?? SDK_WORKFLOW_TASKS, mainCache);
  const runTasks = withinCache(config.WORKER_RUNS_MAX_CONCURRENT_WORKFLOW_TASKS ?? config.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS ?? SDK_WORKFLOW_TASKS, runsCache);
  const gate = runsQueueOfItsOwn ? new FiresFirst(workflowTasks, runTasks, config.WORKER_RUN_TASKS_DURING_FIRES) : undefined;
  const others = {
    activityTaskSlotSupplier: fixed(config.WORKER_MAX_CONCURRENT_ACTIVITIES ?? SDK_ACTIVITIES),
    localActivityTaskSlotSupplier: fixed(SDK_LOCAL_ACTIVITIES),
    nexusTaskSlotSupplier: fixed(SDK_NEXUS_TASKS),
  };
  const stickyQueueScheduleToStartTimeout = config.WORKER_STICKY_QUEUE_TIMEOUT_SECONDS * 1000;
  return {
    main: {
      stickyQueueScheduleToStartTimeout,
      maxCachedWorkflows: mainCache,
      tuner: { workflowTaskSlotSupplier: gate?.mainSlots ?? fixed(workflowTasks), ...others },
    },
    runs: {
      stickyQueueScheduleToStartTimeout,
      maxCachedWorkflows: runsCache,
      tuner: { workflowTaskSlotSupplier: gate?.runSlots ?? fixed(runTasks), ...others },
    },
  };
}

/**
 * The worker connection's gRPC compression. The SDK gzips every request by default; our payloads
 * are encrypted (nothing to gain there), and each compressed request allocates a ~370 KB deflate
 * state that glibc's allocator reuses badly: with gzip, 1,000 more cached workflows took ~250 MB
 * of RSS instead of ~90 MB (bench/automations/workflow-heap.ts, GRPC_COMPRESSION).
 */
export function grpcCompression(config: Pick<AppDeps['config'], 'WORKER_GRPC_COMPRESSION'>): { codec: 'none' | 'gzip' } {
  return { codec: config.WORKER_GRPC_COMPRESSION };
}
