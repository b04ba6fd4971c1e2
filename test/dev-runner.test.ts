// The README's first command, as a new user runs it: the dev runner on a fresh DATA_DIR starts
// its own Temporal dev server (with Web UI), the worker and the API on embedded PGlite, prints
// a working owner key, stops cleanly on SIGTERM, and keeps its state across a restart.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../src/dev/temporal-server.js';
import { call, waitFor } from './helpers/http.js';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-runner-'));
const children: ChildProcessWithoutNullStreams[] = [];

interface Runner {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<number | null>;
}

async function startRunner(ports: { api: number; temporal: number; ui: number }): Promise<Runner> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(ports.api),
    TEMPORAL_PORT: String(ports.temporal),
    TEMPORAL_UI_PORT: String(ports.ui),
    WORKFLOW_BUNDLE_PATH: inject('workflowBundlePath'),
    LOG_LEVEL: 'warn',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/dev/runner.ts'], { cwd: root, env });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitFor(async () => output.includes('AI workspace is running') || child.exitCode !== null, {
    timeoutMs: 180_000,
    intervalMs: 250,
    what: 'the dev runner banner',
  });
  if (child.exitCode !== null) throw new Error(`dev runner exited early:\n${output}`);
  return { child, output: () => output, exited };
}

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('dev runner', () => {
  it('starts everything on a fresh DATA_DIR, prints a working key, stops cleanly and restarts with its state', async () => {
    const ports = { api: await freePort(), temporal: await freePort(), ui: await freePort() };
    const first = await startRunner(ports);
    const key = /Owner API key\s+(svc_live_[A-Za-z0-9]{32,})/.exec(first.output())?.[1];
    expect(key, first.output()).toBeDefined();
    expect(first.output()).toContain(`Temporal Web UI   http://localhost:${ports.ui}`);
    expect(first.output()).toContain(`API base URL      http://localhost:${ports.api}/v1`);

    const apiUrl = `http://127.0.0.1:${ports.api}`;
    const ready = await call(apiUrl, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    const ui = await fetch(`http://127.0.0.1:${ports.ui}/`);
    expect(ui.status).toBe(200);
    // The Web UI decodes payloads through the API's codec server, which answers the owner.
    const uiSettings = await (await fetch(`http://127.0.0.1:${ports.ui}/api/v1/settings`)).text();
    expect(uiSettings).toContain(`http://localhost:${ports.api}/v1/codec`);
    const plain = { payloads: [{ metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: Buffer.from('"hello"').toString('base64') }] };
    const encoded = await call<any>(`${apiUrl}/v1`, 'POST', '/codec/encode', { key, body: plain });
    expect(encoded.status).toBe(200);
    expect(Buffer.from(encoded.body.payloads[0].metadata.encoding, 'base64').toString()).toBe('binary/encrypted');
    const decoded = await call<any>(`${apiUrl}/v1`, 'POST', '/codec/decode', { key, body: encoded.body });
    expect(decoded.body).toEqual(plain);
    const diagnostics = await call<any>(`${apiUrl}/v1`, 'POST', '/diagnostics/workflow', { key });
    expect(diagnostics.status).toBe(200);
    expect(diagnostics.body.workflowId).toMatch(/^diagnostics\//);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'temporal.sqlite'))).toBe(true);

    // Second start on the same DATA_DIR: no new owner, the first key still works, and the
    // workflow from the first run is still in Temporal's history.
    const second = await startRunner(ports);
    expect(second.output()).not.toMatch(/svc_live_[A-Za-z0-9]{32,}/);
    const again = await call<any>(`${apiUrl}/v1`, 'POST', '/diagnostics/workflow', { key });
    expect(again.status).toBe(200);
    const history = await fetch(
      `http://127.0.0.1:${ports.ui}/api/v1/namespaces/default/workflows/${encodeURIComponent(diagnostics.body.workflowId)}`,
    );
    expect(history.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 400_000);
});
