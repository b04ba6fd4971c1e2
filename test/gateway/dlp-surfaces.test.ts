// DLP on every text of a chat request that leaves for the upstream, not only string `content`:
// content parts arrays, tool-call arguments the client sends back, tool results, and the `tools`
// definitions (descriptions and parameter schemas). Block answers 403 naming the types; mask
// sends the redaction upstream (read back from the fake upstream); the audit counts types only.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GatewayRequestRecord } from '../../src/gateway/entities.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let primary: FakeUpstream;

beforeAll(async () => {
  primary = await startFakeUpstream();
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary })) } });
});
afterEach(() => primary.reset());
afterAll(async () => {
  await stack?.stop();
  await primary?.close();
});

const CARD = '4111 1111 1111 1111';
const SECRET = `svc_live_${'Zq7'.repeat(12)}`;

const lookupTool = (description = 'Looks up an order') => ({
  type: 'function',
  function: { name: 'lookup_order', description, parameters: { type: 'object', properties: { id: { type: 'string', description: 'The order id' } } } },
});

/** A conversation in which the model called a tool with `args` and the tool answered `result`. */
function toolRound(args: string, result = 'order found') {
  return [
    { role: 'user', content: 'Find my order' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: args } }] },
    { role: 'tool', tool_call_id: 'call_1', content: result },
  ];
}

function chat(org: TestOrganization, body: Record<string, unknown>) {
  return call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', ...body } });
}

async function auditOf(org: TestOrganization, requestId: string | null) {
  return waitFor(async () => stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, requestId: requestId! }), { what: 'audit record' });
}

function expectBlocked(res: Awaited<ReturnType<typeof chat>>, type: string, raw: string) {
  expect(res.status).toBe(403);
  expect(res.body.error).toMatchObject({ code: 'dlp_blocked', detectors: [type] });
  expect(res.text).not.toContain(raw);
  expect(primary.requests).toHaveLength(0);
}

describe('DLP by default (block) on what else a chat request carries', () => {
  let org: TestOrganization;
  beforeAll(async () => {
    org = await createTestOrganization(stack.runtime.orm);
  });

  it('blocks tool-call arguments carrying a card number (OpenAI format with tools)', async () => {
    const res = await chat(org, { messages: toolRound(JSON.stringify({ id: 'A-1', card: CARD })), tools: [lookupTool()] });
    expectBlocked(res, 'credit_card', CARD);
    expect(await auditOf(org, res.headers.get('x-request-id'))).toMatchObject({ outcome: 'blocked', dlpFindings: { credit_card: 1 } });
  });

  it('blocks a tool result carrying a secret', async () => {
    const res = await chat(org, { messages: toolRound('{"id":"A-1"}', `token: ${SECRET}`), tools: [lookupTool()] });
    expectBlocked(res, 'service_api_key', SECRET);
  });

  it('blocks a secret in a tool description or parameter schema', async () => {
    expectBlocked(await chat(org, { messages: [{ role: 'user', content: 'hi' }], tools: [lookupTool(`Call with key ${SECRET}`)] }), 'service_api_key', SECRET);
    const schemaTool = lookupTool();
    (schemaTool.function.parameters.properties.id as { description: string }).description = `e.g. ${CARD}`;
    expectBlocked(await chat(org, { messages: [{ role: 'user', content: 'hi' }], tools: [schemaTool] }), 'credit_card', CARD);
  });

  it('blocks text in a content parts array', async () => {
    const res = await chat(org, { messages: [{ role: 'user', content: [{ type: 'text', text: 'Here is my card:' }, { type: 'text', text: CARD }] }] });
    expectBlocked(res, 'credit_card', CARD);
  });

  it('passes a clean content parts array through unchanged', async () => {
    const content = [{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }];
    const res = await chat(org, { messages: [{ role: 'user', content }] });
    expect(res.status).toBe(200);
    expect(primary.requests[0]?.body.messages).toEqual([{ role: 'user', content }]);
  });

  it('answers 400 naming the part for a malformed content part', async () => {
    const res = await chat(org, { messages: [{ role: 'user', content: [{ type: 'text', text: 'ok' }, { type: 'text' }] }] });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('messages[0].content[1].text');
  });
});

describe('DLP mask on what else a chat request carries', () => {
  let org: TestOrganization;
  beforeAll(async () => {
    org = await createTestOrganization(stack.runtime.orm);
    const put = await call(stack.baseUrl, 'PUT', '/dlp/policy', { key: org.owner.key, body: { detectors: { credit_card: 'mask', service_api_key: 'mask' } } });
    expect(put.status).toBe(200);
  });

  it('masks tool-call arguments, tool results, tool definitions and content parts before the upstream sees them', async () => {
    const messages = [
      { role: 'system', content: [{ type: 'text', text: `Internal key ${SECRET}` }] },
      ...toolRound(JSON.stringify({ id: 'A-1', card: CARD }), `token: ${SECRET}`),
    ];
    const res = await chat(org, { messages, tools: [lookupTool(`Call with key ${SECRET}`)] });
    expect(res.status).toBe(200);
    const sent = primary.requests[0]!.body;
    expect(JSON.stringify(sent)).not.toContain(SECRET);
    expect(JSON.stringify(sent)).not.toContain(CARD);
    expect(sent.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Internal key [REDACTED:service_api_key]' }] },
      { role: 'user', content: 'Find my order' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"id":"A-1","card":"[REDACTED:credit_card]"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'token: [REDACTED:service_api_key]' },
    ]);
    expect((sent.tools as any[])[0].function.description).toBe('Call with key [REDACTED:service_api_key]');
    const audit = await auditOf(org, res.headers.get('x-request-id'));
    expect(audit.dlpFindings).toEqual({ credit_card: 1, service_api_key: 3 });
    expect(JSON.stringify(audit)).not.toContain(SECRET);
  });
});
