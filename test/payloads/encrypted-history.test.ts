// Customer data never reaches Temporal in plaintext: a webhook body, a prompt, a tool result and
// a run output, each carrying a unique marker, are searched for in the raw bytes of every event
// of every workflow of the organization, read with a Temporal client that has no codec (search
// attributes and static summaries included). The codec server decodes them for the organization
// that owns them (admin or owner), for nobody else; and a SECRET_KEY rotation keeps history
// readable through SECRET_KEY_PREVIOUS.
import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startMcpHttpFixture, type HttpFixture } from '../fixtures/mcp-server.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { cookieValue, createPasswordUser } from '../identity/helpers.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { writeFixtureCatalog } from '../tools/fixture-catalog.js';

const TOKEN = `tok-${randomUUID()}`;
const marker = (what: string) => `${what}-${randomBytes(8).toString('hex')}`;
const MARKERS = { body: marker('BODYMARK'), prompt: marker('PROMPTMARK'), tool: marker('TOOLMARK'), output: marker('OUTPUTMARK'), automationOutput: marker('RUNOUTMARK') };
const OLD_KEY = randomBytes(32).toString('base64');
const NEW_KEY = randomBytes(32).toString('base64');

let stack: Stack;
let org: TestOrganization;
let other: TestOrganization;
let upstream: FakeUpstream;
let mcp: HttpFixture;
/** Raw history (protobuf bytes) of every workflow the organization ran, by workflow id. */
const histories = new Map<string, { bytes: Buffer; history: temporal.api.history.v1.IHistory }>();
let executionId: string;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  mcp = await startMcpHttpFixture({ token: TOKEN });
  stack = await startStack({
    env: {
      SECRET_KEY: OLD_KEY,
      GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })),
      TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: mcp.url, hangUrl: mcp.url }),
    },
  });
  org = await createTestOrganization(stack.runtime.orm);
  other = await createTestOrganization(stack.runtime.orm);
  const api = (method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key: org.member.key, body });
  expect((await api('POST', '/tools/connections', { toolId: 'fixture-http', name: 'Fixture', env: { FIXTURE_TOKEN: TOKEN } })).status).toBe(201);

  // A webhook assistant: the body and the prompt go in, the model calls the echo tool (its result
  // carries a marker) and answers with the output marker.
  const assistant = await api('POST', '/assistants', {
    name: 'Echoer', model: 'fake-model', trigger: { type: 'webhook' }, tools: ['fixture-http'], systemPrompt: `Echo it. ${MARKERS.prompt}`,
  });
  expect(assistant.status, assistant.text).toBe(201);
  upstream.enqueue(
    { toolCalls: [{ id: 'call_1', name: 'fixture-http__echo', arguments: JSON.stringify({ text: MARKERS.tool }) }] },
    { content: `Done: ${MARKERS.output}` },
  );
  const ack = await call(stack.baseUrl, 'POST', new URL(assistant.body.webhookUrl).pathname.replace(/^\/v1/, ''), { body: { note: MARKERS.body } });
  expect(ack.status).toBe(202);
  executionId = ack.body.executionId;
  const execution = await waitFor(async () => {
    const res = await api('GET', `/webhooks/executions/${executionId}`);
    return ['success', 'failure'].includes(res.body.status) ? res.body : undefined;
  }, { timeoutMs: 60_000, what: 'the webhook execution' });
  expect(execution).toMatchObject({ status: 'success', output: `Done: ${MARKERS.output}` });

  // An automation run: its prompt and its output.
  const automation = await api('POST', '/automations', { name: 'Nightly', systemPrompt: `Summarise. ${MARKERS.prompt}`, schedule: '0 9 * * *', model: 'fake-model', status: 'paused' });
  expect(automation.status, automation.text).toBe(201);
  upstream.enqueue({ content: `Summary: ${MARKERS.automationOutput}` });
  const started = await api('POST', `/automations/${automation.body.id}/run`);
  expect(started.status, started.text).toBe(202);
  const run = await waitFor(async () => {
    const res = await api('GET', `/automations/${automation.body.id}/runs?status=success`);
    return res.body.runs[0];
  }, { timeoutMs: 60_000, what: 'the automation run' });
  expect(run.output).toContain(MARKERS.automationOutput);

  // Every workflow of the organization, read without any codec.
  const raw = new Client({ connection: stack.runtime.temporal.connection, namespace: stack.config.TEMPORAL_NAMESPACE });
  for await (const workflow of raw.workflow.list({ query: `OrganizationId = '${org.id}'` })) {
    const history = await raw.workflow.getHandle(workflow.workflowId, workflow.runId).fetchHistory();
    histories.set(workflow.workflowId, { history, bytes: Buffer.from(temporal.api.history.v1.History.encode(history).finish()) });
  }
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
  await mcp?.stop();
});

/** The input payloads of the webhook execution's start event, as the Web UI would send them. */
function startPayloads(): { metadata: Record<string, string>; data: string }[] {
  const events = histories.get(`webhook/${executionId}`)?.history.events ?? [];
  const payloads = events[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
  expect(payloads.length).toBeGreaterThan(0);
  return payloads.map((payload) => ({
    metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value).toString('base64')])),
    data: Buffer.from(payload.data ?? []).toString('base64'),
  }));
}
const decodedText = (body: { payloads: { data: string }[] }) => body.payloads.map((payload) => Buffer.from(payload.data, 'base64').toString('utf8')).join('\n');

describe('Temporal history of an organization', () => {
  it('holds the webhook body, prompt, tool result and outputs only encrypted, summaries and search attributes included', () => {
    expect([...histories.keys()].some((id) => id.startsWith('webhook/'))).toBe(true);
    expect([...histories.keys()].some((id) => id.startsWith('run/'))).toBe(true);
    expect([...histories.keys()].some((id) => id.startsWith('automation/'))).toBe(true);
    for (const [workflowId, { bytes }] of histories) {
      for (const [what, value] of Object.entries(MARKERS)) {
        expect(bytes.includes(value), `${what} marker in the raw history of ${workflowId}`).toBe(false);
      }
      expect(bytes.includes('binary/encrypted'), `${workflowId} carries encrypted payloads`).toBe(true);
    }
    // Static summaries stay readable without the codec: ids and names only.
    const started = histories.get(`webhook/${executionId}`)!.history.events![0]!;
    const summary = started.userMetadata?.summary;
    expect(Buffer.from(summary?.data ?? []).toString('utf8')).toMatch(/^"Webhook execution of assistant [0-9a-f-]{36}"$/);
  });
});

describe('POST /v1/codec/decode', () => {
  const decode = (key: string | undefined, payloads = startPayloads(), headers: Record<string, string> = {}) =>
    call(stack.baseUrl, 'POST', '/codec/decode', { ...(key ? { key } : {}), body: { payloads }, headers: { 'x-namespace': stack.config.TEMPORAL_NAMESPACE, ...headers } });

  it("decodes the organization's payloads for its admin", async () => {
    const res = await decode(org.admin.key);
    expect(res.status, res.text).toBe(200);
    expect(decodedText(res.body)).toContain(MARKERS.body);
  });

  it("returns another organization's payloads unchanged", async () => {
    const res = await decode(other.owner.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ payloads: startPayloads() });
    expect(decodedText(res.body)).not.toContain(MARKERS.body);
  });

  it('answers 401 without credentials and 403 to a member', async () => {
    expect((await decode(undefined)).status).toBe(401);
    const member = await decode(org.member.key);
    expect(member.status).toBe(403);
    expect(member.body.error.code).toBe('forbidden');
  });

  it('allows the Web UI origin with credentials, preflight included, and no other origin', async () => {
    const origin = stack.config.temporalUiOrigin;
    const preflight = await fetch(`${stack.baseUrl}/codec/decode`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-namespace' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-namespace');
    const denied = await decode(org.admin.key, startPayloads(), { origin: 'https://evil.example' });
    expect(denied.headers.get('access-control-allow-origin')).toBeNull();
    const unauthenticated = await decode(undefined, startPayloads(), { origin });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('access-control-allow-origin')).toBe(origin);
  });

  it("takes an admin's session cookie from the Web UI's origin, and refuses it from any other", async () => {
    const admin = await createPasswordUser(stack.runtime.orm, org.id, 'admin');
    const login = await call(stack.baseUrl, 'POST', '/auth/login', { body: { email: admin.email, password: admin.password } });
    const token = cookieValue(login.headers, 'svc_session');
    expect(token, login.text).toBeDefined();
    const cookie = `svc_session=${token}`;
    const fromUi = await decode(undefined, startPayloads(), { cookie, origin: stack.config.temporalUiOrigin });
    expect(fromUi.status, fromUi.text).toBe(200);
    expect(decodedText(fromUi.body)).toContain(MARKERS.body);
    expect((await decode(undefined, startPayloads(), { cookie, origin: 'https://evil.example' })).status).toBe(403);
  });

  it('rejects a body that is not a list of payloads with 400 naming the field', async () => {
    const res = await call(stack.baseUrl, 'POST', '/codec/decode', { key: org.admin.key, body: { payloads: [{ data: 'not base64!' }] } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', param: 'payloads.0.data' });
  });
});

describe('SECRET_KEY rotation', () => {
  it('still decodes history written under the previous key once it is listed in SECRET_KEY_PREVIOUS', async () => {
    const rotated = await startStack({ worker: false, env: { SECRET_KEY: NEW_KEY, SECRET_KEY_PREVIOUS: OLD_KEY } });
    const forgotten = await startStack({ worker: false, env: { SECRET_KEY: NEW_KEY } });
    try {
      const result = await rotated.runtime.temporal.client.workflow.getHandle(`webhook/${executionId}`).result();
      expect(JSON.stringify(result)).toContain(MARKERS.output);
      await expect(forgotten.runtime.temporal.client.workflow.getHandle(`webhook/${executionId}`).result()).rejects.toThrow(/SECRET_KEY_PREVIOUS/);
      if (stack.config.DATABASE_URL) {
        // Same database: the organization's admin reads the old history through the rotated codec server.
        const res = await call(rotated.baseUrl, 'POST', '/codec/decode', { key: org.admin.key, body: { payloads: startPayloads() } });
        expect(res.status).toBe(200);
        expect(decodedText(res.body)).toContain(MARKERS.body);
      }
    } finally {
      await rotated.stop();
      await forgotten.stop();
    }
  }, 60_000);
});
