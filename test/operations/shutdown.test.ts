// Graceful shutdown: the API stops accepting connections, lets in-flight requests and streams
// finish within its deadline (cutting them at the deadline), and the gateway's buffered audit and
// usage records are written before the process exits; the worker drains running activities.
// In-process stacks first, then the real entry points as child processes sent SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { UsageRecord } from '../../src/billing/entities.js';
import { openDatabase, type Orm } from '../../src/db/orm.js';
import { entities } from '../../src/orm-entities.js';
import { freePort } from '../../src/dev/temporal-server.js';
import { GatewayRequestRecord } from '../../src/gateway/entities.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, testEnv, type Stack } from '../helpers/stack.js';

const WORDS = 'one two three four five six seven eight nine ten';

/** Starts a streamed chat completion on a connection of its own; resolves once the first event arrived. */
async function startStream(baseUrl: string, key: string): Promise<{ requestId: string; rest: Promise<string> }> {
  const url = new URL(`${baseUrl}/chat/completions`);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    }, (res) => {
      let text = '';
      let first = true;
      const rest = new Promise<string>((done) => {
        res.on('end', () => done(text));
        res.on('close', () => done(text));
        res.on('error', () => done(text));
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (first) {
          first = false;
          resolve({ requestId: String(res.headers['x-request-id']), rest });
        }
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify({ model: 'fake-model', stream: true, messages: [{ role: 'user', content: 'Count to ten' }] }));
  });
}

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

function contentOf(sse: string): string {
  return sse
    .split('\n\n')
    .filter((event) => event.startsWith('data: {'))
    .map((event) => (JSON.parse(event.slice(6)) as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content ?? '')
    .join('');
}

describe('API drain, in process', () => {
  let upstream: FakeUpstream;
  let stack: Stack | undefined;
  let org: TestOrganization;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterEach(async () => {
    await stack?.stop();
    stack = undefined;
    upstream.reset();
  });
  afterAll(async () => {
    await upstream?.close();
  });

  async function start(): Promise<Stack> {
    stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream, timeoutMs: 10_000 })) } });
    org = await createTestOrganization(stack.runtime.orm);
    return stack;
  }

  it('refuses new connections, finishes the in-flight stream and request, closes idle connections, and records usage', { timeout: 60_000 }, async () => {
    const { api, runtime, baseUrl } = await start();
    // An idle keep-alive connection, a slow plain request and a slow stream.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const idleClosed = new Promise<void>((resolve) => {
      http.get(`${api.url}/healthz`, { agent }, (res) => {
        res.resume();
        res.socket.once('close', () => resolve());
      });
    });
    upstream.enqueue({ content: WORDS, chunkDelayMs: 150 }, { latencyMs: 1000 });
    const stream = await startStream(baseUrl, org.member.key);
    await waitFor(async () => upstream.requests.length === 1, { what: 'the stream upstream' });
    const plain = call(baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: [{ role: 'user', content: 'Hi' }] } });
    await waitFor(async () => upstream.requests.length === 2, { what: 'the plain request upstream' });

    const started = Date.now();
    const stopping = api.stop(15_000);
    expect(await connectionRefused(api.port)).toBe(true);
    await idleClosed;

    const plainAnswer = await plain;
    expect(plainAnswer.status).toBe(200);
    expect(plainAnswer.headers.get('connection')).toBe('close');
    const text = await stream.rest;
    expect(contentOf(text)).toBe(WORDS);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    await stopping;
    // Stopped when the work was done, not at the deadline.
    expect(Date.now() - started).toBeLessThan(10_000);

    // What the runtime does next on shutdown: flush the gateway's buffered records.
    await runtime.gateway.close();
    const usage = await runtime.orm.em.fork().find(UsageRecord, { organizationId: org.id });
    expect(usage).toHaveLength(2);
    expect(usage.find((u) => u.requestId === stream.requestId)).toMatchObject({ inputTokens: 11, outputTokens: 7 });
    agent.destroy();
  });

  it('cuts a stream still running at the deadline, ends the upstream call and audits it as aborted', { timeout: 60_000 }, async () => {
    const { api, runtime, baseUrl } = await start();
    upstream.enqueue({ content: WORDS, chunkDelayMs: 1000 });
    const stream = await startStream(baseUrl, org.member.key);
    const started = Date.now();
    await api.stop(300);
    expect(Date.now() - started).toBeLessThan(3000);
    const text = await stream.rest;
    expect(text).not.toContain('[DONE]');
    await waitFor(async () => upstream.requests[0]?.closedEarly, { what: 'the upstream call to end' });
    await runtime.gateway.close();
    const audit = await waitFor(async () => runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, requestId: stream.requestId }), { what: 'audit' });
    expect(audit).toMatchObject({ outcome: 'aborted', status: 499 });
  });
});

// The entry points as real processes: they need PostgreSQL, which this test and the child share
// (an in-memory PGlite cannot be shared between processes).
describe.skipIf(!inject('databaseUrl'))('SIGTERM to the real processes', () => {
  let upstream: FakeUpstream;
  let orm: Orm;
  let org: TestOrganization;
  let gatewayConfig: string;
  const children = new Set<ChildProcess>();

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    gatewayConfig = writeGatewayConfig(fakeGatewayConfig({ primary: upstream, timeoutMs: 30_000 }));
    orm = await openDatabase({ databaseUrl: inject('databaseUrl'), poolMax: 2 }, { entities });
    org = await createTestOrganization(orm);
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await orm?.close();
    await upstream?.close();
  });

  function spawnEntry(entry: string, env: Record<string, string | undefined>): { child: ChildProcess; exited: Promise<number | null>; output: () => string } {
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      env: { ...process.env, ...testEnv(), LOG_LEVEL: 'info', GATEWAY_CONFIG: gatewayConfig, AUTOMATION_RECONCILE_ON_START: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }));
    return { child, exited, output: () => output };
  }

  /**
   * The API process from source (tsx), once it answers /healthz. On a machine busy with the rest
   * of the suite its start may take a minute. The port is free when chosen, not reserved: if the
   * process exits before answering, that start is tried once more on another port, and the error
   * that ends the wait carries what the process printed.
   */
  async function startApiProcess(env: Record<string, string>): Promise<{ port: number; api: ReturnType<typeof spawnEntry> }> {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const api = spawnEntry('src/api/main.ts', { ...env, PORT: String(port), HOST: '127.0.0.1' });
      let exitCode: number | null | undefined;
      void api.exited.then((code) => (exitCode = code));
      const deadline = Date.now() + 150_000;
      while (exitCode === undefined) {
        if (await call(`http://127.0.0.1:${port}`, 'GET', '/healthz').then((res) => res.status === 200, () => false)) return { port, api };
        if (Date.now() > deadline) throw new Error(`The API process did not answer /healthz within 150 s:\n${api.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      if (attempt === 2) throw new Error(`The API process exited with ${exitCode} before answering /healthz:\n${api.output()}`);
      console.warn(`The API process exited with ${exitCode} before answering /healthz; starting it again:\n${api.output()}`);
    }
  }

  it('the API process finishes the stream, writes its usage and exits 0', { timeout: 240_000 }, async () => {
    const { port, api } = await startApiProcess({ SHUTDOWN_GRACE_SECONDS: '20' });
    const baseUrl = `http://127.0.0.1:${port}/v1`;

    upstream.enqueue({ content: WORDS, chunkDelayMs: 200 });
    const stream = await startStream(baseUrl, org.member.key);
    api.child.kill('SIGTERM');
    const text = await stream.rest;
    expect(contentOf(text)).toBe(WORDS);
    expect(await api.exited, api.output()).toBe(0);
    expect(await connectionRefused(port)).toBe(true);
    // Written before exit: found at once, no waiting.
    const usage = await orm.em.fork().findOne(UsageRecord, { organizationId: org.id, requestId: stream.requestId });
    expect(usage).toMatchObject({ inputTokens: 11, outputTokens: 7 });
  });

  it('the worker process serves Temporal SDK metrics, and on SIGTERM lets the running model call finish and exits 0', { timeout: 180_000 }, async () => {
    const stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: gatewayConfig } });
    try {
      const metricsPort = await freePort();
      const workerEnv = {
        DATABASE_URL: stack.config.DATABASE_URL,
        REDIS_URL: stack.config.REDIS_URL,
        REDIS_KEY_PREFIX: stack.config.REDIS_KEY_PREFIX,
        TEMPORAL_TASK_QUEUE: stack.config.TEMPORAL_TASK_QUEUE,
        WORKFLOW_BUNDLE_PATH: inject('workflowBundlePath'),
        SHUTDOWN_GRACE_SECONDS: '30',
      };
      const first = spawnEntry('src/worker/main.ts', { ...workerEnv, TEMPORAL_METRICS_BIND_ADDRESS: `127.0.0.1:${metricsPort}` });
      const scraped = await waitFor(async () => {
        const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
        const text = await res.text();
        return res.status === 200 && /^temporal_num_pollers\{/m.test(text) ? text : undefined;
      }, { timeoutMs: 90_000, intervalMs: 500, what: `Temporal SDK metrics: ${first.output()}` });
      expect(scraped).toContain(`task_queue="${stack.config.TEMPORAL_TASK_QUEUE}"`);

      const created = await call(stack.baseUrl, 'POST', '/automations', {
        key: org.member.key,
        body: { name: 'Drain', systemPrompt: 'Report.', schedule: '0 9 * * *', status: 'paused' },
      });
      expect(created.status).toBe(201);
      upstream.reset();
      upstream.enqueue({ latencyMs: 3000, content: 'Finished during the drain' });
      const started = await call(stack.baseUrl, 'POST', `/automations/${created.body.id}/run`, { key: org.member.key });
      expect(started.status).toBe(202);
      await waitFor(async () => upstream.requests.length >= 1, { timeoutMs: 60_000, what: 'the model call to reach the upstream' });

      first.child.kill('SIGTERM');
      expect(await first.exited, first.output()).toBe(0);
      // The call was answered, not cut: the worker waited for it.
      expect(upstream.requests[0]!.closedEarly).toBe(false);

      // Another worker finishes the run without calling the model again, and counts its outcome
      // on its own metrics endpoint.
      const workerMetricsPort = await freePort();
      spawnEntry('src/worker/main.ts', { ...workerEnv, WORKER_METRICS_PORT: String(workerMetricsPort), METRICS_TOKEN: 'worker-scrape' });
      const run = await waitFor(async () => {
        const list = await call(stack.baseUrl, 'GET', `/automations/${created.body.id}/runs`, { key: org.member.key });
        const found = list.body.runs.find((r: { id: string; status: string }) => r.id === started.body.runId);
        return found && found.status !== 'running' ? found : undefined;
      }, { timeoutMs: 120_000, intervalMs: 500, what: 'the run to finish' });
      expect(run.status, run.error).toBe('success');
      expect(run.output).toBe('Finished during the drain');
      expect(upstream.requests).toHaveLength(1);
      const workerMetrics = `http://127.0.0.1:${workerMetricsPort}/metrics`;
      expect((await fetch(workerMetrics)).status).toBe(401);
      const counted = await (await fetch(workerMetrics, { headers: { authorization: 'Bearer worker-scrape' } })).text();
      expect(counted).toMatch(/^automation_run_outcomes_total\{status="success",trigger="manual"\} 1$/m);
    } finally {
      for (const child of children) child.kill('SIGTERM');
      await stack.stop();
    }
  });
});
