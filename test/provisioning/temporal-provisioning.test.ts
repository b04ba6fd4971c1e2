// Temporal provisioning as `npm run dev` and `npm test` run it (docs/operations.md), on fakes: scripts/temporal.sh with a
// PATH holding a fake `temporal` or a fake `go` (nothing is built or downloaded), an empty HOME
// for the cache, scripts/dev.sh in a scratch copy of the repo with a fake `node`, and the
// TypeScript side's order (CLI, then the SDK's download) with the script's real answers.
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  freePort,
  provisionTemporalCli,
  sdkDownloadOptions,
  startTemporalDevServer,
  type DevServer,
  type DevServerSources,
} from '../../src/dev/temporal-server.js';
import { API_NODE_FLAGS } from '../../src/node-flags.js';

const root = path.resolve(import.meta.dirname, '../..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-provisioning-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The real absolute path of a command on this machine's PATH. */
function which(command: string): string {
  const found = spawnSync('bash', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error(`${command} is needed by this test`);
  return found;
}

const BASH = which('bash');

/** A directory with only the commands the scripts use: no `temporal`, no `go`. */
const tools = (() => {
  const dir = path.join(scratch, 'tools');
  fs.mkdirSync(dir);
  for (const command of ['bash', 'mkdir', 'flock', 'rm', 'mv', 'chmod', 'dirname']) fs.symlinkSync(which(command), path.join(dir, command));
  return dir;
})();

let n = 0;
function freshDir(name: string): string {
  const dir = path.join(scratch, `${name}-${++n}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function executable(file: string, body: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!${BASH}\n${body}\n`, { mode: 0o755 });
  return file;
}

/** A `temporal` that only says what it is. */
function fakeTemporalDir(): string {
  const dir = freshDir('temporal-bin');
  executable(path.join(dir, 'temporal'), 'echo "temporal version 0.0.0-fake"');
  return dir;
}

/** A `go` that logs its calls and, unless told to fail, "installs" a fake CLI into $GOBIN. */
function fakeGo(options: { fails?: boolean } = {}): { dir: string; calls: () => string[] } {
  const dir = freshDir('go-bin');
  const log = path.join(dir, 'calls.log');
  executable(
    path.join(dir, 'go'),
    options.fails
      ? `echo "$* GOBIN=$GOBIN" >> '${log}'; echo 'dial tcp: lookup proxy.golang.org: no such host' >&2; exit 1`
      : `echo "$* GOBIN=$GOBIN" >> '${log}'; mkdir -p "$GOBIN"; printf '#!/bin/sh\\necho built\\n' > "$GOBIN/temporal"; chmod +x "$GOBIN/temporal"`,
  );
  return { dir, calls: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []) };
}

function scriptEnv(pathDirs: string[], home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: pathDirs.join(':'), HOME: home, ...extra };
}

function run(script: string, args: string[], env: NodeJS.ProcessEnv, cwd = root) {
  const result = spawnSync(BASH, [script, ...args], { cwd, env, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

const temporalSh = (args: string[], env: NodeJS.ProcessEnv) => run(path.join(root, 'scripts/temporal.sh'), args, env);

let home: string;
let cache: string;
beforeEach(() => {
  home = freshDir('home');
  cache = path.join(home, '.cache/ai-workspace/temporal-cli');
});

describe('scripts/temporal.sh path', () => {
  it('uses the `temporal` on PATH and builds nothing', () => {
    const temporalDir = fakeTemporalDir();
    const go = fakeGo();
    const result = temporalSh(['path'], scriptEnv([temporalDir, tools, go.dir], home));
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(path.join(temporalDir, 'temporal'));
    expect(go.calls()).toEqual([]);
  });

  it('without `temporal` and Go, exits 3 naming both and prints no path', () => {
    const result = temporalSh(['path'], scriptEnv([tools], home));
    expect(result.status).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("no 'temporal' on PATH");
    expect(result.stderr).toContain(`no build cached in ${cache}`);
    expect(result.stderr).toContain('no Go toolchain');
  });

  it('builds the pinned CLI with Go once into the versioned cache under HOME, then reuses it, with or without Go', () => {
    const go = fakeGo();
    const first = temporalSh(['path'], scriptEnv([tools, go.dir], home));
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toBe(path.join(cache, 'v1.5.1/temporal'));
    expect(go.calls()).toEqual([`install github.com/temporalio/cli/cmd/temporal@v1.5.1 GOBIN=${cache}/v1.5.1.partial`]);
    expect(fs.readdirSync(cache).sort()).toEqual(['.build.lock', 'v1.5.1']);

    expect(temporalSh(['path'], scriptEnv([tools, go.dir], home)).stdout).toBe(first.stdout);
    expect(temporalSh(['path'], scriptEnv([tools], home)).stdout).toBe(first.stdout);
    expect(go.calls()).toHaveLength(1);
  });

  it('when Go cannot fetch any pinned tag (no network), exits 3 naming the tags and leaves no partial build', () => {
    const go = fakeGo({ fails: true });
    const result = temporalSh(['path'], scriptEnv([tools, go.dir], home));
    expect(result.status).toBe(3);
    expect(result.stdout).toBe('');
    expect(go.calls().map((call) => call.split(' ')[1])).toEqual([
      'github.com/temporalio/cli/cmd/temporal@v1.5.1',
      'github.com/temporalio/cli/cmd/temporal@v1.5.0',
      'github.com/temporalio/cli/cmd/temporal@v1.4.1',
    ]);
    expect(result.stderr).toMatch(/go install failed for v1\.5\.1 v1\.5\.0 v1\.4\.1: no network/);
    expect(fs.readdirSync(cache)).toEqual(['.build.lock']);
  });
});

// The release download, from a loopback mirror (TEMPORAL_CLI_DOWNLOAD_BASE): never a real download.
describe('scripts/temporal.sh: the release download comes before the Go build', () => {
  /** The commands the download needs besides the script's own. */
  const downloadTools = (() => {
    const dir = freshDir('download-tools');
    for (const command of ['curl', 'tar', 'gzip', 'sha256sum', 'uname', 'tr', 'awk', 'cut']) fs.symlinkSync(which(command), path.join(dir, command));
    return dir;
  })();
  const platform = `${process.platform}_${process.arch === 'x64' ? 'amd64' : process.arch}`;
  const archiveName = `temporal_cli_1.5.1_${platform}.tar.gz`;

  /** A release archive holding a `temporal` that says it was downloaded, and its checksums file. */
  function releaseFiles(options: { wrongChecksum?: boolean } = {}): Map<string, Buffer> {
    const dir = freshDir('release');
    executable(path.join(dir, 'temporal'), 'echo downloaded');
    spawnSync('tar', ['-czf', path.join(dir, archiveName), '-C', dir, 'temporal']);
    const archive = fs.readFileSync(path.join(dir, archiveName));
    const digest = createHash('sha256').update(options.wrongChecksum ? 'something else' : archive).digest('hex');
    const sums = `${'0'.repeat(64)}  temporal_cli_1.5.1_other_arch.tar.gz\n${digest}  ${archiveName}\n`;
    return new Map([
      [`/v1.5.1/${archiveName}`, archive],
      ['/v1.5.1/temporal_cli_1.5.1_checksums.txt', Buffer.from(sums)],
    ]);
  }

  async function mirror(files: Map<string, Buffer>): Promise<{ base: string; requests: string[]; close(): Promise<void> }> {
    const requests: string[] = [];
    const server = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      const body = files.get(req.url ?? '');
      res.writeHead(body ? 200 : 404).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return { base: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  /** The script run without blocking this process (the mirror answers from it). */
  async function temporalShAsync(args: string[], env: NodeJS.ProcessEnv) {
    return new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      execFile(BASH, [path.join(root, 'scripts/temporal.sh'), ...args], { cwd: root, env, timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ status: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout: stdout.trim(), stderr });
      });
    });
  }

  it('downloads the pinned release into the versioned cache, checked against its checksums, and never runs Go', async () => {
    const server = await mirror(releaseFiles());
    try {
      const go = fakeGo();
      const result = await temporalShAsync(['path'], scriptEnv([tools, downloadTools, go.dir], home, { TEMPORAL_CLI_DOWNLOAD_BASE: server.base }));
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toBe(path.join(cache, 'v1.5.1/temporal'));
      expect(spawnSync(result.stdout, { encoding: 'utf8' }).stdout.trim()).toBe('downloaded');
      expect(go.calls()).toEqual([]);
      expect(server.requests).toEqual(['/v1.5.1/temporal_cli_1.5.1_checksums.txt', `/v1.5.1/${archiveName}`]);
      expect(fs.readdirSync(path.join(cache, 'v1.5.1'))).toEqual(['temporal']);
    } finally {
      await server.close();
    }
  });

  it('refuses an archive whose checksum does not match and builds with Go instead', async () => {
    const server = await mirror(releaseFiles({ wrongChecksum: true }));
    try {
      const go = fakeGo();
      const result = await temporalShAsync(['path'], scriptEnv([tools, downloadTools, go.dir], home, { TEMPORAL_CLI_DOWNLOAD_BASE: server.base }));
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toContain('does not match the release\'s checksum');
      expect(go.calls()).toHaveLength(1);
      expect(spawnSync(result.stdout, { encoding: 'utf8' }).stdout.trim()).toBe('built');
    } finally {
      await server.close();
    }
  });

  it('without a network to download from, falls back to the Go build within seconds', async () => {
    const closedPort = await freePort();
    const go = fakeGo();
    const started = Date.now();
    const result = await temporalShAsync(['path'], scriptEnv([tools, downloadTools, go.dir], home, { TEMPORAL_CLI_DOWNLOAD_BASE: `http://127.0.0.1:${closedPort}` }));
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/download of v1\.5\.1 failed after \d+ s \(no network\?\)/);
    expect(go.calls()).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('TEMPORAL_CLI_DOWNLOAD=0 skips the download', async () => {
    const server = await mirror(releaseFiles());
    try {
      const go = fakeGo();
      const result = await temporalShAsync(['path'], scriptEnv([tools, downloadTools, go.dir], home, { TEMPORAL_CLI_DOWNLOAD_BASE: server.base, TEMPORAL_CLI_DOWNLOAD: '0' }));
      expect(result.status, result.stderr).toBe(0);
      expect(server.requests).toEqual([]);
      expect(go.calls()).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('scripts/temporal.sh prepare (what dev.sh and test.sh run)', () => {
  it('succeeds without `temporal` and Go, announcing the SDK download', () => {
    const result = temporalSh(['prepare'], scriptEnv([tools], home));
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('no Go toolchain');
    expect(result.stderr).toContain('the Temporal SDK will download a dev server at start');
  });

  it('builds with Go when it can, quietly on stdout', () => {
    const go = fakeGo();
    const result = temporalSh(['prepare'], scriptEnv([tools, go.dir], home));
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(fs.existsSync(path.join(cache, 'v1.5.1/temporal'))).toBe(true);
  });
});

describe('scripts/dev.sh', () => {
  /** The runner's command line: the API's node flags (src/node-flags.ts), then tsx and the runner. */
  const RUNNER_ARGS = `${API_NODE_FLAGS.join(' ')} --import tsx src/dev/runner.ts`;
  /**
   * A scratch copy of the repo's start scripts, a no-op ensure-deps and ensure-console (the console's
   * watcher off: CONSOLE_WATCH=0), and a `node` that records its arguments.
   */
  function devShCopy() {
    const repo = freshDir('repo');
    fs.mkdirSync(path.join(repo, 'scripts'));
    for (const script of ['dev.sh', 'temporal.sh']) fs.copyFileSync(path.join(root, 'scripts', script), path.join(repo, 'scripts', script));
    executable(path.join(repo, 'scripts/ensure-deps.sh'), 'exit 0');
    executable(path.join(repo, 'scripts/ensure-console.sh'), 'exit 0');
    const nodeDir = freshDir('node-bin');
    const nodeLog = path.join(nodeDir, 'node.log');
    executable(path.join(nodeDir, 'node'), `echo "$*" > '${nodeLog}'`);
    return {
      run: (env: NodeJS.ProcessEnv) => run(path.join(repo, 'scripts/dev.sh'), [], { ...env, CONSOLE_WATCH: '0' }, repo),
      nodeArgs: () => (fs.existsSync(nodeLog) ? fs.readFileSync(nodeLog, 'utf8').trim() : undefined),
      nodeDir,
    };
  }

  it('starts the dev runner without `temporal` and Go, so the SDK download can happen', () => {
    const dev = devShCopy();
    const result = dev.run(scriptEnv([dev.nodeDir, tools], home));
    expect(result.status, result.stderr).toBe(0);
    expect(dev.nodeArgs()).toBe(RUNNER_ARGS);
    expect(result.stderr).toContain('the Temporal SDK will download a dev server at start');
  });

  it('skips provisioning when TEMPORAL_ADDRESS names an external server', () => {
    const dev = devShCopy();
    const go = fakeGo();
    const result = dev.run(scriptEnv([dev.nodeDir, tools, go.dir], home, { TEMPORAL_ADDRESS: 'temporal.internal:7233' }));
    expect(result.status, result.stderr).toBe(0);
    expect(dev.nodeArgs()).toBe(RUNNER_ARGS);
    expect(result.stderr).not.toContain('[temporal.sh]');
    expect(go.calls()).toEqual([]);
  });

  it('builds the CLI first when TEMPORAL_ADDRESS is unset and Go is there', () => {
    const dev = devShCopy();
    const go = fakeGo();
    const result = dev.run(scriptEnv([dev.nodeDir, tools, go.dir], home));
    expect(result.status, result.stderr).toBe(0);
    expect(go.calls()).toHaveLength(1);
    expect(dev.nodeArgs()).toBe(RUNNER_ARGS);
  });
});

describe('startTemporalDevServer with the real script in a given environment', () => {
  function recordingSources(env: NodeJS.ProcessEnv, download?: Error) {
    const calls: string[] = [];
    const server: DevServer = { address: 'fake', uiUrl: undefined, pid: undefined, stop: async () => {} };
    const sources: DevServerSources = {
      provisionCli: () => provisionTemporalCli(env),
      startCli: async (binary) => (calls.push(`cli ${binary}`), server),
      startSdkDownload: async () => {
        calls.push('sdk download');
        if (download) throw download;
        return server;
      },
      notice: () => {},
    };
    return { sources, calls };
  }

  it('starts the `temporal` on PATH', async () => {
    const temporalDir = fakeTemporalDir();
    const { sources, calls } = recordingSources(scriptEnv([temporalDir, tools], home));
    await startTemporalDevServer({ port: 1 }, sources);
    expect(calls).toEqual([`cli ${path.join(temporalDir, 'temporal')}`]);
  });

  it("goes to the SDK's download without `temporal` and Go", async () => {
    const { sources, calls } = recordingSources(scriptEnv([tools], home));
    await startTemporalDevServer({ port: 1 }, sources);
    expect(calls).toEqual(['sdk download']);
  });

  it('fails naming no temporal, no Go and no network when the download fails too', async () => {
    const { sources } = recordingSources(scriptEnv([tools], home), new Error('getaddrinfo ENOTFOUND temporal.download'));
    const message = await startTemporalDevServer({ port: 1 }, sources).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(message).toContain("no 'temporal' on PATH");
    expect(message).toContain('no Go toolchain');
    expect(message).toContain('(no network?): getaddrinfo ENOTFOUND');
  });
});

// The SDK route's server options, run against the CLI this machine has instead of a download: a
// dev server that starts with them and has the search attributes registered.
describe('the SDK route', () => {
  it('starts a dev server with the search attributes registered from the options it is given', { timeout: 60_000 }, async () => {
    const binary = await provisionTemporalCli().catch(() => undefined);
    if (!binary) return; // no CLI here: the suite's own dev server came from this very route
    const options = sdkDownloadOptions({ port: await freePort(), dynamicConfig: { 'limit.maxIDLength': 255 } });
    const env = await TestWorkflowEnvironment.createLocal({ server: { ...options.server, executable: { type: 'existing-path', path: binary } } });
    try {
      const { customAttributes } = await env.connection.operatorService.listSearchAttributes({ namespace: 'default' });
      expect(Object.keys(customAttributes)).toEqual(expect.arrayContaining(['OrganizationId', 'AutomationId', 'TriggerType']));
    } finally {
      await env.teardown();
    }
  });
});
