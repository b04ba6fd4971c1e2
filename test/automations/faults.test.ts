// Fault tolerance: (1) the worker process is SIGKILLed while a run's model call is in flight; a new
// worker process picks the run up (heartbeat timeout, retry) and it completes with exactly one
// delivery. Workers here are real child processes sharing the run's PostgreSQL database, so that
// test needs DATABASE_URL (PGlite in memory cannot be shared between processes). (2) The Temporal
// dev server (file persistence) restarts while an automation is active: it keeps firing.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort, startTemporalDevServer, type DevServer } from '../../src/dev/temporal-server.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

// Needs PostgreSQL: the worker child processes and this test must share one database, which an
// in-memory PGlite (one per process) cannot be.
describe.skipIf(!inject('databaseUrl'))('faults', () => {
  let stack: Stack;
  let org: TestOrganization;
  let upstream: FakeUpstream;
  let receiver: WebhookReceiver;
  let gatewayConfig: string;
  const workers = new Set<ChildProcess>();

  beforeAll(async () => {
    [upstream, receiver] = await Promise.all([startFakeUpstream(), startWebhookReceiver()]);
    gatewayConfig = writeGatewayConfig(fakeGatewayConfig({ primary: upstream, timeoutMs: 120_000 }));
    stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: gatewayConfig, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    org = await createTestOrganization(stack.runtime.orm);
  });
  afterAll(async () => {
    for (const worker of workers) worker.kill('SIGKILL');
    await stack?.stop();
    await Promise.all([upstream?.close(), receiver?.stop()]);
  });

  function startWorkerProcess(): ChildProcess {
    const { config } = stack;
    const worker = spawn(process.execPath, ['--import', 'tsx', 'src/worker/main.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATA_DIR: config.dataDir,
        DATABASE_URL: config.DATABASE_URL,
        REDIS_URL: config.REDIS_URL ?? '',
        REDIS_KEY_PREFIX: config.REDIS_KEY_PREFIX,
        TEMPORAL_ADDRESS: config.TEMPORAL_ADDRESS,
        TEMPORAL_TASK_QUEUE: config.TEMPORAL_TASK_QUEUE,
        WORKFLOW_BUNDLE_PATH: inject('workflowBundlePath'),
        SECRET_KEY: config.SECRET_KEY,
        GATEWAY_CONFIG: gatewayConfig,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        // Other test files share this database; their automations are not this worker's business.
        AUTOMATION_RECONCILE_ON_START: 'false',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    workers.add(worker);
    worker.once('exit', () => workers.delete(worker));
    return worker;
  }

  it('completes a run whose worker was killed during the model call, delivering exactly once', { timeout: 180_000 }, async () => {
    upstream.enqueue({ hang: true });
    const first = startWorkerProcess();
    const created = await call(stack.baseUrl, 'POST', '/automations', {
      key: org.member.key,
      body: { name: 'Survivor', systemPrompt: 'Report.', schedule: '0 9 * * *', status: 'paused', channels: [{ type: 'webhook', target: receiver.url }] },
    });
    expect(created.status).toBe(201);
    receiver.secret = created.body.channels[0].secret;
    // A worker process takes a while to start on a loaded machine; run-now waits at most 10 s for one.
    await waitFor(async () => {
      const queue = await stack.runtime.temporal.client.workflowService.describeTaskQueue({
        namespace: stack.config.TEMPORAL_NAMESPACE,
        taskQueue: { name: stack.config.TEMPORAL_TASK_QUEUE },
        taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
      });
      return (queue.pollers?.length ?? 0) > 0;
    }, { timeoutMs: 90_000, intervalMs: 500, what: 'the worker process to poll' });
    const started = await call(stack.baseUrl, 'POST', `/automations/${created.body.id}/run`, { key: org.member.key });
    expect(started.status).toBe(202);
    const runId: string = started.body.runId;

    await waitFor(async () => upstream.requests.length >= 1, { timeoutMs: 60_000, what: 'the model call to reach the upstream' });
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    startWorkerProcess();

    const run = await waitFor(async () => {
      const list = await call(stack.baseUrl, 'GET', `/automations/${created.body.id}/runs`, { key: org.member.key });
      const found = list.body.runs.find((r: any) => r.id === runId);
      return found && found.status !== 'running' ? found : undefined;
    }, { timeoutMs: 150_000, intervalMs: 500, what: 'the run to finish on the second worker' });
    expect(run.status, run.error).toBe('success');
    expect(upstream.requests.length).toBe(2);
    const deliveries = receiver.deliveries.filter((d) => d.deliveryId === `${runId}:0`);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.verified).toBe(true);
  });
});

describe('Temporal restart', () => {
  let server: DevServer | undefined;
  let stack: Stack | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-restart-'));

  afterAll(async () => {
    await stack?.stop();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps firing an active automation across a restart of the Temporal server', { timeout: 180_000 }, async () => {
    const port = await freePort();
    const dbFile = path.join(dir, 'temporal.sqlite');
    server = await startTemporalDevServer({ port, dbFile });
    stack = await startStack({ env: { TEMPORAL_ADDRESS: server.address, AUTOMATION_MIN_INTERVAL_SECONDS: '1' } });
    const org = await createTestOrganization(stack.runtime.orm);
    const api = (method: string, route: string, body?: unknown) => call(stack!.baseUrl, method, route, { key: org.member.key, body });
    const created = await api('POST', '/automations', { name: 'Steady', systemPrompt: 'Tick.', schedule: '*/2 * * * * *' });
    expect(created.status).toBe(201);
    const runCount = async () => (await api('GET', `/automations/${created.body.id}/runs?status=success`)).body.total as number;
    await waitFor(async () => (await runCount()) >= 1, { timeoutMs: 30_000, what: 'a fire before the restart' });

    await server.stop();
    server = await startTemporalDevServer({ port, dbFile });
    const before = await runCount();
    await waitFor(async () => (await runCount()) >= before + 2, { timeoutMs: 90_000, intervalMs: 500, what: 'fires after the restart' });
    const detail = await api('GET', `/automations/${created.body.id}`);
    expect(detail.body.status).toBe('active');
    expect(detail.body.runSummary.counts.running).toBeLessThanOrEqual(1);
  });
});

describe('no worker', () => {
  let stack: Stack | undefined;
  afterAll(async () => stack?.stop());

  it('answers 503 service_unavailable when no worker applies a lifecycle change in time', { timeout: 60_000 }, async () => {
    stack = await startStack({ worker: false });
    const org = await createTestOrganization(stack.runtime.orm);
    const created = await call(stack.baseUrl, 'POST', '/automations', {
      key: org.member.key,
      body: { name: 'Orphan', systemPrompt: 'x', schedule: '0 9 * * *' },
    });
    expect(created.status).toBe(201);
    const startedAt = Date.now();
    const res = await call(stack.baseUrl, 'POST', `/automations/${created.body.id}/pause`, { key: org.member.key });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('service_unavailable');
    expect(Date.now() - startedAt).toBeLessThan(20_000);
  });
});
