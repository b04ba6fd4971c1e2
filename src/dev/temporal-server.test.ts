// Where the dev server comes from: the CLI first, the SDK's download only when there is no CLI,
// and one error naming every reason when neither works. The sources are fakes: nothing is
// built, downloaded or started here.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  sdkDownloadOptions,
  startTemporalDevServer,
  temporalCliCacheRoot,
  type DevServer,
  type DevServerOptions,
  type DevServerSources,
} from './temporal-server.js';

const options: DevServerOptions = { port: 7999 };
const NO_CLI = "no Temporal CLI: no 'temporal' on PATH, no build cached in /cache, and no Go toolchain ('go' not on PATH) to build v1.5.1";

function fakeServer(address: string): DevServer {
  return { address, uiUrl: undefined, pid: undefined, stop: async () => {} };
}

/** Sources that record what was called; each step succeeds unless given an error. */
function fakeSources(fail: { cli?: Error; startCli?: Error; download?: Error } = {}) {
  const calls: string[] = [];
  const notices: string[] = [];
  const sources: DevServerSources = {
    async provisionCli() {
      calls.push('provisionCli');
      if (fail.cli) throw fail.cli;
      return '/bin/fake-temporal';
    },
    async startCli(binary) {
      calls.push(`startCli ${binary}`);
      if (fail.startCli) throw fail.startCli;
      return fakeServer('cli:7999');
    },
    async startSdkDownload() {
      calls.push('startSdkDownload');
      if (fail.download) throw fail.download;
      return fakeServer('sdk:7999');
    },
    notice: (message) => notices.push(message),
  };
  return { sources, calls, notices };
}

describe('startTemporalDevServer', () => {
  it('starts the provisioned CLI and never downloads when there is one', async () => {
    const { sources, calls, notices } = fakeSources();
    const server = await startTemporalDevServer(options, sources);
    expect(server.address).toBe('cli:7999');
    expect(calls).toEqual(['provisionCli', 'startCli /bin/fake-temporal']);
    expect(notices).toEqual([]);
  });

  it("falls back to the SDK's download when there is no CLI, and says why", async () => {
    const { sources, calls, notices } = fakeSources({ cli: new Error(NO_CLI) });
    const server = await startTemporalDevServer(options, sources);
    expect(server.address).toBe('sdk:7999');
    expect(calls).toEqual(['provisionCli', 'startSdkDownload']);
    expect(notices).toEqual([expect.stringContaining(NO_CLI)]);
  });

  it('names what is missing (no temporal, no Go, no network) and the ways out when every source fails', async () => {
    const { sources } = fakeSources({ cli: new Error(NO_CLI), download: new Error('getaddrinfo ENOTFOUND temporal.download') });
    const failure = await startTemporalDevServer(options, sources).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    const message = (failure as Error).message;
    expect(message).toContain("no 'temporal' on PATH");
    expect(message).toContain('no Go toolchain');
    expect(message).toMatch(/download of a dev server: failed \(no network\?\): getaddrinfo ENOTFOUND/);
    expect(message).toContain('set TEMPORAL_ADDRESS');
  });

  it('reports a CLI that fails to start instead of downloading another', async () => {
    const { sources, calls } = fakeSources({ startCli: new Error('address already in use') });
    await expect(startTemporalDevServer(options, sources)).rejects.toThrow('address already in use');
    expect(calls).not.toContain('startSdkDownload');
  });
});

describe('the SDK download route', () => {
  it('keeps the download in the versioned cache outside the repo, beside the Go-built CLI', () => {
    expect(temporalCliCacheRoot({ HOME: '/home/dev' })).toBe('/home/dev/.cache/ai-workspace/temporal-cli');
    expect(temporalCliCacheRoot({ HOME: '/home/dev', XDG_CACHE_HOME: '/xdg' })).toBe('/xdg/ai-workspace/temporal-cli');
    expect(temporalCliCacheRoot({ HOME: '/home/dev', TEMPORAL_CLI_CACHE: '/ci/temporal' })).toBe('/ci/temporal');
    const sdk = sdkDownloadOptions({ port: 7999, uiPort: 8999, dbFile: '/data/temporal.sqlite' }, { HOME: '/home/dev' });
    expect(sdk.server).toMatchObject({
      executable: { type: 'cached-download', downloadDir: path.join('/home/dev/.cache/ai-workspace/temporal-cli', 'sdk-download') },
      port: 7999,
      ui: true,
      uiPort: 8999,
      dbFilename: '/data/temporal.sqlite',
    });
    expect(sdk.server?.searchAttributes?.map((key) => key.name)).toEqual(expect.arrayContaining(['OrganizationId']));
    const withCodec = sdkDownloadOptions({ port: 7999, uiPort: 8999, uiCodecEndpoint: 'http://localhost:8080/v1/codec' }, { HOME: '/home/dev' });
    expect(withCodec.server?.extraArgs).toEqual(['--ui-codec-endpoint', 'http://localhost:8080/v1/codec']);
  });
});
