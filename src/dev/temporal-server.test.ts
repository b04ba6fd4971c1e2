// The settings every dev server we start gets: the dynamic config for one worker per queue (the
// caller's values win) and the Go collector's pace (the environment's GOGC wins).
import { describe, expect, it } from 'vitest';
import { DEV_SERVER_DYNAMIC_CONFIG, devServerEnv, sdkDownloadOptions } from './temporal-server.js';

const valuesOf = (args: string[]) => args.filter((_, i) => args[i - 1] === '--dynamic-config-value');

describe('dev server settings', () => {
  it('passes one partition per task queue, eager activities and a cached search attribute list, unless the caller says otherwise', () => {
    const defaults = valuesOf(sdkDownloadOptions({ port: 7233 }).server?.extraArgs ?? []);
    expect(defaults).toEqual(expect.arrayContaining([
      'matching.numTaskqueueReadPartitions=1', 'matching.numTaskqueueWritePartitions=1', 'system.enableActivityEagerExecution=true',
      'system.forceSearchAttributesCacheRefreshOnRead=false',
    ]));
    expect(defaults).toHaveLength(Object.keys(DEV_SERVER_DYNAMIC_CONFIG).length);
    const overridden = valuesOf(sdkDownloadOptions({ port: 7233, dynamicConfig: { 'matching.numTaskqueueReadPartitions': 4, 'limit.maxIDLength': 255 } }).server?.extraArgs ?? []);
    expect(overridden).toContain('matching.numTaskqueueReadPartitions=4');
    expect(overridden).not.toContain('matching.numTaskqueueReadPartitions=1');
    expect(overridden).toContain('limit.maxIDLength=255');
  });

  it('runs the server with GOGC=400 unless the environment sets GOGC', () => {
    expect(devServerEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin', GOGC: '400' });
    expect(devServerEnv({ GOGC: '100' }).GOGC).toBe('100');
  });
});
