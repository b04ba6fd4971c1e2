// The runs page's `total` and the automation's run summary come from trigger-kept counters
// (automation_run_counts, for lists at 1M rows): they must equal a count(*) of the runs after
// inserts, status changes, deletes, and disappear with the automation.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deleteAutomationRows } from '../../src/automations/automations.service.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
});

// Arrays go as PostgreSQL array literals: knex would expand a JS array into a list.
const sql = (query: string, params: unknown[] = []) => stack.runtime.orm.em.getConnection().execute(query, params);

async function actual(automationId: string): Promise<Record<string, number>> {
  const rows = (await sql('select status, count(*)::int as n from automation_runs where automation_id = ? group by status', [automationId])) as { status: string; n: number }[];
  return { running: 0, success: 0, failure: 0, ...Object.fromEntries(rows.map((r) => [r.status, r.n])) };
}

async function reported(automationId: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const status of ['running', 'success', 'failure']) {
    const res = await call(stack.baseUrl, 'GET', `/automations/${automationId}/runs?status=${status}&limit=1`, { key: org.member.key });
    expect(res.status, res.text).toBe(200);
    out[status] = res.body.total;
  }
  return out;
}

async function createPausedAutomation(name: string): Promise<string> {
  const created = await call(stack.baseUrl, 'POST', '/automations', { key: org.member.key, body: { name, systemPrompt: 'x', schedule: '0 0 1 1 *', status: 'paused' } });
  expect(created.status, created.text).toBe(201);
  return created.body.id as string;
}

async function expectCountsMatch(automationId: string): Promise<void> {
  const truth = await actual(automationId);
  expect(await reported(automationId)).toEqual(truth);
  const all = await call(stack.baseUrl, 'GET', `/automations/${automationId}/runs`, { key: org.member.key });
  const sum = Object.values(truth).reduce((a, b) => a + b, 0);
  expect(all.body.total).toBe(sum);
  const detail = await call(stack.baseUrl, 'GET', `/automations/${automationId}`, { key: org.member.key });
  expect(detail.body.runSummary).toMatchObject({ counts: truth, total: sum });
}

describe('run counts', () => {
  it('follow inserts, status changes and deletes of runs, and go with the automation', async () => {
    const id = await createPausedAutomation('Counted');
    await expectCountsMatch(id);

    const runIds = Array.from({ length: 30 }, () => randomUUID());
    await sql(
      `insert into automation_runs (id, automation_id, organization_id, trigger, status, started_at)
       select r, ?, ?, 'manual', case when n % 3 = 0 then 'failure' when n % 3 = 1 then 'success' else 'running' end, now() - n * interval '1 minute'
       from unnest(?::uuid[]) with ordinality as t(r, n)`,
      [id, org.id, `{${runIds.join(',')}}`],
    );
    await expectCountsMatch(id);

    // Runs finishing (running -> success), one status left unchanged, a no-op update.
    await sql(`update automation_runs set status = 'success' where automation_id = ? and status = 'running'`, [id]);
    await sql(`update automation_runs set output = 'x' where automation_id = ?`, [id]);
    await expectCountsMatch(id);
    expect((await actual(id)).running).toBe(0);

    await sql('delete from automation_runs where id = any(?::uuid[])', [`{${runIds.slice(0, 7).join(',')}}`]);
    await expectCountsMatch(id);

    // Deleting the automation (here its row: no worker runs in this file) cascades to both tables.
    await sql('delete from automations where id = ?', [id]);
    expect(await sql('select * from automation_run_counts where automation_id = ?', [id])).toEqual([]);
  });
});

// A run cancelled by the automation's deletion records its end while the deletion removes the
// rows: the run's update holds its row, then its count trigger takes a key-share lock on the
// automation's row. The deletion must not hold the automation's row while it waits for the run's
// (CI once answered DELETE /automations/{id} with a 500: the deadlock PostgreSQL broke by
// aborting the deletion). Here the run's side is a second connection, paused in between.
describe.skipIf(!inject('databaseUrl'))('deleting an automation while its run ends', () => {
  it('neither deadlocks: the run records its end, then the automation goes with its runs', async () => {
    const id = await createPausedAutomation('Deleted mid-run');
    const runId = randomUUID();
    await sql(`insert into automation_runs (id, automation_id, organization_id, trigger, status, started_at) values (?, ?, ?, 'manual', 'running', now())`, [runId, id, org.id]);

    const run = new pg.Client({ connectionString: inject('databaseUrl') });
    await run.connect();
    try {
      await run.query('begin');
      await run.query('select 1 from automation_runs where id = $1 for update', [runId]);
      const deletion = deleteAutomationRows(stack.runtime, org.id, id);
      const settled = deletion.then(() => 'deleted', (error: Error) => error);
      await waitFor(async () => {
        const waiting = await sql('select 1 from pg_stat_activity where ?::int = any(pg_blocking_pids(pid))', [(run as unknown as { processID: number }).processID]);
        return waiting.length > 0;
      }, { what: 'the deletion to wait for the run row' });
      // What completeRun does, count trigger included.
      await run.query(`update automation_runs set status = 'failure', error = 'cancelled', completed_at = now() where id = $1 and status = 'running'`, [runId]);
      await run.query('commit');
      expect(await settled).toBe('deleted');
    } finally {
      await run.end();
    }
    expect(await sql('select 1 from automations where id = ?', [id])).toEqual([]);
    expect(await sql('select 1 from automation_runs where automation_id = ?', [id])).toEqual([]);
    expect(await sql('select 1 from automation_run_counts where automation_id = ?', [id])).toEqual([]);
  });
});
