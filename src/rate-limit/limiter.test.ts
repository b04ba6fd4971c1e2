// The limiter keeps enforcing limits when Redis is unreachable: it falls back to an in-memory
// limiter with the same budget on this instance and says so in the log (once per interval).
// A request is counted against all its limits or, when one rejects it, against none.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../logger.js';
import { openSharedState, type SharedState } from '../redis.js';
import { MemoryCounters } from './counters.js';
import { createRateLimiter, createRateLimiters, type RateLimitDecision } from './limiter.js';

function unreachableRedis(): SharedState {
  // Port 1 on loopback: nothing listens, every command fails at once (no offline queue).
  const redis = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  redis.on('error', () => {});
  return {
    kind: 'redis',
    redis,
    keyPrefix: 'unit:',
    counters: new MemoryCounters(),
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

// The two limiters of the authenticated routes: per credential and per organization, sharing one
// organization counter. Run on the in-memory store and, when the run has one, on real Redis (the
// Lua script): both must apply the same rule.
const stores: { name: string; open: () => Promise<SharedState> }[] = [
  { name: 'in-memory store', open: async () => openSharedState({}, createLogger({ level: 'silent' })) },
];
const redisUrl = inject('redisUrl');
if (redisUrl) {
  stores.push({
    name: 'Redis script',
    open: () => openSharedState({ redisUrl, keyPrefix: `unit:${randomUUID()}:` }, createLogger({ level: 'silent' })),
  });
}

describe.each(stores)('createRateLimiters on the $name', ({ open }) => {
  const PER_KEY = 3;
  const PER_ORG = 5;
  let shared: SharedState;
  let limiters: ReturnType<typeof createRateLimiters>;

  beforeEach(async () => {
    shared = await open();
    limiters = createRateLimiters({ shared, logger: createLogger({ level: 'silent' }) }, [
      { name: 'credential', points: PER_KEY, durationSeconds: 60 },
      { name: 'organization', points: PER_ORG, durationSeconds: 60 },
    ]);
  });
  afterEach(async () => shared.close());

  const admitted = (decisions: RateLimitDecision[]) => decisions.every((d) => d.allowed);

  it('does not count requests a key limit rejects against the organization, so other keys still get through', async () => {
    const org = `org-${randomUUID()}`;
    const noisy = [];
    for (let i = 0; i < 20; i++) noisy.push(await limiters.consume(['key-noisy', org]));
    expect(noisy.map(admitted)).toEqual([...Array(PER_KEY).fill(true), ...Array(20 - PER_KEY).fill(false)]);
    // The organization counted only the admitted requests.
    expect(noisy.at(-1)![1]).toMatchObject({ allowed: true, remaining: PER_ORG - PER_KEY });

    const quiet = [];
    for (let i = 0; i < 3; i++) quiet.push(await limiters.consume(['key-quiet', org]));
    expect(quiet.map(admitted)).toEqual([true, true, false]);
    expect(quiet[0]![1]!.remaining).toBe(PER_ORG - PER_KEY - 1);
    // Rejected by the organization: the key limit had room and its counter did not move.
    expect(quiet[2]).toMatchObject([
      { allowed: true, limit: PER_KEY, remaining: PER_KEY - 2 },
      { allowed: false, limit: PER_ORG, remaining: 0 },
    ]);
    expect(quiet[2]![0]!.resetSeconds).toBeGreaterThan(0);
    expect(quiet[2]![1]!.resetSeconds).toBeGreaterThan(0);
  });

  it('does not count a request the organization rejects against its key', async () => {
    const org = `org-${randomUUID()}`;
    for (let i = 0; i < PER_ORG; i++) expect(admitted(await limiters.consume([`key-${i}`, org]))).toBe(true);
    for (let i = 0; i < 10; i++) expect(admitted(await limiters.consume(['key-late', org]))).toBe(false);
    // Another organization's request with the same key still finds the key's full budget.
    const elsewhere = await limiters.consume(['key-late', `org-${randomUUID()}`]);
    expect(elsewhere.map((d) => d.remaining)).toEqual([PER_KEY - 1, PER_ORG - 1]);
  });
});
