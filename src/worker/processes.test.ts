// The env each forked worker process gets: one process each, its index, metrics ports offset.
import { describe, expect, it } from 'vitest';
import { childEnv, WORKER_INDEX_ENV } from './processes.js';

describe('childEnv', () => {
  it('makes each child a single worker process with its own index and metrics ports', () => {
    const env = { WORKER_PROCESSES: '3', WORKER_METRICS_PORT: '9464', TEMPORAL_METRICS_BIND_ADDRESS: '0.0.0.0:9500', OTHER: 'kept' };
    expect(childEnv(env, 0)).toMatchObject({ WORKER_PROCESSES: '1', [WORKER_INDEX_ENV]: '0', WORKER_METRICS_PORT: '9464', TEMPORAL_METRICS_BIND_ADDRESS: '0.0.0.0:9500', OTHER: 'kept' });
    expect(childEnv(env, 2)).toMatchObject({ WORKER_PROCESSES: '1', [WORKER_INDEX_ENV]: '2', WORKER_METRICS_PORT: '9466', TEMPORAL_METRICS_BIND_ADDRESS: '0.0.0.0:9502' });
  });

  it('leaves metrics off when they are off', () => {
    const child = childEnv({ WORKER_PROCESSES: '2' }, 1);
    expect(child.WORKER_METRICS_PORT).toBeUndefined();
    expect(child.TEMPORAL_METRICS_BIND_ADDRESS).toBeUndefined();
  });
});
