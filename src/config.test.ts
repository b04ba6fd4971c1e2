import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.TEMPORAL_NAMESPACE).toBe('default');
    expect(config.TEMPORAL_UI_PORT).toBe(8233);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.BOOTSTRAP_OWNER_EMAIL).toBe('owner@localhost');
    expect(config.publicBaseUrl).toBe('http://localhost:8080/v1');
    expect(config.marketplaceUrl).toBe('http://localhost:8080/marketplace');
    expect(config.BODY_LIMIT_BYTES).toBe(1024 * 1024);
  });

  it('reads an empty optional number as unset, not 0 (compose passes unset variables as empty)', () => {
    const config = loadConfig({ WORKER_MAX_CACHED_WORKFLOWS: '', WORKER_METRICS_PORT: ' ', WORKER_MAX_CONCURRENT_ACTIVITIES: '' });
    expect(config.WORKER_MAX_CACHED_WORKFLOWS).toBeUndefined();
    expect(config.WORKER_METRICS_PORT).toBeUndefined();
    expect(config.WORKER_MAX_CONCURRENT_ACTIVITIES).toBeUndefined();
    expect(loadConfig({ WORKER_MAX_CACHED_WORKFLOWS: '250' }).WORKER_MAX_CACHED_WORKFLOWS).toBe(250);
    expect(() => loadConfig({ WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: '1' })).toThrow(ConfigError);
  });

  it('waits 30 s on a worker\'s sticky queue by default, and takes a configured value', () => {
    expect(loadConfig({}).WORKER_STICKY_QUEUE_TIMEOUT_SECONDS).toBe(30);
    expect(loadConfig({ WORKER_STICKY_QUEUE_TIMEOUT_SECONDS: '12' }).WORKER_STICKY_QUEUE_TIMEOUT_SECONDS).toBe(12);
    expect(() => loadConfig({ WORKER_STICKY_QUEUE_TIMEOUT_SECONDS: '0' })).toThrow(ConfigError);
  });

  it('derives the public base URL from PORT and strips a trailing slash from PUBLIC_BASE_URL', () => {
    expect(loadConfig({ PORT: '9000' }).publicBaseUrl).toBe('http://localhost:9000/v1');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/v1/' }).publicBaseUrl).toBe('https://api.example.com/v1');
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', REDIS_URL: '  ' }).DATABASE_URL).toBeUndefined();
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['REDIS_URL', 'not a url'],
    ['BOOTSTRAP_OWNER_API_KEY', 'svc_live_short'],
    ['BOOTSTRAP_OWNER_EMAIL', 'nobody'],
    ['SECRET_KEY', Buffer.alloc(16).toString('base64')],
    ['LOG_LEVEL', 'loud'],
  ])('fails fast naming %s when it is %j', (variable, value) => {
    let error: unknown;
    try {
      loadConfig({ [variable]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as ConfigError).message).toContain(variable);
  });
});
