// Fault tolerance of the acknowledgment: webhook requests stream into an API child process that
// is SIGKILLed mid-stream. Every execution acknowledged with 202 before the kill exists in
// Temporal and completes (on this stack's worker), with its execution record, even when the API
// died between the workflow start and its own insert. The child shares the run's PostgreSQL
// database, so the test needs DATABASE_URL (PGlite in memory cannot be shared between processes).
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../src/dev/temporal-server.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

// Needs PostgreSQL: the API child process and this test must share one database, which an
// in-memory PGlite (one per process) cannot be.
describe.skipIf(!inject('databaseUrl'))('webhook acknowledgment under an API crash', () => {
  let stack: Stack;
  let org: TestOrganization;
  let api: ChildProcess | undefined;

  beforeAll(async () => {
    stack = await startStack();
    org = await createTestOrganization(stack.runtime.orm);
  });
  afterAll(async () => {
    api?.kill('SIGKILL');
    await stack?.stop();
  });

  async function startApiProcess(): Promise<string> {
    const { config } = stack;
    const port = await freePort();
    api = spawn(process.execPath, ['--import', 'tsx', 'src/api/main.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: config.dataDir,
        DATABASE_URL: config.DATABASE_URL,
        REDIS_URL: config.REDIS_URL ?? '',
        REDIS_KEY_PREFIX: config.REDIS_KEY_PREFIX,
        TEMPORAL_ADDRESS: config.TEMPORAL_ADDRESS,
        TEMPORAL_TASK_QUEUE: config.TEMPORAL_TASK_QUEUE,
        SECRET_KEY: config.SECRET_KEY,
        WEBHOOK_RATE_LIMIT_PER_WEBHOOK: '100000',
        WEBHOOK_RATE_LIMIT_PER_IP: '100000',
        AUTOMATION_RECONCILE_ON_START: 'false',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${baseUrl}/healthz`)).ok, { timeoutMs: 90_000, what: 'the API process to listen' });
    return `${baseUrl}/v1`;
  }

  it('completes every execution acknowledged before the API process was killed', { timeout: 240_000 }, async () => {
    const created = await call(stack.baseUrl, 'POST', '/assistants', {
      key: org.admin.key,
      body: { name: 'Crash survivor', systemPrompt: 'Acknowledge.', trigger: { type: 'webhook' } },
    });
    const path = new URL(created.body.webhookUrl).pathname.replace(/^\/v1/, '');
    const baseUrl = await startApiProcess();

    const acknowledged: string[] = [];
    let killed = false;
    const sender = async (lane: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const res = await call(baseUrl, 'POST', path, { body: { lane, i } });
          if (res.status === 202) acknowledged.push(res.body.executionId);
        } catch {
          // The process died under this request: not acknowledged, nothing is owed.
        }
      }
    };
    const lanes = Promise.all([0, 1, 2, 3].map(sender));
    await waitFor(async () => acknowledged.length >= 20, { timeoutMs: 90_000, what: '20 acknowledgments' });
    api!.kill('SIGKILL');
    await new Promise((resolve) => api!.once('exit', resolve));
    killed = true;
    await lanes;
    api = undefined;

    const client = stack.runtime.temporal.client;
    for (const executionId of acknowledged) {
      const handle = client.workflow.getHandle(`webhook/${executionId}`);
      await expect(handle.describe(), executionId).resolves.toBeTruthy();
      const result = await handle.result();
      expect(result.output).toContain('[dev-echo]');
      const status = await call(stack.baseUrl, 'GET', `/webhooks/executions/${executionId}`, { key: org.member.key });
      expect(status.body.status, executionId).toBe('success');
    }
    expect(new Set(acknowledged).size).toBe(acknowledged.length);
  });
});
