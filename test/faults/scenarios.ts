// Fault scenarios on the production build, shared by the fault tests (which assert their outcomes)
// and bench/faults/restart.bench.ts (which prints their table): an API process and a worker
// process from `tsc` output on PostgreSQL (+ Redis), a slow fake upstream, and a signed-webhook
// receiver as every assistant's and automation's channel.
//
// - webhookBurst: events to an assistant's and an automation's webhooks (each with an
//   Idempotency-Key, retried until acknowledged) while the worker and then the API are SIGKILLed
//   and started again; every acknowledged event must end `success` and reach the receiver under
//   exactly one delivery id (a repeat of the same id, which receivers drop, is counted apart).
// - runsInFlight: manual runs of an automation, the worker SIGKILLed while they are in flight and
//   started again; every run must end `success`, delivered once, and no run may start twice.
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../../src/db/orm.js';
import { entities } from '../../src/orm-entities.js';
import { freePort } from '../../src/dev/temporal-server.js';
import { AutomationRun } from '../../src/automations/entities.js';
import { assistantDeliveryId } from '../../src/assistants/assistant-run.js';
import { webhookRunId } from '../../src/webhooks/webhook-ids.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { productionProcess, type ProductionProcess } from '../helpers/production.js';

export interface FaultStackOptions {
  buildDir: string;
  databaseUrl: string;
  redisUrl: string | undefined;
  temporalAddress: string;
  bundlePath: string;
  /** How long the fake upstream takes per answer. */
  upstreamLatencyMs: number;
  /** Extra environment of both processes (e.g. WORKER_STICKY_QUEUE_TIMEOUT_SECONDS). */
  env?: Record<string, string>;
}

export interface FaultStack {
  /** `http://127.0.0.1:<port>/v1` of the API process (the same port across restarts). */
  baseUrl: string;
  temporalAddress: string;
  api: ProductionProcess;
  worker: ProductionProcess;
  upstream: FakeUpstream;
  receiver: WebhookReceiver;
  org: TestOrganization;
  stop(): Promise<void>;
}

export const CHANNEL_SECRET = 'fault-test-channel-secret-0123456789abcdef';

export async function startFaultStack(options: FaultStackOptions): Promise<FaultStack> {
  const [upstream, receiver] = await Promise.all([startFakeUpstream(), startWebhookReceiver()]);
  upstream.setDefault({ latencyMs: options.upstreamLatencyMs });
  receiver.secret = CHANNEL_SECRET;
  const orm = await openDatabase({ databaseUrl: options.databaseUrl }, { entities });
  const org = await createTestOrganization(orm).finally(() => orm.close());
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: '/tmp/ai-workspace-fault-data',
    DATABASE_URL: options.databaseUrl,
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl, REDIS_KEY_PREFIX: `faults:${randomUUID()}:` } : {}),
    TEMPORAL_ADDRESS: options.temporalAddress,
    TEMPORAL_TASK_QUEUE: `faults-${randomUUID()}`,
    WORKFLOW_BUNDLE_PATH: options.bundlePath,
    SECRET_KEY: Buffer.alloc(32, 9).toString('base64'),
    GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream, timeoutMs: options.upstreamLatencyMs + 10_000 })),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RATE_LIMIT_PER_WEBHOOK: '100000',
    WEBHOOK_RATE_LIMIT_PER_IP: '100000',
    RATE_LIMIT_PER_KEY_PER_MINUTE: '100000',
    RATE_LIMIT_PER_ORG_PER_MINUTE: '100000',
    ...options.env,
  };
  const api = productionProcess(options.buildDir, 'api', env);
  const worker = productionProcess(options.buildDir, 'worker', env);
  await Promise.all([api.start(), worker.start()]);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    temporalAddress: options.temporalAddress,
    api,
    worker,
    upstream,
    receiver,
    org,
    async stop() {
      await Promise.all([api.stop(), worker.stop()]);
      await Promise.all([upstream.close(), receiver.stop()]);
    },
  };
}

const channels = [{ type: 'webhook', target: '', secret: CHANNEL_SECRET }];

export async function createTargets(stack: FaultStack): Promise<{ assistantPath: string; automationPath: string; automationId: string }> {
  const key = stack.org.owner.key;
  const target = [{ ...channels[0], target: stack.receiver.url }];
  const assistant = await call(stack.baseUrl, 'POST', '/assistants', {
    key, body: { name: 'Fault assistant', systemPrompt: 'Answer in one line.', model: 'standard', trigger: { type: 'webhook' }, channels: target },
  });
  if (assistant.status !== 201) throw new Error(`assistant: ${assistant.status} ${assistant.text}`);
  const automation = await call(stack.baseUrl, 'POST', '/automations', {
    key, body: { name: 'Fault automation', systemPrompt: 'Summarise the event.', schedule: '0 0 1 1 *', status: 'paused', channels: target },
  });
  if (automation.status !== 201) throw new Error(`automation: ${automation.status} ${automation.text}`);
  const webhook = await call(stack.baseUrl, 'POST', `/automations/${automation.body.id}/webhooks`, { key });
  if (webhook.status !== 201) throw new Error(`automation webhook: ${webhook.status} ${webhook.text}`);
  const pathOf = (url: string) => new URL(url).pathname.replace(/^\/v1/, '');
  return { assistantPath: pathOf(assistant.body.webhookUrl), automationPath: pathOf(webhook.body.url), automationId: automation.body.id };
}

export interface BurstOptions {
  events: number;
  lanes: number;
  /** Fraction of the events acknowledged when the worker is SIGKILLed (then started again at once); undefined: never. */
  killWorkerAt?: number;
  /** Fraction acknowledged when the API is SIGKILLed (then started again at once); undefined: never. */
  killApiAt?: number;
}

export interface BurstReport {
  events: number;
  acknowledged: number;
  success: number;
  failure: number;
  /** Acknowledged events whose delivery never arrived. */
  undelivered: number;
  /** Events delivered under more than one delivery id (a second run or answer): must be 0. */
  duplicates: number;
  /** Extra arrivals of a delivery id already received (receivers drop them): reported, not a failure. */
  repeats: number;
  /** Median seconds from acknowledgment to delivery, for events acknowledged before any fault. */
  baselineSeconds: number;
  /** The slowest event's seconds from acknowledgment to delivery, less the baseline: what the restarts cost. */
  delaySeconds: number;
  /** Why each failed event failed (empty when none). */
  failures: string[];
}

export interface SentEvent {
  index: number;
  target: 'assistant' | 'automation';
  executionId: string;
  acknowledgedAt: number;
  beforeFaults: boolean;
}

export async function webhookBurst(stack: FaultStack, options: BurstOptions): Promise<BurstReport> {
  const targets = await createTargets(stack);
  const sent: SentEvent[] = [];
  let faultsStarted = false;
  const faults: Promise<void>[] = [];
  /** SIGKILL, then started again at once, as a supervisor would. */
  const killAndRestart = (process: ProductionProcess) => {
    faultsStarted = true;
    faults.push((async () => {
      await process.kill();
      await process.start();
    })());
  };
  let workerKilled = false;
  let apiKilled = false;
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < options.events; index = next++) {
      const target = index % 2 === 0 ? 'assistant' : 'automation';
      const path = target === 'assistant' ? targets.assistantPath : targets.automationPath;
      // Retried until acknowledged, as a sender does: the same Idempotency-Key names the same execution.
      for (;;) {
        const answer = await call(stack.baseUrl, 'POST', path, { body: { event: 'burst', index }, headers: { 'idempotency-key': `burst-${index}` } }).catch(() => undefined);
        if (answer?.status === 202) {
          sent.push({ index, target, executionId: answer.body.executionId, acknowledgedAt: Date.now(), beforeFaults: !faultsStarted });
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      if (!workerKilled && options.killWorkerAt !== undefined && sent.length >= Math.ceil(options.events * options.killWorkerAt)) {
        workerKilled = true;
        killAndRestart(stack.worker);
      }
      if (!apiKilled && options.killApiAt !== undefined && sent.length >= Math.ceil(options.events * options.killApiAt)) {
        apiKilled = true;
        killAndRestart(stack.api);
      }
    }
  };
  await Promise.all(Array.from({ length: options.lanes }, lane));
  await Promise.all(faults);
  return settleBurst(stack, options.events, sent);
}

/** The delivery id an acknowledged event's answer arrives under. */
export function deliveryIdOf(event: SentEvent): string {
  return event.target === 'assistant' ? assistantDeliveryId(event.executionId, 0) : `${webhookRunId(event.executionId)}:0`;
}

/**
 * Waits for every acknowledged event to end and for its delivery, then counts: outcomes, events
 * never delivered, delivered under a second id (a second run or answer), repeats of one id.
 */
export async function settleBurst(stack: FaultStack, events: number, sent: SentEvent[]): Promise<BurstReport> {
  const key = stack.org.owner.key;
  const outcomes = new Map<string, { status: string; error?: string }>();
  await waitFor(async () => {
    for (const event of sent) {
      if (outcomes.has(event.executionId)) continue;
      const res = await call(stack.baseUrl, 'GET', `/webhooks/executions/${event.executionId}`, { key });
      if (res.body?.status === 'success' || res.body?.status === 'failure') outcomes.set(event.executionId, res.body);
    }
    return outcomes.size === sent.length;
  }, { timeoutMs: 300_000, intervalMs: 500, what: 'every acknowledged execution to end' });
  // Deliveries follow the execution's end only for assistants (the run delivers before it ends): wait for those that succeeded.
  const expected = new Map(sent.filter((event) => outcomes.get(event.executionId)?.status === 'success').map((event) => [deliveryIdOf(event), event]));
  await waitFor(async () => [...expected.keys()].every((id) => stack.receiver.deliveries.some((d) => d.deliveryId === id)), {
    timeoutMs: 60_000, intervalMs: 250, what: 'every successful event to be delivered',
  }).catch(() => undefined);

  const arrivals = new Map<string, { count: number; firstAt: number }>();
  for (const delivery of stack.receiver.deliveries) {
    if (!delivery.verified || !delivery.deliveryId) continue;
    const seen = arrivals.get(delivery.deliveryId);
    if (seen) seen.count += 1;
    else arrivals.set(delivery.deliveryId, { count: 1, firstAt: delivery.receivedAt });
  }
  // A second run or answer for one event would arrive under another delivery id than the one expected.
  const unexpected = [...arrivals.keys()].filter((id) => !expected.has(id));
  const latencies = (filter: (event: SentEvent) => boolean) => sent.filter(filter).flatMap((event) => {
    const arrival = arrivals.get(deliveryIdOf(event));
    return arrival ? [(arrival.firstAt - event.acknowledgedAt) / 1000] : [];
  }).sort((a, b) => a - b);
  const baseline = latencies((event) => event.beforeFaults);
  const all = latencies(() => true);
  const baselineSeconds = baseline.length > 0 ? baseline[Math.floor(baseline.length / 2)]! : 0;
  const failures = sent.flatMap((event) => {
    const outcome = outcomes.get(event.executionId);
    return outcome?.status === 'success' ? [] : [`${event.target} event ${event.index} (${event.executionId}): ${outcome?.status} ${outcome?.error ?? ''}`];
  });
  return {
    events,
    acknowledged: new Set(sent.map((event) => event.executionId)).size,
    success: sent.length - failures.length,
    failure: failures.length,
    undelivered: [...expected.keys()].filter((id) => !arrivals.has(id)).length,
    duplicates: unexpected.length,
    repeats: [...arrivals.values()].reduce((sum, arrival) => sum + arrival.count - 1, 0),
    baselineSeconds,
    delaySeconds: Math.max(0, (all.at(-1) ?? 0) - baselineSeconds),
    failures,
  };
}

export interface InFlightReport {
  /** Runs recorded: the acknowledged ones, plus any a request answered 503 started all the same. */
  runs: number;
  /** Runs whose start was answered 202. */
  acknowledged: number;
  completed: number;
  failed: number;
  /** Runs recorded beyond the ones started, or delivered under more than one id: must be 0. */
  duplicated: number;
  /** Extra arrivals of a delivery id already received: reported, not a failure. */
  repeats: number;
  undelivered: number;
  /** Seconds from the worker's SIGKILL until every run had ended. */
  secondsToFinishAfterKill: number;
  failures: string[];
}

export async function runsInFlight(stack: FaultStack, options: { runs: number; databaseUrl: string }): Promise<InFlightReport> {
  const { automationId } = await createTargets(stack);
  const key = stack.org.owner.key;
  const runIds: string[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let i = next++; i < options.runs; i = next++) {
      // A 503 says "try again" (the automation's workflow did not answer within 10 s on a busy
      // machine); the run may have started all the same, so the runs are counted from the rows.
      for (;;) {
        const started = await call(stack.baseUrl, 'POST', `/automations/${automationId}/run`, { key });
        if (started.status === 202) {
          runIds.push(started.body.runId);
          break;
        }
        if (started.status !== 503) throw new Error(`run ${i}: ${started.status} ${started.text}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }));
  // Killed while runs are in flight: some delivered, most waiting on the slow upstream.
  await waitFor(async () => stack.receiver.deliveries.length >= Math.min(10, options.runs / 10), { timeoutMs: 120_000, intervalMs: 100, what: 'the first deliveries' });
  const killedAt = Date.now();
  await stack.worker.kill();
  await stack.worker.start();

  const orm = await openDatabase({ databaseUrl: options.databaseUrl }, { entities });
  try {
    const rows = await waitFor(async () => {
      const found = await orm.em.fork().find(AutomationRun, { automationId });
      return found.length >= runIds.length && found.every((run) => run.status !== 'running') ? found : undefined;
    }, { timeoutMs: 300_000, intervalMs: 500, what: 'every run to end' });
    const finishedAt = Date.now();
    // Every run recorded, including any started by a request that answered 503.
    const recorded = rows.map((run) => run.id);
    await waitFor(async () => recorded.every((id) => stack.receiver.deliveries.some((d) => d.deliveryId === `${id}:0`)), {
      timeoutMs: 30_000, intervalMs: 250, what: 'every run to be delivered',
    }).catch(() => undefined);
    const started = new Set(recorded);
    const counts = new Map<string, number>();
    for (const delivery of stack.receiver.deliveries) {
      if (delivery.verified && delivery.deliveryId) counts.set(delivery.deliveryId, (counts.get(delivery.deliveryId) ?? 0) + 1);
    }
    const failed = rows.filter((run) => run.status !== 'success');
    return {
      runs: rows.length,
      acknowledged: runIds.length,
      completed: rows.filter((run) => run.status === 'success').length,
      failed: failed.length,
      // A delivery under an id that names no recorded run, or an acknowledged run without a row.
      duplicated: [...counts.keys()].filter((id) => !started.has(id.split(':')[0]!)).length + runIds.filter((id) => !started.has(id)).length,
      repeats: [...counts.values()].reduce((sum, count) => sum + count - 1, 0),
      undelivered: recorded.filter((id) => !counts.has(`${id}:0`)).length,
      secondsToFinishAfterKill: (finishedAt - killedAt) / 1000,
      failures: failed.map((run) => `run ${run.id}: ${run.status} ${run.error ?? ''}`),
    };
  } finally {
    await orm.close();
  }
}

/** The report as one table row, for the test's log and the benchmark. */
export function formatReport(name: string, report: BurstReport | InFlightReport): string {
  const fields = Object.entries(report).filter(([field]) => field !== 'failures');
  return `| ${name} | ${fields.map(([field, value]) => `${field} ${typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(1) : value}`).join(' | ')} |`;
}
