// The worker's cache bounds and connection settings: our defaults unless the environment says
// otherwise (src/worker/worker.ts explains the numbers).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { capacity, DEFAULT_MAX_CACHED_RUNS, DEFAULT_MAX_CACHED_WORKFLOWS, grpcCompression, runsCapacity } from './worker.js';

describe('worker capacity', () => {
  it('bounds each queue\'s workflow cache by default, the runs queue tighter than the main one', () => {
    const config = loadConfig({});
    expect(capacity(config).maxCachedWorkflows).toBe(DEFAULT_MAX_CACHED_WORKFLOWS);
    expect(runsCapacity(config).maxCachedWorkflows).toBe(DEFAULT_MAX_CACHED_RUNS);
    expect(DEFAULT_MAX_CACHED_RUNS).toBeLessThan(DEFAULT_MAX_CACHED_WORKFLOWS);
    // Never below the SDK's 40 concurrent workflow tasks (the SDK would lower those to the cache size).
    expect(DEFAULT_MAX_CACHED_RUNS).toBeGreaterThanOrEqual(40);
    // A blank variable is unset.
    expect(capacity(loadConfig({ WORKER_MAX_CACHED_WORKFLOWS: ' ' })).maxCachedWorkflows).toBe(DEFAULT_MAX_CACHED_WORKFLOWS);
  });

  it('takes WORKER_MAX_CACHED_WORKFLOWS for the main queue and WORKER_MAX_CACHED_RUNS for the runs queue', () => {
    const config = loadConfig({ WORKER_MAX_CACHED_WORKFLOWS: '500', WORKER_MAX_CACHED_RUNS: '0', WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: '8' });
    expect(capacity(config)).toMatchObject({ maxCachedWorkflows: 500, maxConcurrentWorkflowTaskExecutions: 8 });
    // 0 turns the cache off (every task replays its history).
    expect(runsCapacity(config)).toMatchObject({ maxCachedWorkflows: 0, maxConcurrentWorkflowTaskExecutions: 8 });
    expect(() => loadConfig({ WORKER_MAX_CACHED_RUNS: '-1' })).toThrow(/WORKER_MAX_CACHED_RUNS/);
  });

  it('connects without gRPC compression unless WORKER_GRPC_COMPRESSION=gzip', () => {
    expect(grpcCompression(loadConfig({}))).toEqual({ codec: 'none' });
    expect(grpcCompression(loadConfig({ WORKER_GRPC_COMPRESSION: 'gzip' }))).toEqual({ codec: 'gzip' });
    expect(() => loadConfig({ WORKER_GRPC_COMPRESSION: 'brotli' })).toThrow(/WORKER_GRPC_COMPRESSION/);
  });
});
