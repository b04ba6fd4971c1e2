// What the gateway benchmark and its probes (run.ts, profile.ts, seq-probe.ts, streams-probe.ts)
// share: the fake servers of servers.ts as child processes, a process's CPU time, the slow model of
// the 1,000-stream scenario, and one gateway build started on a scratch database.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/dev/temporal-server.js';
import { writeGatewayConfig } from '../../test/fixtures/fake-upstream.js';
import { createScratchDatabase } from '../../test/helpers/scratch-database.js';
import { gatewayEnv } from './gateway-env.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** One of servers.ts's roles in its own process, once it printed its address. */
export async function helper(role: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'servers.ts'), role], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const url = await new Promise<string>((resolve) => child.stdout!.on('data', (d: Buffer) => {
    const match = /READY (\S+)/.exec(String(d));
    if (match) resolve(match[1]!);
  }));
  return { child, url };
}

/** CPU time (user + system) of one process so far, ms. */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Adds model `fake-slow` (the same prices, served by the slow upstream: the 1,000-stream scenario) to a fake gateway config. */
export function withSlowModel(settings: Record<string, unknown>, slowUpstreamUrl: string): Record<string, unknown> {
  (settings.providers as object[]).push({ id: 'slow', type: 'openai', baseUrl: `${slowUpstreamUrl}/v1`, apiKey: 'sk-fake-slow', timeoutMs: 30_000 });
  const [fakeModel] = settings.models as Record<string, unknown>[];
  (settings.models as object[]).push({ ...fakeModel, id: 'fake-slow', targets: [{ provider: 'slow', upstreamModel: 'gpt-fake-slow' }] });
  return settings;
}

/** Resolves once the gateway at `url` answers /readyz with 2xx. */
export async function whenReady(url: string): Promise<void> {
  for (let ready = false; !ready; ) {
    ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface StartedGateway {
  child: ChildProcess;
  url: string;
  apiKey: string;
  /** Stops the process, then drops its database. */
  stop(): Promise<void>;
}

/** A gateway build (`entry`) with `nodeArgs` (and `env` on top of the benchmark's environment), on a scratch database, once it answers /readyz. */
export async function startGateway(options: { entry: string; nodeArgs: string[]; settings: Record<string, unknown>; temporalAddress: string; env?: Record<string, string> }): Promise<StartedGateway> {
  const database = await createScratchDatabase(process.env.DATABASE_URL!, 'bench_gateway');
  const port = await freePort();
  const apiKey = `svc_live_${randomBytes(24).toString('hex')}`;
  const child = spawn(process.execPath, [...options.nodeArgs, options.entry], {
    env: { ...gatewayEnv({ port, gatewayConfig: writeGatewayConfig(options.settings), temporalAddress: options.temporalAddress, databaseUrl: database.url, apiKey, webConcurrency: 1 }), ...options.env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await whenReady(url);
  return {
    child,
    url,
    apiKey,
    async stop() {
      await new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); });
      await database.drop();
    },
  };
}
