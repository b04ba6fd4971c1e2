// The limiter keeps enforcing limits when Redis is unreachable: it falls back to an in-memory
// limiter with the same budget on this instance and says so in the log (once per interval).
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import type { SharedState } from '../../redis.js';
import { createRateLimiter } from './rate-limit.js';

function unreachableRedis(): SharedState {
  // Port 1 on loopback: nothing listens, every command fails at once (no offline queue).
  const redis = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  redis.on('error', () => {});
  return {
    kind: 'redis',
    redis,
    keyPrefix: 'unit:',
    ping: async () => {},
    publish: async () => 0,
    subscribe: async () => {},
    close: async () => redis.disconnect(),
  };
}

describe('createRateLimiter when Redis is down', () => {
  it('falls back to an in-memory limit with the same budget and logs a warning once', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', destination: new Writable({ write: (chunk, _e, cb) => { lines.push(String(chunk)); cb(); } }) });
    const shared = unreachableRedis();
    const limiter = createRateLimiter({ shared, logger }, { name: 'unit', points: 2, durationSeconds: 60 });

    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await limiter.consume('key-1'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([1, 0, 0]);
    expect(decisions[2]!.resetSeconds).toBeGreaterThan(0);
    expect((await limiter.consume('key-2')).allowed).toBe(true);
    expect(lines.filter((line) => line.includes('rate limit store unreachable'))).toHaveLength(1);
    await shared.close();
  });
});
