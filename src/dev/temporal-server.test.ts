// The settings every dev server we start gets: the dynamic config for one worker per queue (the
// caller's values win) and the Go collector's pace (the environment's GOGC wins).
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { DEV_SERVER_DYNAMIC_CONFIG, devServerEnv, freePort, sdkDownloadOptions, startTemporalDevServer } from './temporal-server.js';

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

  it('are the production server\'s too: compose mounts deploy/temporal/dynamicconfig.yaml, the cluster script starts with it, both with GOGC=400', () => {
    const file = parseYaml(fs.readFileSync('deploy/temporal/dynamicconfig.yaml', 'utf8')) as Record<string, [{ value: unknown }]>;
    const values = Object.fromEntries(Object.entries(file).map(([key, [{ value }]]) => [key, value]));
    // The dev server's, less the search attribute cache the CLI alone turns to reload at every read.
    const { 'system.forceSearchAttributesCacheRefreshOnRead': cliOnly, ...shared } = DEV_SERVER_DYNAMIC_CONFIG;
    expect(cliOnly).toBe(false);
    expect(values).toEqual(shared);
    const temporal = (parseYaml(fs.readFileSync('docker-compose.yml', 'utf8')) as { services: Record<string, { environment: Record<string, string>; volumes: string[] }> }).services.temporal!;
    const mounted = temporal.volumes.find((volume) => volume.startsWith('./deploy/temporal/dynamicconfig.yaml:'))?.split(':')[1];
    expect(mounted).toBeDefined();
    expect(temporal.environment).toMatchObject({ DYNAMIC_CONFIG_FILE_PATH: mounted, GOGC: '400' });
    const script = fs.readFileSync('scripts/temporal-cluster.sh', 'utf8');
    expect(script).toContain('${TEMPORAL_CLUSTER_DYNAMIC_CONFIG:-deploy/temporal/dynamicconfig.yaml}');
    expect(script).toContain('GOGC="${GOGC:-400}"');
  });

  it('keeps a SQLite file in write-ahead-log mode, synced at checkpoints; the caller may ask for SQLite\'s defaults', async () => {
    const pragmasOf = (args: string[]) => args.filter((_, i) => args[i - 1] === '--sqlite-pragma');
    expect(pragmasOf(sdkDownloadOptions({ port: 7233, dbFile: '/tmp/x.sqlite' }).server?.extraArgs ?? [])).toEqual(['journal_mode=wal', 'synchronous=normal']);
    expect(pragmasOf(sdkDownloadOptions({ port: 7233, dbFile: '/tmp/x.sqlite', sqlitePragmas: [] }).server?.extraArgs ?? [])).toEqual([]);
    expect(pragmasOf(sdkDownloadOptions({ port: 7233 }).server?.extraArgs ?? [])).toEqual([]);
    // The real server: the file's journal is a write-ahead log (SQLite keeps it beside the file).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-sqlite-'));
    const server = await startTemporalDevServer({ port: await freePort(), dbFile: path.join(dir, 'temporal.sqlite') });
    try {
      expect(fs.existsSync(path.join(dir, 'temporal.sqlite-wal'))).toBe(true);
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('runs the server with GOGC=400 unless the environment sets GOGC', () => {
    expect(devServerEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin', GOGC: '400' });
    expect(devServerEnv({ GOGC: '100' }).GOGC).toBe('100');
  });
});
