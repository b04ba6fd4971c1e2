// The worker's cache bounds and connection settings: our defaults unless the environment says
// otherwise (src/worker/worker.ts explains the numbers).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { capacities, DEFAULT_MAX_CACHED_RUNS, DEFAULT_MAX_CACHED_WORKFLOWS, grpcCompression } from './worker.js';

describe('worker capacity', () => {
  it('bounds each queue\'s workflow cache by default, the runs queue tighter than the main one', () => {
    const { main, runs } = capacities(loadConfig({}), true);
    expect(main.maxCachedWorkflows).toBe(DEFAULT_MAX_CACHED_WORKFLOWS);
    expect(runs.maxCachedWorkflows).toBe(DEFAULT_MAX_CACHED_RUNS);
    expect(DEFAULT_MAX_CACHED_RUNS).toBeLessThan(DEFAULT_MAX_CACHED_WORKFLOWS);
    // Never below the SDK's 40 concurrent workflow tasks (the SDK would lower those to the cache size).
    expect(DEFAULT_MAX_CACHED_RUNS).toBeGreaterThanOrEqual(40);
    // A blank variable is unset.
    expect(capacities(loadConfig({ WORKER_MAX_CACHED_WORKFLOWS: ' ' }), true).main.maxCachedWorkflows).toBe(DEFAULT_MAX_CACHED_WORKFLOWS);
  });

  it('takes WORKER_MAX_CACHED_WORKFLOWS for the main queue and WORKER_MAX_CACHED_RUNS for the runs queue', () => {
    const config = loadConfig({ WORKER_MAX_CACHED_WORKFLOWS: '500', WORKER_MAX_CACHED_RUNS: '0', WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: '8', WORKER_MAX_CONCURRENT_ACTIVITIES: '12' });
    const { main, runs } = capacities(config, false);
    expect(main).toMatchObject({ maxCachedWorkflows: 500, tuner: { workflowTaskSlotSupplier: { type: 'fixed-size', numSlots: 8 }, activityTaskSlotSupplier: { numSlots: 12 } } });
    // 0 turns the cache off (every task replays its history).
    expect(runs).toMatchObject({ maxCachedWorkflows: 0, tuner: { workflowTaskSlotSupplier: { type: 'fixed-size', numSlots: 8 }, activityTaskSlotSupplier: { numSlots: 12 } } });
    expect(() => loadConfig({ WORKER_MAX_CACHED_RUNS: '-1' })).toThrow(/WORKER_MAX_CACHED_RUNS/);
  });

  it('ties the two queues\' workflow task slots together when runs have a queue of their own', () => {
    const { main, runs } = capacities(loadConfig({ WORKER_RUNS_MAX_CONCURRENT_WORKFLOW_TASKS: '6' }), true);
    expect(main.tuner.workflowTaskSlotSupplier.type).toBe('custom');
    expect(runs.tuner.workflowTaskSlotSupplier.type).toBe('custom');
    expect(runs.tuner.activityTaskSlotSupplier).toEqual({ type: 'fixed-size', numSlots: 100 });
    expect(() => loadConfig({ WORKER_RUN_TASKS_DURING_FIRES: '0' })).toThrow(/WORKER_RUN_TASKS_DURING_FIRES/);
  });

  it('runs no more workflow tasks at once than the queue\'s cache holds, as the SDK does for its own option', () => {
    const { main, runs } = capacities(loadConfig({ WORKER_MAX_CACHED_WORKFLOWS: '10', WORKER_MAX_CACHED_RUNS: '20' }), false);
    expect(main.tuner.workflowTaskSlotSupplier).toEqual({ type: 'fixed-size', numSlots: 10 });
    expect(runs.tuner.workflowTaskSlotSupplier).toEqual({ type: 'fixed-size', numSlots: 20 });
  });

  it('connects without gRPC compression unless WORKER_GRPC_COMPRESSION=gzip', () => {
    expect(grpcCompression(loadConfig({}))).toEqual({ codec: 'none' });
    expect(grpcCompression(loadConfig({ WORKER_GRPC_COMPRESSION: 'gzip' }))).toEqual({ codec: 'gzip' });
    expect(() => loadConfig({ WORKER_GRPC_COMPRESSION: 'brotli' })).toThrow(/WORKER_GRPC_COMPRESSION/);
  });
});
