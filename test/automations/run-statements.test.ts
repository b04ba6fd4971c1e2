// The SQL one run costs (the worker's CPU per fire is mostly MikroORM, knex and pg).
// Every statement the stack sends is counted through knex's `query` event while one run goes
// from its workflow's start to its end, after a first run has warmed the per-process caches (DLP
// policy, budget counters), as in a burst of fires. The gateway's audit and usage rows are
// written in batches off the request path (one statement per batch of up to 500 calls), so they
// are counted apart. Before the carried plan and the single-statement rows either run
// cost 18 statements: a transaction of six for the row, then the run, its automation and its
// owner read again by each of the plan, the scan and the model call, and a read before the final
// update. With RECORD_HISTORIES=1 the manual run's history is written as a replay fixture of the
// `carried-plan` path chosen by its input (codeVersion).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunActivities } from '../../src/automations/run-activities.js';
import { runsTaskQueue } from '../../src/config.js';
import { SEARCH_ATTRIBUTES } from '../../src/search-attributes.js';
import { RUN_CODE, type RunWorkflowInput, type RunWorkflowResult } from '../../src/workflows/run.js';
import { RECORDING, patchIds, writeHistoryFixture } from '../helpers/histories.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;
/** Statements seen since the last reset, by their SQL text. */
let statements: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  org = await createTestOrganization(stack.runtime.orm);
  stack.runtime.orm.em.getConnection().getKnex().on('query', (query: { sql: string }) => {
    statements.push(query.sql);
  });
});
afterAll(async () => {
  await stack?.stop();
});

const isAuditBatch = (sql: string) => sql.includes('"gateway_requests"');

async function createAutomation(): Promise<string> {
  const res = await call(stack.baseUrl, 'POST', '/automations', {
    key: org.member.key,
    body: { name: 'Counted', systemPrompt: 'Say hi.', schedule: '0 9 * * *', status: 'paused' },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

/** Starts `run/<runId>` the way its automation does and waits for its end. */
async function runWorkflow(input: RunWorkflowInput): Promise<RunWorkflowResult> {
  return stack.runtime.temporal.clientFor(org.id).workflow.execute('runWorkflow', {
    workflowId: `run/${input.runId}`,
    taskQueue: runsTaskQueue(stack.config),
    args: [{ ...input, codeVersion: RUN_CODE }],
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.OrganizationId, value: org.id },
      { key: SEARCH_ATTRIBUTES.AutomationId, value: input.automationId },
      { key: SEARCH_ATTRIBUTES.TriggerType, value: input.trigger },
    ],
  });
}

/** A scheduled run: the run workflow writes its own row first (`begin`), as a fire starts it. */
async function scheduledRun(automationId: string): Promise<string> {
  const runId = randomUUID();
  const result = await runWorkflow({
    runId, automationId, organizationId: org.id, trigger: 'schedule', parentWorkflowId: `automation/${automationId}`,
    begin: { context: null, schedule: { status: 'paused', nextRunAt: null, skippedFires: 0, version: 1_000_000 + Date.now() % 1_000_000 } },
  });
  expect(result.status).toBe('success');
  return runId;
}

/** A manual run: its automation records it with an activity, then starts the run workflow. */
async function manualRun(automationId: string): Promise<string> {
  const runId = randomUUID();
  const started = await createRunActivities(stack.runtime).recordRunStarted({
    runId, automationId, organizationId: org.id, trigger: 'manual', context: { note: 'counted' },
    schedule: { status: 'paused', nextRunAt: null, skippedFires: 0, version: 0 },
  });
  expect(started).not.toBeNull();
  const result = await runWorkflow({ runId, automationId, organizationId: org.id, trigger: 'manual', parentWorkflowId: `automation/${automationId}` });
  expect(result.status).toBe('success');
  return runId;
}

async function countedRun(start: (automationId: string) => Promise<string>): Promise<{ runId: string; counted: string[] }> {
  const automationId = await createAutomation();
  await start(automationId); // warms the caches a burst shares
  statements = [];
  const runId = await start(automationId);
  const counted = statements.filter((sql) => !isAuditBatch(sql));
  process.stdout.write(`[run-statements] ${start.name}: ${counted.length} statements\n${counted.map((sql) => `  ${sql.replace(/\s+/g, ' ').slice(0, 100)}`).join('\n')}\n`);
  return { runId, counted };
}

describe('SQL statements per run', () => {
  it('a scheduled run (the fire path) costs three: its row with its plan, the owner check of the model call, its result', async () => {
    const { counted } = await countedRun(scheduledRun);
    expect(counted).toHaveLength(3);
    expect(counted[0]).toMatch(/insert into "automation_runs"/);
    expect(counted[1]).toMatch(/from "automations" a join "users" u/);
    expect(counted[2]).toMatch(/^\s*update "automation_runs"/);
  }, 60_000);

  it('a manual run (recorded by its automation first) costs four: its row, its plan, the owner check, its result', async () => {
    const { runId, counted } = await countedRun(manualRun);
    expect(counted).toHaveLength(4);
    if (RECORDING) {
      const history = await stack.runtime.temporal.client.workflow.getHandle(`run/${runId}`).fetchHistory();
      // The run's input (codeVersion) chose the `lean-run` and `carried-plan` paths: no patch marker.
      expect(patchIds(history)).toEqual([]);
      writeHistoryFixture('run-manual.code-2.history.bin', history);
    }
  }, 60_000);
});
