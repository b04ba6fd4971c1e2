// The two-organization matrix, generated from the route registry: every operation with an id in
// its path is called by organization B's owner on organization A's resource (made fresh for the
// call by operation-fixtures.ts) and must answer 404 `not_found` (existence is not leaked), with
// A's resource unchanged; the same request from A's owner then succeeds, so the 404 was about
// the organization and not a broken request. Paths with two ids also mix B's resource with A's
// id. Every list of the organization, read by B, shows none of A's ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOperations } from '../../src/api/openapi/document.js';
import type { Operation } from '../../src/api/openapi/registry.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startMatrixStack, ResourceMaker, type MatrixStack } from './matrix-stack.js';
import { expectError, expectPermitted, fixtureOf, OPERATION_FIXTURES, pathParamsOf, send, type OperationFixture, type PreparedRequest } from './operation-fixtures.js';

let matrix: MatrixStack;
let orgA: TestOrganization;
let orgB: TestOrganization;

beforeAll(async () => {
  matrix = await startMatrixStack();
  [orgA, orgB] = await Promise.all([createTestOrganization(matrix.stack.runtime.orm), createTestOrganization(matrix.stack.runtime.orm)]);
});
afterAll(async () => matrix?.stop());

const titleOf = (operation: Operation) => `${operation.method.toUpperCase()} ${operation.path}`;
const isIdParam = (name: string) => name === 'id' || name.endsWith('Id');
const withIds = apiOperations.filter((operation) => pathParamsOf(operation).some(isIdParam));
const excluded = (fixture: OperationFixture | undefined) => fixture?.crossOrganization && 'excluded' in fixture.crossOrganization;
const crossOrganization = withIds.filter((operation) => !excluded(OPERATION_FIXTURES[operation.operationId]));

/** A fresh request of `operation` on `org`'s resources, built for its owner. */
function prepareIn(org: TestOrganization, operation: Operation): Promise<PreparedRequest> {
  const fixture = fixtureOf(operation);
  const cross = fixture.crossOrganization;
  const prepare = (cross && !('excluded' in cross) && cross.prepare) || fixture.prepare;
  return prepare(new ResourceMaker(matrix, org, org.owner));
}

function controlOf(operation: Operation) {
  const fixture = fixtureOf(operation);
  const cross = fixture.crossOrganization;
  return (cross && !('excluded' in cross) && cross.control) || fixture.expected;
}

describe('the two-organization matrix', () => {
  it('covers every operation with an id in its path; only those not authenticated by an organization may be excluded', () => {
    expect(withIds.length).toBeGreaterThan(20);
    expect(withIds.filter((operation) => !OPERATION_FIXTURES[operation.operationId]).map(titleOf), 'operations without a fixture').toEqual([]);
    const excludedOperations = withIds.filter((operation) => excluded(OPERATION_FIXTURES[operation.operationId]));
    expect(excludedOperations.filter((operation) => operation.auth === 'caller').map(titleOf), 'authenticated operations excluded').toEqual([]);
    expect(excludedOperations.map(titleOf).sort()).toEqual([
      'GET /marketplace/skills/{id}', 'GET /v1/approval-links/{id}/{decision}', 'POST /v1/approval-links/{id}/{decision}', 'POST /v1/webhooks/{webhookId}',
    ]);
  });
});

describe("another organization's ids", () => {
  for (const operation of crossOrganization) {
    it(`${titleOf(operation)}: 404 not_found for B's owner on A's resource, A's resource unchanged`, async () => {
      const request = await prepareIn(orgA, operation);
      if (operation.method !== 'get') expect(request.observe, 'the fixture observes what the call could change').toBeDefined();
      const before = await request.observe?.();

      const res = await send(matrix.stack.api.url, operation, request, orgB.owner.key);
      expectError(res, 404, 'not_found');
      if (request.observe) expect(await request.observe(), "A's resource is unchanged").toEqual(before);

      const control = await send(matrix.stack.api.url, operation, request, orgA.owner.key);
      expectPermitted(operation, control, controlOf(operation));
    });
  }

  // A path with two ids: B's own resource with one id of A's in it.
  for (const operation of crossOrganization.filter((op) => pathParamsOf(op).filter(isIdParam).length > 1)) {
    for (const param of pathParamsOf(operation).filter(isIdParam)) {
      it(`${titleOf(operation)}: 404 not_found for B's owner with B's ids but A's {${param}}, A's resource unchanged`, async () => {
        const [ours, theirs] = await Promise.all([prepareIn(orgB, operation), prepareIn(orgA, operation)]);
        const mixed = { ...ours, params: { ...ours.params, [param]: theirs.params![param]! } };
        const before = await theirs.observe?.();

        const res = await send(matrix.stack.api.url, operation, mixed, orgB.owner.key);
        expectError(res, 404, 'not_found');
        if (theirs.observe) expect(await theirs.observe(), "A's resource is unchanged").toEqual(before);

        const control = await send(matrix.stack.api.url, operation, ours, orgB.owner.key);
        expectPermitted(operation, control, controlOf(operation));
      });
    }
  }
});

describe("lists read by another organization's owner", () => {
  const lists = apiOperations.filter((operation) => operation.auth === 'caller' && operation.method === 'get' && pathParamsOf(operation).length === 0);
  const idsOfA = new Set<string>();
  /** The ids of A's own lists show (the positive control). */
  const listedIdsOfA: string[] = [];

  beforeAll(async () => {
    const make = new ResourceMaker(matrix, orgA, orgA.owner, new Map());
    const [automation, webhook, skill, connection, assistant, execution, key, member] = await Promise.all([
      make.automation(),
      make.automationWebhook(),
      make.skill(),
      make.connection(),
      make.assistant(),
      make.execution(),
      make.apiKey(),
      make.member(),
    ]);
    listedIdsOfA.push(automation.id, skill.id, connection.id, assistant.id, key.id, member.id, orgA.admin.id);
    for (const id of [...listedIdsOfA, webhook.webhookId, execution, orgA.owner.id, orgA.id]) idsOfA.add(String(id));
  });

  for (const operation of lists) {
    it(`${titleOf(operation)} shows none of A's ids to B's owner`, async () => {
      const request = await fixtureOf(operation).prepare(new ResourceMaker(matrix, orgB, orgB.owner));
      const res = await send(matrix.stack.api.url, operation, request, orgB.owner.key);
      expect(res.status, res.text).toBe(200);
      for (const id of idsOfA) expect(res.text, `A's id ${id}`).not.toContain(id);
    });
  }

  it("A's own lists do show A's ids (the check above can fail)", async () => {
    const make = new ResourceMaker(matrix, orgA, orgA.owner);
    const text = JSON.stringify(await Promise.all(['/automations', '/skills', '/tools/connections', '/assistants', '/api-keys', '/users'].map((path) => make.read(path))));
    for (const id of listedIdsOfA) expect(text, id).toContain(id);
  });
});
