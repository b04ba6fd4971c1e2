// Run outputs reach their channels: a fake Slack Web API (posted to with the organization's own
// bot token, given with the channel), a real SMTP listener and a webhook receiver that verifies
// the signature. A retried delivery never posts twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../src/activities/index.js';
import { startFakeSlack, type FakeSlack } from '../fixtures/fake-slack.js';
import { startSmtpListener, type SmtpListener } from '../fixtures/smtp.js';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

/** The organization's own Slack app's token: each Slack channel carries it (SECURITY.md's third round). */
const SLACK_TOKEN = 'xoxb-test-token-for-automations';

let stack: Stack;
let org: TestOrganization;
let slack: FakeSlack;
let smtp: SmtpListener;
let receiver: WebhookReceiver;

beforeAll(async () => {
  [slack, smtp, receiver] = await Promise.all([startFakeSlack({ token: SLACK_TOKEN }), startSmtpListener(), startWebhookReceiver()]);
  stack = await startStack({
    env: {
      SLACK_API_URL: slack.apiUrl,
      SMTP_URL: smtp.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([slack?.stop(), smtp?.stop(), receiver?.stop()]);
});

const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key: org.member.key, body });

async function runToCompletion(automationId: string) {
  const started = await api('POST', `/automations/${automationId}/run`);
  expect(started.status).toBe(202);
  const runId: string = started.body.runId;
  return waitFor(async () => {
    const list = await api('GET', `/automations/${automationId}/runs`);
    const run = list.body.runs.find((r: any) => r.id === runId);
    return run && run.status !== 'running' ? run : undefined;
  }, { timeoutMs: 20_000, what: `run ${runId} to finish` });
}

describe('channels', () => {
  it('delivers the output to Slack, email and a signed webhook', async () => {
    const created = await api('POST', '/automations', {
      name: 'Standup notes',
      systemPrompt: 'Write the standup notes.',
      schedule: '0 9 * * 1-5',
      status: 'paused',
      channels: [
        { type: 'slack', target: '#reports', token: SLACK_TOKEN },
        { type: 'email', target: 'ops@example.test' },
        { type: 'webhook', target: receiver.url },
      ],
    });
    expect(created.status).toBe(201);
    const secret: string = created.body.channels[2].secret;
    expect(secret).toMatch(/^whsec_/);
    receiver.secret = secret;
    // The generated secret is shown once, never again.
    const detail = await api('GET', `/automations/${created.body.id}`);
    expect(detail.body.channels[2]).toEqual({ type: 'webhook', target: receiver.url });
    expect(detail.text).not.toContain(secret);

    const run = await runToCompletion(created.body.id);
    expect(run.status, run.error).toBe('success');
    expect(run.output).toEqual(expect.any(String));

    const post = slack.posts.find((p) => p.text.includes('Standup notes'));
    expect(post).toMatchObject({ channel: '#reports', authorization: `Bearer ${SLACK_TOKEN}` });
    expect(post!.text).toContain(run.output);

    const mail = await waitFor(async () => smtp.messages.find((m) => m.to.includes('ops@example.test')), { what: 'the email' });
    expect(mail.raw).toContain('Subject: [Automation] Standup notes');
    expect(mail.raw).toMatch(new RegExp(`X-Service-Delivery-Id: ${run.id}:1`, "i"));
    expect(mail.raw).toContain(`<${run.id}.1@automations.ai-workspace>`);

    const delivery = receiver.deliveries.find((d) => d.deliveryId === `${run.id}:2`);
    expect(delivery).toMatchObject({ verified: true, verifiedWithTimestamp: true, answeredStatus: 200 });
    expect(delivery!.body).toMatchObject({ id: `${run.id}:2`, event: 'automation.run.completed', data: { runId: run.id, automationId: created.body.id, output: run.output } });
    expect(Math.abs(Number(delivery!.timestamp) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('retries a failed delivery with the same delivery id and never posts twice', async () => {
    const created = await api('POST', '/automations', {
      name: 'Retry digest',
      systemPrompt: 'Digest.',
      schedule: '0 9 * * *',
      status: 'paused',
      channels: [
        { type: 'slack', target: '#retries', token: SLACK_TOKEN },
        { type: 'webhook', target: receiver.url, secret: 'a-caller-chosen-secret-0123456789' },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.channels[1]).toEqual({ type: 'webhook', target: receiver.url });
    receiver.secret = 'a-caller-chosen-secret-0123456789';
    slack.failNext(1, 503);
    receiver.failNext(1);

    const run = await runToCompletion(created.body.id);
    expect(run.status, run.error).toBe('success');
    const attempts = receiver.deliveries.filter((d) => d.deliveryId === `${run.id}:1`);
    expect(attempts.map((d) => d.answeredStatus)).toEqual([500, 200]);
    expect(attempts.every((d) => d.verified)).toBe(true);
    expect(attempts[0]!.body).toEqual(attempts[1]!.body);
    expect(slack.posts.filter((p) => p.channel === '#retries')).toHaveLength(1);

    // A retry of an activity that already delivered (its completion lost) sends nothing again.
    const activities = createActivities(stack.runtime);
    for (const channelIndex of [0, 1]) {
      const repeat = await activities.deliverRunOutput({ runId: run.id, channelIndex, output: run.output });
      expect(repeat).toMatchObject({ deliveryId: `${run.id}:${channelIndex}`, repeated: true });
    }
    expect(slack.posts.filter((p) => p.channel === '#retries')).toHaveLength(1);
    expect(receiver.deliveries.filter((d) => d.deliveryId === `${run.id}:1`)).toHaveLength(2);
  });

  it('fails the run at once with the reason when Slack refuses the channel', async () => {
    const created = await api('POST', '/automations', {
      name: 'Nowhere',
      systemPrompt: 'Digest.',
      schedule: '0 9 * * *',
      status: 'paused',
      channels: [{ type: 'slack', target: '#missing-channel', token: SLACK_TOKEN }],
    });
    const run = await runToCompletion(created.body.id);
    expect(run.status).toBe('failure');
    expect(run.error).toContain('channel_not_found');
    expect(run.completedAt).not.toBeNull();
    const detail = await api('GET', `/automations/${created.body.id}`);
    expect(detail.body.runSummary.counts).toEqual({ running: 0, success: 0, failure: 1 });
  });
});
