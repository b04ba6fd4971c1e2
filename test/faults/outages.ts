// Outages of a dependency during a burst, on the production build (test/faults/scenarios.ts):
// webhook events sent at a steady pace by a few senders (each retried with the same
// Idempotency-Key until acknowledged, waiting as Retry-After says), plus an automation firing on a
// seconds-level cron, while `fault` takes a dependency away and brings it back. The report says
// what every answer during the burst was (how long it took, 503s and their Retry-After), and the
// outcome of every acknowledged event and every fired run.
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { freePort, startTemporalDevServer, type DevServer } from '../../src/dev/temporal-server.js';
import { openDatabase } from '../../src/db/orm.js';
import { entities } from '../../src/orm-entities.js';
import { AutomationRun } from '../../src/automations/entities.js';
import { executionWorkflowId, webhookRunId } from '../../src/webhooks/webhook-ids.js';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { call, waitFor } from '../helpers/http.js';
import { CHANNEL_SECRET, createTargets, deliveryIdOf, settleBurst, type BurstReport, type FaultStack, type SentEvent } from './scenarios.js';

const EventType = proto.temporal.api.enums.v1.EventType;

export interface OutageBurstOptions {
  /** How long the senders keep sending new events. */
  durationMs: number;
  lanes: number;
  /** Pause of each sender between two events. */
  intervalMs: number;
  /** Started this long into the burst; the burst goes on while it runs. */
  faultAtMs: number;
  fault: () => Promise<void>;
  /** A client gives up on an answer after this long (counted as a hang). */
  clientTimeoutMs?: number;
  /** The cron of an automation that keeps firing through the burst; undefined: none. */
  firingSchedule?: string;
  /** Where runs are read from (the stack's database). */
  databaseUrl: () => string;
}

export interface AnswerSample {
  status: number;
  ms: number;
  retryAfter: string | null;
  code: string | undefined;
}

export interface OutageReport {
  burst: BurstReport;
  /** Every answer that was not a 202 (a hang: status 0 at the client's timeout). */
  refusals: AnswerSample[];
  /** The slowest answer of the burst, 202 or not (ms). */
  slowestAnswerMs: number;
  /** Seconds from the fault's start until the first acknowledgment after it ended. */
  secondsWithoutAck: number;
  /** Seconds from the fault's end until the last acknowledged event was delivered (the burst goes on meanwhile). */
  secondsToDrain: number;
  /** Seconds from the last acknowledgment until the last delivery: the backlog left when the burst ended (compare with a run without fault). */
  secondsAfterBurst: number;
  /** The firing automation's runs: each fire one run, ending `success`, delivered once. */
  runs: { fired: number; success: number; failed: string[]; delivered: number; duplicates: number };
}

export async function outageBurst(stack: FaultStack, options: OutageBurstOptions): Promise<OutageReport> {
  const targets = await createTargets(stack);
  // The firing automation delivers to a receiver of its own: the burst's counts stay the events'.
  const firingReceiver = options.firingSchedule ? await startWebhookReceiver() : undefined;
  const firing = firingReceiver ? await createFiringAutomation(stack, firingReceiver, options.firingSchedule!) : undefined;
  const sent: SentEvent[] = [];
  const refusals: AnswerSample[] = [];
  let slowestAnswerMs = 0;
  const startedAt = Date.now();
  let faultStartedAt = Infinity;
  let faultEndedAt = Infinity;
  let firstAckAfterFault = Infinity;
  const fault = new Promise<void>((resolve, reject) => {
    setTimeout(() => {
      faultStartedAt = Date.now();
      options.fault().then(() => {
        faultEndedAt = Date.now();
        resolve();
      }, reject);
    }, options.faultAtMs);
  });
  let index = 0;
  const lane = async () => {
    while (Date.now() - startedAt < options.durationMs) {
      const event = index++;
      const target = event % 2 === 0 ? 'assistant' : 'automation';
      const path = target === 'assistant' ? targets.assistantPath : targets.automationPath;
      for (;;) {
        const began = Date.now();
        const answer = await fetch(stack.baseUrl + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': `outage-${event}` },
          body: JSON.stringify({ event: 'outage', index: event }),
          signal: AbortSignal.timeout(options.clientTimeoutMs ?? 15_000),
        }).then(async (res) => ({ status: res.status, headers: res.headers, body: await res.json().catch(() => undefined) as any }))
          .catch(() => undefined);
        const ms = Date.now() - began;
        slowestAnswerMs = Math.max(slowestAnswerMs, ms);
        if (answer?.status === 202) {
          const acknowledgedAt = Date.now();
          if (acknowledgedAt > faultEndedAt) firstAckAfterFault = Math.min(firstAckAfterFault, acknowledgedAt);
          sent.push({ index: event, target, executionId: answer.body.executionId, acknowledgedAt, beforeFaults: began < faultStartedAt });
          break;
        }
        refusals.push({ status: answer?.status ?? 0, ms, retryAfter: answer?.headers.get('retry-after') ?? null, code: answer?.body?.error?.code });
        const wait = Number(answer?.headers.get('retry-after') ?? 0.2) * 1000;
        await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 2000)));
      }
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
    }
  };
  await Promise.all([...Array.from({ length: options.lanes }, lane), fault]);
  const burst = await settleBurst(stack, sent.length, sent);
  // Where the slowest events waited: the history of each, for the log (a report, not an assertion).
  process.stdout.write(`[faults] the slowest events:\n${await slowestEvents(stack, sent, 3)}\n`);
  const lastDelivery = Math.max(...stack.receiver.deliveries.map((delivery) => delivery.receivedAt));
  const runs = firing
    ? await settleFiring(stack, firingReceiver!, firing, options.databaseUrl()).finally(() => firingReceiver!.stop())
    : { fired: 0, success: 0, failed: [], delivered: 0, duplicates: 0 };
  return {
    burst,
    refusals,
    slowestAnswerMs,
    secondsWithoutAck: firstAckAfterFault === Infinity ? Infinity : (firstAckAfterFault - faultStartedAt) / 1000,
    secondsToDrain: Math.max(0, (lastDelivery - faultEndedAt) / 1000),
    secondsAfterBurst: Math.max(0, (lastDelivery - Math.max(...sent.map((event) => event.acknowledgedAt))) / 1000),
    runs,
  };
}

async function createFiringAutomation(stack: FaultStack, receiver: WebhookReceiver, schedule: string): Promise<string> {
  receiver.secret = CHANNEL_SECRET;
  const created = await call(stack.baseUrl, 'POST', '/automations', {
    key: stack.org.owner.key,
    body: { name: 'Firing automation', systemPrompt: 'Tick.', schedule, channels: [{ type: 'webhook', target: receiver.url, secret: CHANNEL_SECRET }] },
  });
  if (created.status !== 201) throw new Error(`firing automation: ${created.status} ${created.text}`);
  return created.body.id;
}

/** Pauses the firing automation, waits for its runs to end and counts them and their deliveries. */
async function settleFiring(stack: FaultStack, receiver: WebhookReceiver, automationId: string, databaseUrl: string): Promise<OutageReport['runs']> {
  await waitFor(async () => (await call(stack.baseUrl, 'POST', `/automations/${automationId}/pause`, { key: stack.org.owner.key })).status === 200, {
    timeoutMs: 60_000, intervalMs: 1000, what: 'the firing automation to pause',
  });
  const orm = await openDatabase({ databaseUrl }, { entities });
  try {
    const rows = await waitFor(async () => {
      const found = await orm.em.fork().find(AutomationRun, { automationId });
      return found.every((run) => run.status !== 'running') ? found : undefined;
    }, { timeoutMs: 180_000, intervalMs: 500, what: 'every fired run to end' }).catch(async (error: Error) => {
      const stuck = (await orm.em.fork().find(AutomationRun, { automationId, status: 'running' })).map((run) => run.id);
      throw new Error(`${error.message}\n${await describeRuns(stack, stuck)}`);
    });
    const ids = new Set(rows.map((run) => run.id));
    const expected = rows.filter((run) => run.status === 'success').map((run) => `${run.id}:0`);
    await waitFor(async () => expected.every((id) => receiver.deliveries.some((d) => d.deliveryId === id)), {
      timeoutMs: 30_000, intervalMs: 250, what: 'every fired run to be delivered',
    }).catch(() => undefined);
    const arrivals = new Map<string, number>();
    for (const d of receiver.deliveries) {
      if (d.verified && d.deliveryId && ids.has(d.deliveryId.split(':')[0]!)) arrivals.set(d.deliveryId, (arrivals.get(d.deliveryId) ?? 0) + 1);
    }
    return {
      fired: rows.length,
      success: rows.filter((run) => run.status === 'success').length,
      failed: rows.filter((run) => run.status !== 'success').map((run) => `run ${run.id} (${run.trigger}): ${run.status} ${run.error ?? ''}`),
      delivered: expected.filter((id) => arrivals.has(id)).length,
      // A run delivered under a second channel index or id would be a second delivery of one fire.
      duplicates: [...arrivals.keys()].filter((id) => !expected.includes(id)).length,
    };
  } finally {
    await orm.close();
  }
}

/** What the workflows of runs still `running` are doing, and what the worker said of them: for a failure's message. */
async function describeRuns(stack: FaultStack, runIds: string[]): Promise<string> {
  return withClient(stack, async (client) => {
    const described = await Promise.all(runIds.map(async (runId) => {
      const said = stack.worker.output.filter((line) => line.includes(runId)).slice(-10);
      return `${await timeline(client, `run/${runId}`)}\n  worker: ${said.join('\n  worker: ')}`;
    }));
    return described.join('\n');
  });
}

/** The workflows of the `count` events slowest from acknowledgment to delivery, event by event: where a slow one waited. */
async function slowestEvents(stack: FaultStack, sent: SentEvent[], count: number): Promise<string> {
  const arrivals = new Map<string, number>();
  for (const delivery of stack.receiver.deliveries) {
    if (delivery.deliveryId && !arrivals.has(delivery.deliveryId)) arrivals.set(delivery.deliveryId, delivery.receivedAt);
  }
  const slowest = sent
    .map((event) => ({ event, seconds: ((arrivals.get(deliveryIdOf(event)) ?? Infinity) - event.acknowledgedAt) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count);
  return withClient(stack, async (client) => {
    const lines: string[] = [];
    for (const { event, seconds } of slowest) {
      lines.push(`${event.target} event ${event.index}, delivered ${seconds.toFixed(1)} s after its acknowledgment at ${new Date(event.acknowledgedAt).toISOString()}:`);
      lines.push(await timeline(client, executionWorkflowId(event.executionId)));
      if (event.target === 'automation') lines.push(await timeline(client, `run/${webhookRunId(event.executionId)}`));
    }
    return lines.join('\n');
  });
}

async function withClient(stack: FaultStack, use: (client: Client) => Promise<string>): Promise<string> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address: stack.temporalAddress });
    return await use(new Client({ connection }));
  } catch (error) {
    return `(could not read the workflows: ${(error as Error).message})`;
  } finally {
    await connection?.close();
  }
}

/** A workflow's state and its history, each event with its time (UTC) and its seconds since the previous one. */
async function timeline(client: Client, workflowId: string): Promise<string> {
  const handle = client.workflow.getHandle(workflowId);
  const description = await handle.describe().then((d) => ({
    status: d.status.name,
    pendingActivities: d.raw.pendingActivities?.map((a) => ({ type: a.activityType?.name, state: a.state, attempt: a.attempt, lastFailure: a.lastFailure?.message })),
    pendingWorkflowTask: d.raw.pendingWorkflowTask ? { state: d.raw.pendingWorkflowTask.state, attempt: d.raw.pendingWorkflowTask.attempt } : undefined,
  }), (error: Error) => ({ error: error.message }));
  const events: string[] = [];
  try {
    const history = (await handle.fetchHistory()).events ?? [];
    let previous: number | undefined;
    for (const event of history) {
      const at = Number(event.eventTime?.seconds ?? 0) * 1000 + Math.round((event.eventTime?.nanos ?? 0) / 1e6);
      const type = EventType[event.eventType ?? 0]?.replace(/^EVENT_TYPE_/, '') ?? String(event.eventType);
      const scheduled = event.activityTaskScheduledEventAttributes;
      const started = event.activityTaskStartedEventAttributes;
      const detail = scheduled ? ` ${scheduled.activityType?.name} on ${scheduled.taskQueue?.name}` : started ? ` attempt ${started.attempt}` : '';
      events.push(`${new Date(at).toISOString().slice(11, 23)} ${type}${detail}${previous === undefined ? '' : ` +${((at - previous) / 1000).toFixed(1)}s`}`);
      previous = at;
    }
  } catch (error) {
    events.push(`history: ${(error as Error).message}`);
  }
  return `${workflowId}: ${JSON.stringify(description)}\n  ${events.join('\n  ')}`;
}

/** A dev server on a file of its own: SIGKILLed as a crash would, started again on the same port and file. */
export async function killableTemporal(dir: string): Promise<{ address: string; kill(): Promise<void>; restart(): Promise<void>; stop(): Promise<void> }> {
  const port = await freePort();
  const dbFile = path.join(dir, 'temporal.sqlite');
  let server: DevServer = await startTemporalDevServer({ port, dbFile });
  return {
    address: server.address,
    async kill() {
      const pid = server.pid!;
      process.kill(pid, 'SIGKILL');
      await waitFor(async () => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      }, { timeoutMs: 10_000, intervalMs: 50, what: 'the Temporal server to die' });
    },
    async restart() {
      server = await startTemporalDevServer({ port, dbFile });
    },
    stop: () => server.stop(),
  };
}
