// GET /v1/gateway/requests (the console's "Requests" view): the gateway's request records of the
// caller's organization, newest first, paged (limit, offset, total), filtered by model, API key,
// status and time. Records are written by the gateway's own recorder (seeded ones at fixed past
// times, so filters have known answers) and by a real call through the fake upstream. Another
// organization's records never show; a member sees only the calls made as them; a bad filter is
// 400 in the OpenAI shape naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestRecorder, type GatewayRequestEntry } from '../../src/gateway/recorder.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

interface Row {
  id: string;
  createdAt: string;
  modelRequested: string;
  model: string | null;
  userId: string;
  apiKeyId: string | null;
  status: number;
  outcome: string;
  errorCode: string | null;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cost: number;
  latencyMs: number;
  cached: boolean;
  source: string;
  requestId: string | null;
}

let upstream: FakeUpstream;
let stack: Stack;
let org: TestOrganization;
let other: TestOrganization;
const keyIds: Record<string, string> = {};
let otherKeyId: string;

const list = (key: string, query = '') => call<{ requests: Row[]; total: number; totalExact: boolean }>(stack.baseUrl, 'GET', `/gateway/requests${query}`, { key });
/** The seeded records' markers (their `requestId`), in the order listed; the real call is `real`. */
const markers = (rows: Row[]) => rows.map((row) => (row.requestId && /^[ro]\d$/.test(row.requestId) ? row.requestId : 'real'));

function entry(organizationId: string, userId: string, fields: Partial<GatewayRequestEntry> & { requestId: string; at: string }): GatewayRequestEntry {
  const { at, ...rest } = fields;
  return {
    organizationId, userId, apiKeyId: null, source: 'gateway', runId: null, modelRequested: 'm-a', model: 'm-a', provider: 'fake', upstreamModel: 'm-a-up',
    stream: false, attempts: 1, outcome: 'success', status: 200, errorCode: null, latencyMs: 120, inputTokens: 100, outputTokens: 10,
    estimated: false, cost: 0.001, dlpFindings: {}, promptText: null, cached: false, createdAt: new Date(at), ...rest,
  };
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })) } });
  org = await createTestOrganization(stack.runtime.orm);
  other = await createTestOrganization(stack.runtime.orm);
  for (const key of (await call(stack.baseUrl, 'GET', '/api-keys', { key: org.owner.key })).body.apiKeys as Array<{ id: string; name: string }>) keyIds[key.name] = key.id;
  otherKeyId = (await call(stack.baseUrl, 'GET', '/api-keys', { key: other.owner.key })).body.apiKeys[0].id;

  // Written by the gateway's own recorder, at known times in October 2026.
  const recorder = new RequestRecorder(stack.runtime.orm, stack.runtime.logger);
  for (const seeded of [
    entry(org.id, org.owner.id, { requestId: 'r1', at: '2026-10-01T10:00:00Z', apiKeyId: keyIds['owner key']!, cacheReadTokens: 60, cacheWriteTokens: 30, cost: 0.01 }),
    entry(org.id, org.admin.id, { requestId: 'r2', at: '2026-10-02T10:00:00Z', apiKeyId: keyIds['admin key']!, model: 'm-b', modelRequested: 'm-b', status: 429, outcome: 'rejected', errorCode: 'rate_limited', inputTokens: 0, outputTokens: 0, cost: 0 }),
    entry(org.id, org.member.id, { requestId: 'r3', at: '2026-10-03T10:00:00Z', apiKeyId: keyIds['member key']! }),
    entry(org.id, org.owner.id, { requestId: 'r4', at: '2026-10-04T10:00:00Z', apiKeyId: keyIds['owner key']!, modelRequested: 'standard', model: 'm-b', status: 502, outcome: 'failure', errorCode: 'provider_error', inputTokens: 0, outputTokens: 0, cost: 0 }),
    entry(org.id, org.owner.id, { requestId: 'r5', at: '2026-10-05T10:00:00Z', source: 'automation', runId: 'run-1', cached: true, cost: 0 }),
    entry(other.id, other.owner.id, { requestId: 'o1', at: '2026-10-03T12:00:00Z', apiKeyId: otherKeyId }),
  ]) recorder.record(seeded);
  await recorder.close();

  // And one real call, recorded by the running gateway.
  upstream.enqueue({ content: 'ok', usage: { input: 1000, output: 100 } });
  const res = await call(stack.baseUrl, 'POST', '/chat/completions', { key: org.owner.key, body: { model: 'fake-model', messages: [{ role: 'user', content: 'hi' }] } });
  expect(res.status, res.text).toBe(200);
  await waitFor(async () => (await list(org.owner.key)).body.total === 6, { timeoutMs: 20_000, what: 'the real call to be recorded' });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

describe('GET /v1/gateway/requests', () => {
  it("lists the organization's records newest first with their fields, the real call included", async () => {
    const res = await list(org.admin.key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(6);
    expect(markers(res.body.requests).slice(1)).toEqual(['r5', 'r4', 'r3', 'r2', 'r1']);
    const real = res.body.requests[0]!;
    expect(real).toMatchObject({ modelRequested: 'fake-model', model: 'fake-model', apiKeyId: keyIds['owner key'], userId: org.owner.id, status: 200, outcome: 'success', inputTokens: 1000, outputTokens: 100, cached: false, source: 'gateway' });
    expect(real.cost).toBeGreaterThan(0);
    expect(real.latencyMs).toBeGreaterThanOrEqual(0);
    const first = res.body.requests.find((row) => markers([row])[0] === 'r1')!;
    expect(first).toMatchObject({ createdAt: '2026-10-01T10:00:00.000Z', cacheReadTokens: 60, cacheWriteTokens: 30, cost: 0.01 });
    expect(res.body.requests.find((row) => markers([row])[0] === 'r5')).toMatchObject({ cached: true, source: 'automation', apiKeyId: null });
    expect(res.body.requests.find((row) => markers([row])[0] === 'r2')).toMatchObject({ status: 429, outcome: 'rejected', errorCode: 'rate_limited' });
  });

  it('pages with limit and offset, each record once, the total unchanged', async () => {
    const all = markers((await list(org.owner.key)).body.requests);
    const pages = [];
    for (const offset of [0, 2, 4, 6]) {
      const page = await list(org.owner.key, `?limit=2&offset=${offset}`);
      expect(page.status, page.text).toBe(200);
      expect(page.body.total).toBe(6);
      pages.push(...markers(page.body.requests));
    }
    expect(pages).toEqual(all);
    expect((await list(org.owner.key, '?limit=2&offset=6')).body.requests).toEqual([]);
  });

  it('filters by model: the model asked for or the one that answered', async () => {
    const byAnswer = await list(org.admin.key, '?model=m-a');
    expect(markers(byAnswer.body.requests)).toEqual(['r5', 'r3', 'r1']);
    expect(byAnswer.body.total).toBe(3);
    expect(markers((await list(org.admin.key, '?model=standard')).body.requests)).toEqual(['r4']);
    expect(markers((await list(org.admin.key, '?model=m-b')).body.requests)).toEqual(['r4', 'r2']);
    // Quotes and placeholders in a value are data, not SQL.
    expect((await list(org.admin.key, `?model=${encodeURIComponent("m-a' or '1'='1 ? $1")}`)).body).toEqual({ requests: [], total: 0, totalExact: true });
  });

  it('filters by API key', async () => {
    const res = await list(org.admin.key, `?apiKeyId=${keyIds['admin key']}`);
    expect(markers(res.body.requests)).toEqual(['r2']);
    const owner = await list(org.admin.key, `?apiKeyId=${keyIds['owner key']}`);
    expect(owner.body.total).toBe(3);
    expect(owner.body.requests.every((row) => row.apiKeyId === keyIds['owner key'])).toBe(true);
  });

  it('filters by status: success, error, a class or one code', async () => {
    expect(markers((await list(org.admin.key, '?status=error')).body.requests)).toEqual(['r4', 'r2']);
    expect(markers((await list(org.admin.key, '?status=4xx')).body.requests)).toEqual(['r2']);
    expect(markers((await list(org.admin.key, '?status=502')).body.requests)).toEqual(['r4']);
    const success = await list(org.admin.key, '?status=success');
    expect(success.body.total).toBe(4);
    expect(success.body.requests.every((row) => row.status === 200)).toBe(true);
    expect((await list(org.admin.key, '?status=2xx')).body.total).toBe(4);
  });

  it('filters by time: from inclusive, to exclusive, a date-only to includes its day', async () => {
    expect(markers((await list(org.admin.key, '?from=2026-10-02&to=2026-10-04')).body.requests)).toEqual(['r4', 'r3', 'r2']);
    expect(markers((await list(org.admin.key, '?from=2026-10-02T10:00:00Z&to=2026-10-04T10:00:00Z')).body.requests)).toEqual(['r3', 'r2']);
    const since = await list(org.admin.key, `?from=${encodeURIComponent('2026-10-05T12:00:00+02:00')}`);
    expect(markers(since.body.requests)).toEqual(['real', 'r5']);
    expect(markers((await list(org.admin.key, '?to=2026-10-01')).body.requests)).toEqual(['r1']);
    // The ends of the calendar: every record.
    expect((await list(org.admin.key, '?from=0001-01-01&to=9999-12-31')).body.total).toBe(6);
  });

  it('combines filters', async () => {
    const res = await list(org.admin.key, `?model=m-b&status=5xx&apiKeyId=${keyIds['owner key']}&from=2026-10-01`);
    expect(markers(res.body.requests)).toEqual(['r4']);
    expect(res.body.total).toBe(1);
  });

  it("never shows another organization's records", async () => {
    const mine = await list(org.owner.key, '?limit=200');
    expect(markers(mine.body.requests)).not.toContain('o1');
    expect((await list(org.owner.key, `?apiKeyId=${otherKeyId}`)).body).toEqual({ requests: [], total: 0, totalExact: true });
    const theirs = await list(other.owner.key);
    expect(markers(theirs.body.requests)).toEqual(['o1']);
    expect(theirs.body.total).toBe(1);
  });

  it('shows a member only the calls made as them', async () => {
    const res = await list(org.member.key);
    expect(res.status, res.text).toBe(200);
    expect(markers(res.body.requests)).toEqual(['r3']);
    expect(res.body.total).toBe(1);
    expect((await list(org.member.key, `?apiKeyId=${keyIds['owner key']}`)).body).toEqual({ requests: [], total: 0, totalExact: true });
    expect((await list(org.member.key, '?status=error')).body.total).toBe(0);
  });

  it('answers 400 in the OpenAI shape naming the field for a bad filter', async () => {
    for (const [query, param] of [
      ['?status=teapot', 'status'],
      ['?status=600', 'status'],
      ['?apiKeyId=not-a-key', 'apiKeyId'],
      ['?from=yesterday', 'from'],
      ['?to=2026-13-45', 'to'],
      ['?from=2026-10-05&to=2026-10-01', 'to'],
      ['?from=2026-10-05&to=2026-10-05T00:00:00Z', 'to'],
      ['?from=0000-01-01', 'from'],
      [`?to=${encodeURIComponent('0001-01-01T00:00:00+01:00')}`, 'to'],
      ['?model=', 'model'],
      ['?model=a&model=b', 'model'],
      ['?limit=0', 'limit'],
      ['?limit=500', 'limit'],
      ['?offset=-1', 'offset'],
      ['?colour=blue', 'colour'],
    ] as const) {
      const res = await call(stack.baseUrl, 'GET', `/gateway/requests${query}`, { key: org.admin.key });
      expect(res.status, `${query}: ${res.text}`).toBe(400);
      expect(res.body.error, query).toMatchObject({ code: 'bad_request', type: 'invalid_request_error', param });
      expect(res.body.error.message, query).toContain(param);
    }
  });

  it('counts a long history up to 10,000 records and says so; a time range counts exactly again', async () => {
    const busy = await createTestOrganization(stack.runtime.orm);
    const recorder = new RequestRecorder(stack.runtime.orm, stack.runtime.logger);
    const start = Date.parse('2026-09-01T00:00:00Z');
    for (let i = 0; i < 10_005; i++) recorder.record(entry(busy.id, busy.owner.id, { requestId: `b${i}`, at: new Date(start + i * 60_000).toISOString() }));
    await recorder.close();
    const capped = await list(busy.owner.key, '?limit=5');
    expect(capped.status, capped.text).toBe(200);
    expect(capped.body).toMatchObject({ total: 10_000, totalExact: false });
    expect(capped.body.requests.map((row) => row.requestId)).toEqual(['b10004', 'b10003', 'b10002', 'b10001', 'b10000']);
    // The first 100 minutes of the history: b0 to b99.
    const narrowed = await list(busy.owner.key, '?limit=5&to=2026-09-01T01:40:00Z');
    expect(narrowed.body).toMatchObject({ total: 100, totalExact: true });
  }, 120_000);

  it('is 401 without credentials', async () => {
    expect((await call(stack.baseUrl, 'GET', '/gateway/requests')).status).toBe(401);
  });
});
