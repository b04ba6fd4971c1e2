// Property-based fuzzing of every endpoint of the OpenAPI document (fast-check): bodies, query
// strings, path parameters and headers generated from the document's own schemas, then mutated;
// most requests carry a valid API key of some role, some carry none or garbage. Over more than
// 10,000 requests on a real socket with keep-alive, against the whole stack (worker included):
// no 5xx, every status is one the document lists for the endpoint, every error body is the
// OpenAI shape with a code of that status, every JSON success body matches the documented
// schema, no error is logged as unhandled and the process keeps answering.
//
// Nothing leaves the machine: every shipped connector is replaced by one whose command does not
// exist, webhook channel targets are rewritten to a local receiver, Slack points at a closed
// loopback port, mail goes to the outbox directory, and chat completions (automation and
// assistant runs too) go to the fake upstream (test/fixtures/fake-upstream.ts), which answers
// both as OpenAI (tier standard) and as Anthropic (tier premium).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOperations, errorCodesOf } from '../../src/api/openapi/document.js';
import type { Operation } from '../../src/api/openapi/registry.js';
import shippedCatalog from '../../src/connectors/catalog.json' with { type: 'json' };
import { AppError, ERROR_STATUS, type ErrorCode } from '../../src/errors.js';
import { toAnthropicError } from '../../src/gateway/wire/messages.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization } from '../helpers/orgs.js';
import { SchemaArbitraries, type JsonSchema } from '../helpers/schema-arbitrary.js';
import { startStack, type Stack } from '../helpers/stack.js';

const TOTAL_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const CONCURRENCY = 8;
const BODY_LIMIT_BYTES = 64 * 1024;
const TEMPORAL_BOUND = new Set(['runAutomation', 'runWorkflowDiagnostics', 'activateAutomation', 'pauseAutomation', 'createAutomation', 'updateAutomation', 'deleteAutomation', 'receiveWebhook']);

type Json = Record<string, any>;
type AuthKind = 'owner' | 'admin' | 'member' | 'none' | 'garbage' | 'cookie';

interface FuzzRequest {
  operation: Operation;
  auth: AuthKind;
  garbageAuth: string;
  pathValues: Record<string, string>;
  query: string;
  headers: Record<string, string>;
  body: { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string } | { kind: 'oversized' };
  contentType: string | undefined;
  contentEncoding: string | undefined;
}

let stack: Stack;
let org: TestOrganization;
let document: Json;
let receiver: { url: string; close(): Promise<void>; deliveries: number };
let upstream: FakeUpstream;
const agent = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 30_000, pipelining: 1 });
/** Path parameter values that name real resources of the organization, by parameter and path. */
const seeded: Record<string, string[]> = {};

function catalogWithoutLaunches(): string {
  // An operator entry with a shipped id replaces it: no connector can start a real server.
  const inert = (entry: { id: string; requiredEnvVars?: string[]; optionalEnvVars?: string[] }) => ({
    id: entry.id,
    name: `Inert ${entry.id}`,
    category: 'testing',
    description: 'Replaced for the fuzz test',
    transport: 'stdio',
    command: '/nonexistent/mcp-server',
    args: [],
    requiredEnvVars: entry.requiredEnvVars ?? [],
    optionalEnvVars: entry.optionalEnvVars ?? [],
  });
  const connectors = [...shippedCatalog.connectors.map(inert), inert({ id: 'fuzz-tool' })];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-catalog-'));
  const file = path.join(dir, 'catalog.json');
  fs.writeFileSync(file, JSON.stringify({ connectors }));
  return file;
}

async function startReceiver(): Promise<typeof receiver> {
  const state = { deliveries: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.deliveries++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    get deliveries() {
      return state.deliveries;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Webhook channel targets become the local receiver, wherever they sit in a body. */
function keepLocal(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keepLocal);
  if (value === null || typeof value !== 'object') return value;
  const object = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, keepLocal(inner)]));
  if (object.type === 'webhook' && 'target' in object) object.target = receiver.url;
  return object;
}

async function seed(): Promise<void> {
  const owner = org.owner.key;
  const post = async (path: string, body?: unknown) => {
    const response = await call<Json>(stack.baseUrl, 'POST', path, { key: owner, body });
    expect(response.status, `seed POST ${path}: ${response.text}`).toBeLessThan(300);
    return response.body;
  };
  const times = <T>(count: number, make: (n: number) => Promise<T>) => Promise.all(Array.from({ length: count }, (_, n) => make(n)));
  const automation = (n: number) =>
    post('/automations', { name: `Fuzz target ${n}`, systemPrompt: 'Say hi.', schedule: '0 8 * * 1-5', channels: [{ type: 'webhook', target: receiver.url }] });
  const skill = async (n: number) => {
    const created = await post('/skills', { name: `Fuzz skill ${n}`, description: 'For the fuzzer', category: 'testing', systemPrompt: 'Be brief.', visibility: 'public' });
    await post(`/skills/${created.id}/versions`, { systemPrompt: 'Be briefer.' });
    return created;
  };
  // Tier premium is the Anthropic-format upstream: the ingress assistant's runs use it.
  const assistant = (n: number) => post('/assistants', { name: `Fuzz assistant ${n}`, systemPrompt: 'Echo.', model: n === 1 ? 'premium' : 'standard', trigger: { type: 'webhook' } });
  const connection = (n: number) => post('/tools/connections', { toolId: 'fuzz-tool', name: `Inert connection ${n}` });
  const urlId = (url: unknown) => String(url).split('/').pop()!;

  // Resources the fuzzer changes, and separate ones it may delete, so deletes early in the run
  // do not turn every later request into a 404.
  const [[kept, ...doomedAutomations], [keptSkill, ...doomedSkills], [keptAssistant, ingressAssistant, ...doomedAssistants], [keptConnection, ...doomedConnections]] =
    await Promise.all([times(4, automation), times(4, skill), times(5, assistant), times(4, connection)]);
  const [ingressWebhook, ...doomedWebhooks] = await times(4, () => post(`/automations/${kept!.id}/webhooks`));
  // A run of the kept automation for the run operations (cancel, retry).
  const run = await post(`/automations/${kept!.id}/run`);
  const execution = await call<Json>(stack.baseUrl, 'POST', `/webhooks/${urlId(ingressAssistant!.webhookUrl)}`, { body: { event: 'seed' } });
  expect(execution.status).toBe(202);
  const members = await times(6, () => createTestUser(stack.runtime.orm, org.id, 'member'));
  const keys = await times(4, (n) => post('/api-keys', { name: `victim ${n}` }));

  const ids = (records: Array<Json | undefined>) => records.map((record) => String(record!.id));
  seeded['put /v1/users/{id}/role id'] = members.slice(0, 3).map((user) => user.id);
  seeded['delete /v1/users/{id} id'] = members.slice(3).map((user) => user.id);
  seeded['delete /v1/api-keys/{id} id'] = ids(keys);
  seeded['/v1/automations id'] = [kept!.id];
  seeded['delete /v1/automations/{id} id'] = ids(doomedAutomations);
  seeded['/v1/automations webhookId'] = ids(doomedWebhooks);
  seeded['/v1/automations runId'] = [String(run.runId)];
  seeded['/v1/webhooks webhookId'] = [urlId(ingressWebhook!.url), urlId(ingressAssistant!.webhookUrl)];
  seeded['/v1/webhooks executionId'] = [execution.body.executionId];
  seeded['/v1/skills id'] = [keptSkill!.id];
  seeded['delete /v1/skills/{id} id'] = ids(doomedSkills);
  seeded['/v1/skills version'] = ['1', '2'];
  seeded['/v1/tools id'] = [keptConnection!.id];
  seeded['delete /v1/tools/connections/{id} id'] = ids(doomedConnections);
  seeded['/v1/assistants id'] = [keptAssistant!.id];
  seeded['delete /v1/assistants/{id} id'] = ids(doomedAssistants);
}

/** The seeded values that fit a path parameter of an operation: the operation's own, else its resource's. */
function seededFor(operation: Operation, name: string): string[] {
  const own = seeded[`${operation.method} ${operation.path} ${name}`];
  if (own) return own;
  const resource = operation.path.split('/').slice(0, 3).join('/');
  return seeded[`${resource} ${name}`] ?? [];
}

function requestArbitrary(schemas: SchemaArbitraries): fc.Arbitrary<FuzzRequest> {
  const printable = fc.string({ minLength: 1, maxLength: 40, unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)) });
  const perOperation = apiOperations.map((operation) => {
    const spec: Json = document.paths[operation.path][operation.method];
    const parameters: Json[] = spec.parameters ?? [];
    const pathArbs: Record<string, fc.Arbitrary<string>> = {};
    for (const parameter of parameters.filter((p) => p.in === 'path')) {
      const known = seededFor(operation, parameter.name);
      const options: Array<{ weight: number; arbitrary: fc.Arbitrary<string> }> = [
        { weight: 1, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 80 }).map(encodeURIComponent) },
        // Dot segments, malformed percent-encoding, encoded NUL and slash, very long ids.
        { weight: 1, arbitrary: fc.constantFrom('.', '..', '%2E%2E', '%', '%E0%A4%A', '%ZZ', '%00', '%2F', '-1', '0', 'null', 'a'.repeat(2000)) },
        { weight: 1, arbitrary: (schemas.valueOf(parameter.schema) as fc.Arbitrary<unknown>).map((v) => encodeURIComponent(String(v)) || 'x') },
      ];
      if (known.length > 0) options.push({ weight: 8, arbitrary: fc.constantFrom(...known) });
      pathArbs[parameter.name] = fc.oneof(...options);
    }
    const queryParameters = parameters.filter((p) => p.in === 'query');
    const queryArb = fc
      .tuple(
        fc.record(Object.fromEntries(queryParameters.map((p) => [p.name, fc.option(schemas.valueOf(p.schema), { nil: undefined, freq: 2 })]))),
        // An extra parameter (a repeated one, an unknown one) on one request in four.
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.tuple(fc.constantFrom('limit', 'offset', 'status', 'extra', 'groupBy', 'from', '__proto__', 'constructor', 'toString'), fc.jsonValue({ maxDepth: 1 })) },
        ),
      )
      .map(([values, extra]) => {
        const search = new URLSearchParams();
        for (const [name, value] of Object.entries(values)) if (value !== undefined) search.append(name, typeof value === 'string' ? value : JSON.stringify(value));
        if (extra) search.append(extra[0], typeof extra[1] === 'string' ? extra[1] : JSON.stringify(extra[1]));
        const text = search.toString();
        return text ? `?${text}` : '';
      });
    const media: Json | undefined = spec.requestBody?.content['application/json'];
    const bodySchema: JsonSchema = media?.schema ?? {};
    const example: unknown = media?.example;
    const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((value) => ({ kind: 'json' as const, value }));
    const bodyArb: fc.Arbitrary<FuzzRequest['body']> =
      operation.method === 'get'
        ? fc.constant({ kind: 'none' as const })
        : fc.oneof(
            ...(media
              ? [
                  { weight: 25, arbitrary: json(fc.constant(example)) },
                  { weight: 25, arbitrary: json(schemas.mutated(bodySchema, example)) },
                  { weight: 20, arbitrary: json(schemas.valueOf(bodySchema)) },
                  { weight: 15, arbitrary: json(schemas.mutated(bodySchema)) },
                ]
              : [{ weight: 10, arbitrary: json(fc.jsonValue({ maxDepth: 2 })) }]),
            { weight: media ? 5 : 60, arbitrary: fc.constant({ kind: 'none' as const }) },
            { weight: 5, arbitrary: fc.constantFrom('{', '{"a":', 'null', '[]', '"text"', '{"__proto__":{"x":1}}', '\u0000', 'nul').map((text) => ({ kind: 'raw' as const, text })) },
            { weight: 1, arbitrary: fc.constant({ kind: 'oversized' as const }) },
          );
    return fc.record({
      operation: fc.constant(operation),
      pathValues: fc.record(pathArbs),
      query: queryArb,
      body: bodyArb,
    });
  });
  // Endpoints that round-trip through Temporal and the worker cost ten times the others: they
  // get a third of the share, still well over a hundred requests each.
  const weighted = perOperation.map((arbitrary, index) => ({ arbitrary, weight: TEMPORAL_BOUND.has(apiOperations[index]!.operationId) ? 1 : 3 }));
  return fc.record({
    target: fc.oneof(...weighted),
    auth: fc.oneof(
      { weight: 6, arbitrary: fc.constant<AuthKind>('owner') },
      { weight: 3, arbitrary: fc.constant<AuthKind>('admin') },
      { weight: 3, arbitrary: fc.constant<AuthKind>('member') },
      { weight: 1, arbitrary: fc.constant<AuthKind>('none') },
      { weight: 1, arbitrary: fc.constant<AuthKind>('garbage') },
      { weight: 1, arbitrary: fc.constant<AuthKind>('cookie') },
    ),
    garbageAuth: fc.oneof(
      printable.map((s) => `Bearer ${s}`),
      fc.constantFrom('Bearer', 'Basic dXNlcjpwYXNz', `Bearer svc_live_${'A'.repeat(40)}`, 'Bearer svc_live_short', `Bearer svc_live_${'x'.repeat(300)}`),
    ),
    contentType: fc.oneof(
      { weight: 12, arbitrary: fc.constant('application/json') },
      { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/merge-patch+json', 'application/json; charset=latin1', 'multipart/form-data; boundary=x') },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    headers: fc.record(
      {
        'x-request-id': printable,
        'idempotency-key': printable,
        origin: fc.constantFrom('http://evil.example', 'null', 'http://localhost:8080'),
        accept: fc.constantFrom('*/*', 'text/event-stream', 'application/xml'),
        'accept-encoding': fc.constantFrom('gzip', 'identity', 'br'),
      },
      { requiredKeys: [] },
    ),
    // The body is never compressed: a claimed encoding must be refused, not crash the parser.
    contentEncoding: fc.oneof(
      { weight: 15, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown') },
    ),
  }).map(({ target, ...rest }) => ({ ...target, ...rest }));
}

interface Outcome {
  ms: number;
  status: number;
  contentType: string;
  text: string;
}

async function send(fuzz: FuzzRequest): Promise<Outcome> {
  // The raw path goes out as is: a URL parser would resolve `.` and `..` ids away.
  const path = `${fuzz.operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => fuzz.pathValues[name] ?? 'x')}${fuzz.query}`;
  const headers: Record<string, string> = { ...fuzz.headers };
  if (fuzz.auth === 'owner' || fuzz.auth === 'admin' || fuzz.auth === 'member') headers.authorization = `Bearer ${org[fuzz.auth].key}`;
  if (fuzz.auth === 'garbage') headers.authorization = fuzz.garbageAuth;
  if (fuzz.auth === 'cookie') headers.cookie = `svc_session=${fuzz.garbageAuth.slice(7) || 'x'}`;
  let body: string | undefined;
  if (fuzz.body.kind === 'json') body = JSON.stringify(keepLocal(fuzz.body.value)) ?? 'null';
  if (fuzz.body.kind === 'raw') body = fuzz.body.text;
  if (fuzz.body.kind === 'oversized') body = JSON.stringify({ padding: 'x'.repeat(BODY_LIMIT_BYTES + 10) });
  if (body !== undefined && fuzz.contentType) headers['content-type'] = fuzz.contentType;
  if (body !== undefined && fuzz.contentEncoding) headers['content-encoding'] = fuzz.contentEncoding;
  const started = performance.now();
  const response = await agent.request({ origin: stack.api.url, path, method: fuzz.operation.method.toUpperCase() as 'GET', headers, body, headersTimeout: 60_000, bodyTimeout: 60_000 });
  const text = await response.body.text();
  return { ms: performance.now() - started, status: response.statusCode, contentType: String(response.headers['content-type'] ?? ''), text };
}

/** Why an outcome breaks the contract, or undefined. */
function violation(fuzz: FuzzRequest, outcome: Outcome): string | undefined {
  const { operation } = fuzz;
  const { status } = outcome;
  if (status >= 500) return `server error ${status}`;
  const codes = errorCodesOf(operation);
  if (operation.errorShape === 'anthropic' && status >= 400) return anthropicViolation(codes, outcome);
  const documented = new Set([...Object.keys(operation.responses).map(Number), ...codes.map((code) => ERROR_STATUS[code])]);
  if (!documented.has(status)) return `status ${status} is not documented for this endpoint`;
  if (status >= 400) {
    let parsed: Json;
    try {
      parsed = JSON.parse(outcome.text);
    } catch {
      return 'error body is not JSON';
    }
    const error = parsed?.error;
    if (!error || typeof error !== 'object') return 'error body lacks `error`';
    if (typeof error.message !== 'string' || error.message.length === 0) return 'error.message is not a non-empty string';
    if (typeof error.type !== 'string') return 'error.type is not a string';
    if (!(error.param === null || typeof error.param === 'string')) return 'error.param is neither a string nor null';
    if (!codes.includes(error.code)) return `error code ${String(error.code)} is not documented for this endpoint`;
    if (ERROR_STATUS[error.code as keyof typeof ERROR_STATUS] !== status) return `error code ${error.code} answered with status ${status}`;
    return undefined;
  }
  const success = operation.responses[status]!;
  if (!success.schema) return outcome.text === '' ? undefined : `expected an empty body, got ${outcome.text.slice(0, 80)}`;
  if (outcome.contentType.startsWith('text/event-stream')) {
    const ends: Record<string, RegExp> = {
      createChatCompletion: /data: \[DONE\]\n\n$/,
      createResponse: /event: (response\.completed|response\.incomplete|error)\ndata: .*\n\n$/,
      createMessage: /event: (message_stop|error)\ndata: .*\n\n$/,
    };
    return ends[operation.operationId]?.test(outcome.text) ? undefined : 'event stream without its documented end';
  }
  if (success.contentType && success.contentType !== 'application/json') {
    return outcome.contentType.startsWith(success.contentType) ? undefined : `content type ${outcome.contentType}`;
  }
  const parsed = success.schema.safeParse(JSON.parse(outcome.text));
  return parsed.success ? undefined : `body does not match the documented schema: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`;
}

/** The Messages routes: Anthropic's error shape, with the status and type the documented codes map to. */
function anthropicViolation(codes: ErrorCode[], outcome: Outcome): string | undefined {
  const allowed = codes.map((code) => toAnthropicError(new AppError(code, '')));
  if (!allowed.some((a) => a.status === outcome.status)) return `status ${outcome.status} is not documented for this endpoint`;
  let parsed: Json;
  try {
    parsed = JSON.parse(outcome.text);
  } catch {
    return 'error body is not JSON';
  }
  if (parsed?.type !== 'error' || typeof parsed.error !== 'object') return 'error body is not Anthropic-shaped';
  if (typeof parsed.error.message !== 'string' || parsed.error.message.length === 0) return 'error.message is not a non-empty string';
  if (!allowed.some((a) => a.status === outcome.status && a.body.error.type === parsed.error.type)) return `error type ${String(parsed.error.type)} answered with status ${outcome.status}`;
  return undefined;
}

function describeRequest(fuzz: FuzzRequest): string {
  const body = fuzz.body.kind === 'json' ? JSON.stringify(fuzz.body.value).slice(0, 600) : fuzz.body.kind;
  return `${fuzz.operation.method.toUpperCase()} ${fuzz.operation.path} path=${JSON.stringify(fuzz.pathValues)} query=${fuzz.query} auth=${fuzz.auth} content-type=${fuzz.contentType} content-encoding=${fuzz.contentEncoding} headers=${JSON.stringify(fuzz.headers)} body=${body}`;
}

beforeAll(async () => {
  receiver = await startReceiver();
  upstream = await startFakeUpstream();
  stack = await startStack({
    env: {
      GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream, anthropic: upstream })),
      LOG_LEVEL: 'warn',
      BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES),
      TOOLS_CATALOG_EXTRA: catalogWithoutLaunches(),
      TOOLS_TEST_TIMEOUT_MS: '3000',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      SLACK_API_URL: 'http://127.0.0.1:9/api',
      RATE_LIMIT_PER_KEY_PER_MINUTE: '1000000',
      RATE_LIMIT_PER_ORG_PER_MINUTE: '1000000',
    },
  });
  org = await createTestOrganization(stack.runtime.orm);
  document = (await call<Json>(stack.api.url, 'GET', '/v1/openapi.json')).body;
  await seed();
});

afterAll(async () => {
  await agent.close();
  await stack?.stop();
  await receiver?.close();
  await upstream?.close();
});

describe('fuzzing every endpoint of the OpenAPI document', () => {
  it(`answers ${TOTAL_REQUESTS}+ generated and mutated requests within the documented contract`, async () => {
    const schemas = new SchemaArbitraries(document);
    const counts = new Map<string, { requests: number; success: number; ms: number; statuses: Map<number, number> }>();
    // FUZZ_COLLECT=1 keeps going after a violation and lists one example of each at the end.
    const collect = process.env.FUZZ_COLLECT === '1';
    const violations = new Map<string, string>();
    let total = 0;
    const check = (fuzz: FuzzRequest, outcome: Outcome) => {
      total++;
      const key = `${fuzz.operation.method.toUpperCase()} ${fuzz.operation.path}`;
      const entry = counts.get(key) ?? { requests: 0, success: 0, ms: 0, statuses: new Map() };
      entry.requests++;
      entry.ms += outcome.ms;
      if (outcome.status < 400) entry.success++;
      entry.statuses.set(outcome.status, (entry.statuses.get(outcome.status) ?? 0) + 1);
      counts.set(key, entry);
      const problem = violation(fuzz, outcome);
      if (!problem) return;
      const report = `${problem}\n  request: ${describeRequest(fuzz)}\n  response: ${outcome.status} ${outcome.text.slice(0, 500)}`;
      if (!collect) throw new Error(report);
      if (!violations.has(`${key}: ${problem}`)) violations.set(`${key}: ${problem}`, report);
    };
    const property = fc.asyncProperty(requestArbitrary(schemas), async (fuzz) => check(fuzz, await send(fuzz)));
    // Independent lanes, each its own fast-check run with its own seed, keep CONCURRENCY requests
    // in flight without waiting for the slowest of a batch. fast-check's own report would print
    // the whole request object (schemas included): ours names the request, the seed replays it.
    const lanes = await Promise.all(
      Array.from({ length: CONCURRENCY }, () => fc.check(property, { numRuns: Math.ceil(TOTAL_REQUESTS / CONCURRENCY), endOnFailure: true })),
    );
    for (const run of lanes) {
      if (run.failed) throw new Error(`${(run.errorInstance as Error)?.message}\n  (fast-check seed ${run.seed}, path ${run.counterexamplePath})`);
    }
    expect([...violations.values()]).toEqual([]);

    const table = [...counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, entry]) => `${key.padEnd(52)} ${String(entry.requests).padStart(5)} ${String(entry.success).padStart(5)} ${String(Math.round(entry.ms / entry.requests)).padStart(5)} ms  ${[...entry.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`).join(' ')}`);
    console.info(`[fuzz] ${total} requests; endpoint, requests, successes, statuses\n${table.join('\n')}`);

    expect(total).toBeGreaterThanOrEqual(TOTAL_REQUESTS);
    for (const operation of apiOperations) {
      expect(counts.get(`${operation.method.toUpperCase()} ${operation.path}`)?.requests ?? 0, `${operation.method} ${operation.path} was fuzzed`).toBeGreaterThan(0);
    }
    // The generator gets past validation: most endpoints answered successfully at least once.
    const succeeded = apiOperations.filter((op) => (counts.get(`${op.method.toUpperCase()} ${op.path}`)?.success ?? 0) > 0);
    expect(succeeded.length / apiOperations.length).toBeGreaterThan(0.75);

    // Chat completions really went through a provider to the fake upstream, in both formats, and embeddings too.
    expect(new Set(upstream.requests.map((recorded) => recorded.api))).toEqual(new Set(['openai', 'anthropic', 'embeddings']));
    expect(stack.logs.filter((line) => line.includes('"unhandled error"')), 'errors logged as unhandled').toEqual([]);
    expect((await call(stack.api.url, 'GET', '/healthz')).status).toBe(200);
  }, 300_000);
});
