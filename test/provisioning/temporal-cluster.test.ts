// The production topology's Temporal server (scripts/temporal-cluster.sh): built from its Go
// module at the version docker-compose.yml pins, its stores migrated into PostgreSQL, the
// namespace and search attributes registered. The service runs on it unchanged: an automation's
// scheduled fire and a manual run end `success`, and the run's workflow is found in the server's
// SQL visibility by the search attributes the workflows set. PostgreSQL stage only (the server's
// stores are PostgreSQL databases); on a fresh machine the first run builds the server.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import net from 'node:net';
import { promisify } from 'node:util';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const databaseUrl = inject('databaseUrl');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-cluster-'));
const db = `temporal_cluster_test_${randomUUID().slice(0, 8)}`;
let clusterEnv: NodeJS.ProcessEnv;
let address: string;
let stack: Stack;
let org: TestOrganization;

/** Whether 127.0.0.1:port can be bound now. */
const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer().once('error', () => resolve(false)).listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A frontend port with the ports the server derives from it free too. Below 32768: the server
 * stores its services' membership ports in a smallint column.
 */
async function clusterPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const derived = [0, 1, 2, 6, 10, 100, 101, 102, 106].map((offset) => port + offset);
    if ((await Promise.all(derived.map(isFree))).every(Boolean)) return port;
  }
}

const run = promisify(execFile);

/**
 * The script, asynchronously: its first run on a machine builds the server (minutes), and a
 * synchronous child would stop this test process's event loop for that long, so that vitest's
 * calls to it time out (60 s) and fail the run with an unhandled error.
 */
const cluster = async (command: string) =>
  (await run('bash', ['scripts/temporal-cluster.sh', command], { env: clusterEnv, encoding: 'utf8', timeout: 20 * 60_000, maxBuffer: 64 * 1024 * 1024 })).stdout;

beforeAll(async () => {
  if (!databaseUrl) return;
  const pg = new URL(databaseUrl);
  clusterEnv = {
    ...process.env,
    TEMPORAL_CLUSTER_PORT: String(await clusterPort()),
    TEMPORAL_CLUSTER_DB: db,
    TEMPORAL_CLUSTER_DIR: dir,
    PGHOST: pg.hostname,
    PGPORT: pg.port || '5432',
    PGUSER: decodeURIComponent(pg.username) || 'postgres',
    PGPASSWORD: decodeURIComponent(pg.password),
  };
  [address] = (await cluster('start')).trim().split(/\s+/) as [string];
  stack = await startStack({ env: { TEMPORAL_ADDRESS: address } });
  org = await createTestOrganization(stack.runtime.orm);
}, 25 * 60_000);

afterAll(async () => {
  await stack?.stop();
  if (clusterEnv) {
    await cluster('stop');
    const admin = new URL(databaseUrl!);
    for (const name of [db, `${db}_visibility`]) {
      await run('psql', [admin.toString(), '-c', `drop database if exists "${name}" with (force)`]);
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe.runIf(databaseUrl)('the production Temporal server on PostgreSQL', () => {
  it('runs an automation\'s scheduled fire and a manual run to success, findable by its search attributes', { timeout: 240_000 }, async () => {
    const api = (method: string, route: string, body?: unknown) => call<any>(stack.baseUrl, method, route, { key: org.owner.key, body });
    const created = await api('POST', '/automations', { name: 'on the cluster', systemPrompt: 'Say hi.', schedule: '* * * * *', timezone: 'UTC' });
    expect(created.status, created.text).toBe(201);
    const runs = async (query = '') => (await api('GET', `/automations/${created.body.id}/runs${query}`)).body;
    await waitFor(async () => (await runs('?status=success')).runs.some((run: any) => run.trigger === 'schedule'), { timeoutMs: 100_000, what: 'the next minute\'s scheduled run to succeed' });
    const manual = await api('POST', `/automations/${created.body.id}/run`);
    expect(manual.status, manual.text).toBe(202);
    await waitFor(async () => (await runs('?status=success')).runs.some((run: any) => run.id === manual.body.runId), { timeoutMs: 60_000, what: 'the manual run to succeed' });

    // The server's own visibility (SQL, the compose server's) answers by the workflows' search attributes.
    const connection = await Connection.connect({ address });
    try {
      const client = new Client({ connection });
      const found = await waitFor(async () => {
        const ids: string[] = [];
        for await (const workflow of client.workflow.list({ query: `AutomationId = '${created.body.id}' AND OrganizationId = '${org.id}' AND TriggerType = 'manual'` })) ids.push(workflow.workflowId);
        return ids.includes(`run/${manual.body.runId}`) ? ids : undefined;
      }, { timeoutMs: 30_000, what: 'the manual run in the visibility store' });
      expect(found).toContain(`run/${manual.body.runId}`);
    } finally {
      await connection.close();
    }
    await api('DELETE', `/automations/${created.body.id}`);
  });
});
