// The soak's work besides gateway calls: an assistant whose webhook receives WEBHOOK_RPS events a
// second (each runs the assistant through the gateway and delivers to a signed-webhook receiver),
// AUTOMATIONS automations firing on a schedule (every minute unless the bench says otherwise), each calling a tool of an MCP connection (the
// fixture server over Streamable HTTP) and delivering to the receiver, one in APPROVAL_EVERY of
// them under an `always` approval policy that this loop decides by API (POST /approvals/{id}/approve).
import { randomUUID } from 'node:crypto';
import { call } from '../../test/helpers/http.js';

export interface WorkloadReport {
  eventsSent: number;
  eventsAcknowledged: number;
  approvalsDecided: number;
  errors: Map<string, number>;
}

export interface WorkloadTargets {
  baseUrl: string;
  ownerKey: string;
  receiverUrl: string;
  receiverSecret: string;
  mcpToken: string;
}

function fail(report: WorkloadReport, kind: string): void {
  report.errors.set(kind, (report.errors.get(kind) ?? 0) + 1);
}

async function mustCreate(baseUrl: string, key: string, path: string, body: unknown): Promise<any> {
  const res = await call(baseUrl, 'POST', path, { key, body });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** Creates the assistant, its webhook, the connection and the automations; returns the webhook's path. */
export async function createWorkload(targets: WorkloadTargets, options: { automations: number; approvalEvery: number; schedule: string }): Promise<{ webhookPath: string; automationIds: string[] }> {
  const { baseUrl, ownerKey: key } = targets;
  const channels = [{ type: 'webhook', target: targets.receiverUrl, secret: targets.receiverSecret }];
  await mustCreate(baseUrl, key, '/tools/connections', { toolId: 'fixture-http', name: 'Soak fixture', env: { FIXTURE_TOKEN: targets.mcpToken } });
  const assistant = await mustCreate(baseUrl, key, '/assistants', {
    name: 'Soak assistant', systemPrompt: 'Answer in one line.', model: 'fake-model', trigger: { type: 'webhook' }, channels,
  });
  const automationIds: string[] = [];
  for (let i = 0; i < options.automations; i += 1) {
    const approval = i % options.approvalEvery === 0;
    const automation = await mustCreate(baseUrl, key, '/automations', {
      name: `Soak ${i} ${randomUUID().slice(0, 6)}`,
      systemPrompt: approval ? 'Call add with the tool, then say the answer.' : 'Call echo with the tool, then say what it said.',
      schedule: options.schedule,
      status: 'active',
      model: 'agent-model',
      tools: ['fixture-http'],
      ...(approval ? { toolApprovals: { 'fixture-http__add': 'always' } } : {}),
      channels,
    });
    automationIds.push(automation.id);
  }
  return { webhookPath: new URL(assistant.webhookUrl).pathname.replace(/^\/v1/, ''), automationIds };
}

export interface Workload {
  report: WorkloadReport;
  /** Stops sending events; approvals go on being decided. */
  stopEvents(): void;
  stop(): Promise<void>;
}

/** Sends the webhook events on a clock and approves pending tool calls every 2 s. */
export function startWorkload(targets: WorkloadTargets, webhookPath: string, options: { webhookRps: number }): Workload {
  const report: WorkloadReport = { eventsSent: 0, eventsAcknowledged: 0, approvalsDecided: 0, errors: new Map() };
  const pending = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  const started = Date.now();
  let due = 0;
  const events = setInterval(() => {
    const target = Math.floor(((Date.now() - started) / 1000) * options.webhookRps);
    while (due < target) {
      due += 1;
      report.eventsSent += 1;
      track(call(targets.baseUrl, 'POST', webhookPath, { body: { event: 'soak', index: due }, headers: { 'idempotency-key': `soak-${due}` } }).then(
        (res) => {
          if (res.status === 202) report.eventsAcknowledged += 1;
          else fail(report, `webhook ${res.status} ${res.body?.error?.code ?? ''}`.trim());
        },
        () => fail(report, 'webhook network'),
      ));
    }
  }, 50);
  let deciding = false;
  const approvals = setInterval(() => {
    if (deciding) return;
    deciding = true;
    track((async () => {
      try {
        const list = await call(targets.baseUrl, 'GET', '/approvals?status=pending&limit=100', { key: targets.ownerKey });
        if (list.status !== 200) {
          fail(report, `approvals list ${list.status}`);
          return;
        }
        for (const approval of list.body.approvals as { id: string }[]) {
          const decided = await call(targets.baseUrl, 'POST', `/approvals/${approval.id}/approve`, { key: targets.ownerKey, body: {} });
          // 409: decided meanwhile (or expired): not an error of the service.
          if (decided.status === 200) report.approvalsDecided += 1;
          else if (decided.status !== 409) fail(report, `approve ${decided.status} ${decided.body?.error?.code ?? ''}`.trim());
        }
      } catch {
        fail(report, 'approvals network');
      } finally {
        deciding = false;
      }
    })());
  }, 2000);
  return {
    report,
    stopEvents() {
      clearInterval(events);
    },
    async stop() {
      clearInterval(events);
      clearInterval(approvals);
      await Promise.all([...pending]);
    },
  };
}
