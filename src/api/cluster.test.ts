import { describe, expect, it } from 'vitest';
import { apiProcessCount } from './cluster.js';

const shared = { DATABASE_URL: 'postgres://db/x', REDIS_URL: 'redis://r:6379' };

describe('apiProcessCount (WEB_CONCURRENCY)', () => {
  it('runs one per core in production, one in development and tests, or what WEB_CONCURRENCY says', () => {
    expect(apiProcessCount({ ...shared, NODE_ENV: 'production', WEB_CONCURRENCY: undefined }, 4)).toEqual({ count: 4 });
    expect(apiProcessCount({ ...shared, NODE_ENV: 'development', WEB_CONCURRENCY: undefined }, 4)).toEqual({ count: 1 });
    expect(apiProcessCount({ ...shared, NODE_ENV: 'test', WEB_CONCURRENCY: undefined }, 4)).toEqual({ count: 1 });
    expect(apiProcessCount({ ...shared, NODE_ENV: 'development', WEB_CONCURRENCY: 3 }, 4)).toEqual({ count: 3 });
    expect(apiProcessCount({ ...shared, NODE_ENV: 'production', WEB_CONCURRENCY: 1 }, 4)).toEqual({ count: 1 });
  });

  it('stays at one process without shared database or Redis, and says why', () => {
    expect(apiProcessCount({ DATABASE_URL: undefined, REDIS_URL: shared.REDIS_URL, NODE_ENV: 'production', WEB_CONCURRENCY: 2 }, 4)).toMatchObject({ count: 1, limitedBy: expect.stringContaining('DATABASE_URL') });
    expect(apiProcessCount({ DATABASE_URL: shared.DATABASE_URL, REDIS_URL: undefined, NODE_ENV: 'production', WEB_CONCURRENCY: 2 }, 4)).toMatchObject({ count: 1, limitedBy: expect.stringContaining('REDIS_URL') });
  });
});
