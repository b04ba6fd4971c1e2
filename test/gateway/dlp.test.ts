// DLP on the chat path and the policy endpoints: block (403 naming types only), mask (the
// upstream sees the redaction), log (passes, counted in the audit), off (not even counted).
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

function ask(org: TestOrganization, content: string, stream = false) {
  return call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'fake-model', messages: [{ role: 'user', content }], stream } });
}

async function auditOf(org: TestOrganization, requestId: string | null) {
  return waitFor(async () => stack.runtime.orm.em.fork().findOne(GatewayRequestRecord, { organizationId: org.id, requestId: requestId! }), { what: 'audit record' });
}

describe('DLP on chat completions', () => {
  let org: TestOrganization;
  beforeAll(async () => {
    org = await createTestOrganization(stack.runtime.orm);
  });

  it.each([
    ['a payment card', `pay with ${CARD}`, 'credit_card'],
    ['an svc_live_ API key', `my key is ${SECRET}`, 'service_api_key'],
    ['a US SSN', 'SSN 536-22-1234', 'us_ssn'],
    ['an IBAN', 'IBAN DE89 3704 0044 0532 0130 00', 'iban'],
    ['a private key', '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----', 'private_key'],
  ])('blocks %s by default with 403 dlp_blocked naming the type, never the value', async (_name, content, type) => {
    const res = await ask(org, content);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'dlp_blocked', type: 'permission_error', detectors: [type] });
    expect(res.body.error.message).toContain(type);
    expect(res.text).not.toContain(content.split(' ').at(-1)!.slice(0, 12));
    expect(primary.requests).toHaveLength(0);
    expect(await auditOf(org, res.headers.get('x-request-id'))).toMatchObject({ outcome: 'blocked', status: 403, dlpFindings: { [type]: 1 }, attempts: 0 });
  });

  it('blocks streaming requests before any byte is streamed', async () => {
    const res = await ask(org, `card ${CARD}`, true);
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('lets e-mail and phone through by default and records them in the audit log', async () => {
    const res = await ask(org, 'Write to jane@example.com or call +1 415-555-0132, or jane2@example.com');
    expect(res.status).toBe(200);
    expect(primary.requests[0]?.body.messages).toEqual([{ role: 'user', content: 'Write to jane@example.com or call +1 415-555-0132, or jane2@example.com' }]);
    const audit = await auditOf(org, res.headers.get('x-request-id'));
    expect(audit.dlpFindings).toEqual({ email: 2, phone: 1 });
    expect(JSON.stringify(audit)).not.toContain('jane@example.com');
  });

  it('does not flag look-alikes (Luhn-invalid card, excluded SSN)', async () => {
    const res = await ask(org, 'ref 4111 1111 1111 1112 and 000-12-3456');
    expect(res.status).toBe(200);
  });
});

describe('DLP policy', () => {
  let org: TestOrganization;
  beforeAll(async () => {
    org = await createTestOrganization(stack.runtime.orm);
  });

  it('shows the safe defaults to admins', async () => {
    const res = await call<any>(stack.baseUrl, 'GET', '/dlp/policy', { key: org.admin.key });
    expect(res.status).toBe(200);
    expect(res.body.updatedAt).toBeNull();
    expect(res.body.detectors).toMatchObject({ credit_card: 'block', iban: 'block', us_ssn: 'block', service_api_key: 'block', jwt: 'block', email: 'log', phone: 'log' });
  });

  it('refuses members with 403', async () => {
    expect((await call(stack.baseUrl, 'GET', '/dlp/policy', { key: org.member.key })).status).toBe(403);
    expect((await call(stack.baseUrl, 'PUT', '/dlp/policy', { key: org.member.key, body: { detectors: { email: 'off' } } })).status).toBe(403);
  });

  it.each([
    [{ detectors: { credit_cards: 'mask' } }, 'detectors.credit_cards'],
    [{ detectors: { email: 'shred' } }, 'detectors.email'],
    [{ detectors: {}, rules: {} }, 'rules'],
    [{}, 'detectors'],
  ])('answers 400 for %j naming %s', async (body, param) => {
    const res = await call<any>(stack.baseUrl, 'PUT', '/dlp/policy', { key: org.owner.key, body });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe(param);
  });

  it('masks: the upstream sees the redaction, the client gets an answer', async () => {
    const put = await call<any>(stack.baseUrl, 'PUT', '/dlp/policy', { key: org.owner.key, body: { detectors: { credit_card: 'mask', email: 'mask' } } });
    expect(put.status).toBe(200);
    expect(put.body.detectors).toMatchObject({ credit_card: 'mask', email: 'mask', iban: 'block' });
    expect(put.body.updatedAt).toEqual(expect.any(String));
    const res = await ask(org, `card ${CARD} mail jane@example.com`);
    expect(res.status).toBe(200);
    expect(primary.requests[0]?.body.messages).toEqual([{ role: 'user', content: 'card [REDACTED:credit_card] mail [REDACTED:email]' }]);
    expect((await auditOf(org, res.headers.get('x-request-id'))).dlpFindings).toEqual({ credit_card: 1, email: 1 });
  });

  it('logs and turns off per detector, other organizations unaffected', async () => {
    await call(stack.baseUrl, 'PUT', '/dlp/policy', { key: org.admin.key, body: { detectors: { credit_card: 'log', email: 'off' } } });
    const res = await ask(org, `card ${CARD} mail jane@example.com`);
    expect(res.status).toBe(200);
    expect((primary.requests[0]?.body.messages as { content: string }[])[0]?.content).toBe(`card ${CARD} mail jane@example.com`);
    expect((await auditOf(org, res.headers.get('x-request-id'))).dlpFindings).toEqual({ credit_card: 1 });

    const other = await createTestOrganization(stack.runtime.orm);
    expect((await ask(other, `card ${CARD}`)).status).toBe(403);
  });
});
