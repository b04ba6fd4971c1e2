// One answer for a malformed path id on every route with a path parameter (taken from the route
// registry, so a new `{id}` route is covered without editing this file): 400 `bad_request` naming
// the parameter. A well-formed id naming nothing stays 404 `not_found`.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOperations } from '../../src/api/openapi/document.js';
import type { Operation } from '../../src/api/openapi/registry.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
});

/** A value of the parameter's format that names nothing. */
function wellFormed(name: string, path: string): string {
  if (name === 'version') return '7';
  if (name === 'decision') return 'approve';
  if (name === 'executionId') return `wex_${'A'.repeat(22)}`;
  if (name === 'webhookId' && path.startsWith('/v1/webhooks/')) return `wh_${'A'.repeat(32)}`;
  if (path.startsWith('/v1/responses/')) return `resp_${'a'.repeat(48)}`;
  return randomUUID();
}

const MALFORMED: [string, string][] = [
  ['not-a-uuid', 'not-a-uuid'],
  ['a 1,000-character id', 'a'.repeat(1000)],
  ['a NUL (%00)', '%00'],
  ['a UUID with a NUL appended', `${randomUUID()}%00`],
  ['bad percent-encoding', '%E0%A4%A'],
];

const withParams = apiOperations.filter((o) => o.pathParams && Object.keys(o.pathParams).length > 0);
const cases = withParams.flatMap((operation) =>
  Object.keys(operation.pathParams!).flatMap((name) => MALFORMED.map(([label, value]) => ({ operation, name, label, value }))));

function pathWith(operation: Operation, values: Record<string, string>): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? wellFormed(name, operation.path));
}

function send(operation: Operation, path: string) {
  const body = ['post', 'put'].includes(operation.method) ? {} : undefined;
  const key = operation.auth === 'caller' ? org.owner.key : undefined;
  return call(stack.api.url, operation.method.toUpperCase(), path, { key, body });
}

describe('malformed path ids', () => {
  it('covers every registered route with a path parameter', () => {
    expect(withParams.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases.map((c) => [`${c.operation.method.toUpperCase()} ${c.operation.path}: ${c.name} = ${c.label}`, c] as const))('%s -> 400 naming the parameter', async (_, c) => {
    const response = await send(c.operation, pathWith(c.operation, { [c.name]: c.value }));
    expect(response.status, response.text).toBe(400);
    expect(response.body).toMatchObject({ error: { code: 'bad_request', type: 'invalid_request_error', param: c.name } });
  });

  it('answers 401 before looking at the id when the caller is unknown', async () => {
    const response = await call(stack.api.url, 'GET', '/v1/automations/not-a-uuid');
    expect(response.status).toBe(401);
  });

  const lookups = withParams.filter((o) => o.method === 'get' || o.method === 'delete');
  it.each(lookups.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('%s with a well-formed unknown id -> 404', async (_, operation) => {
    const response = await send(operation, pathWith(operation, {}));
    expect(response.status, response.text).toBe(404);
    expect(response.body).toMatchObject({ error: { code: 'not_found' } });
  });
});
