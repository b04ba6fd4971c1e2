// Authorization on the real stack, generated from the route registry (src/api/openapi, which
// test/api/openapi.test.ts proves equal to the Express routes): every operation is called by
// every role with a valid request (operation-fixtures.ts) and must answer its documented success
// when the role suffices, 403 `forbidden` (OpenAI-shaped, nothing changed) below the role it
// requires, and 401 `unauthorized` without a credential; public operations answer every caller.
// A member calling an operation on a resource another user made gets what the fixture says
// (403 where only its creator, admins and the owner may change it). Then the role rules of
// docs/design.md that the matrix alone does not show.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOperations } from '../../src/api/openapi/document.js';
import type { Operation } from '../../src/api/openapi/registry.js';
import { ROLES, User, type Role } from '../../src/identity/entities.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization, type TestUser } from '../helpers/orgs.js';
import { startMatrixStack, ResourceMaker, type MatrixStack } from './matrix-stack.js';
import { expectError, expectPermitted, fixtureOf, OPERATION_FIXTURES, pathParamsOf, send } from './operation-fixtures.js';

let matrix: MatrixStack;
let org: TestOrganization;
/** Resources the requests only read or change in place, made once per caller. */
const made = new Map<string, Promise<unknown>>();

beforeAll(async () => {
  matrix = await startMatrixStack();
  org = await createTestOrganization(matrix.stack.runtime.orm);
});
afterAll(async () => matrix?.stop());

const RANK: Record<Role, number> = { member: 0, admin: 1, owner: 2 };
const titleOf = (operation: Operation) => `${operation.method.toUpperCase()} ${operation.path}`;
const documentedSuccess = (operation: Operation) => Object.keys(operation.responses).find((status) => Number(status) < 400);
const makerFor = (caller: TestUser) => new ResourceMaker(matrix, org, caller, made);

describe('the matrix', () => {
  it('has a fixture for every operation of the registry, and none for an operation it lacks', () => {
    expect(apiOperations.length).toBeGreaterThan(50);
    expect(apiOperations.filter((operation) => !OPERATION_FIXTURES[operation.operationId]).map(titleOf), 'operations without a fixture').toEqual([]);
    const ids = new Set(apiOperations.map((operation) => operation.operationId));
    expect(Object.keys(OPERATION_FIXTURES).filter((id) => !ids.has(id)), 'fixtures of no operation').toEqual([]);
  });
});

describe('role x endpoint x method', () => {
  for (const operation of apiOperations) {
    describe(titleOf(operation), () => {
      if (operation.auth !== 'caller') {
        // Public (or authenticated by its URL or the metrics token): whoever calls gets the success.
        for (const role of [...ROLES, undefined]) {
          it(`answers ${documentedSuccess(operation)} ${role ? `to ${role}` : 'without a credential'} (${operation.auth})`, async () => {
            const fixture = fixtureOf(operation);
            const request = await fixture.prepare(makerFor(role ? org[role] : org.owner));
            const res = await send(matrix.stack.api.url, operation, request, role ? org[role].key : undefined);
            expectPermitted(operation, res, fixture.expected);
          });
        }
        return;
      }
      const minimum = operation.role ?? 'member';
      for (const role of ROLES) {
        const allowed = RANK[role] >= RANK[minimum];
        it(`${allowed ? `answers ${documentedSuccess(operation)}` : 'answers 403 forbidden'} to ${role}`, async () => {
          const fixture = fixtureOf(operation);
          const caller = org[role];
          const request = await fixture.prepare(makerFor(caller));
          const before = allowed ? undefined : await request.observe?.();
          const res = await send(matrix.stack.api.url, operation, request, caller.key);
          if (allowed) {
            expectPermitted(operation, res, fixture.expected);
            return;
          }
          expectError(res, 403, 'forbidden', operation);
          if (request.observe) expect(await request.observe(), 'the target is unchanged').toEqual(before);
        });
      }
      it('answers 401 unauthorized without a credential', async () => {
        const request = await fixtureOf(operation).prepare(makerFor(org.owner));
        const res = await send(matrix.stack.api.url, operation, request, undefined);
        expectError(res, 401, 'unauthorized', operation);
      });
    });
  }
});

describe("a member on another user's resource", () => {
  // Every operation a member may call on a resource named in its path, on one an admin made
  // (fresh, so no earlier request of the matrix changes it while it is observed).
  const targeted = apiOperations.filter((operation) => operation.auth === 'caller' && !operation.role && pathParamsOf(operation).length > 0);
  for (const operation of targeted) {
    const other = OPERATION_FIXTURES[operation.operationId]?.ofAnotherUser;
    it(`${titleOf(operation)} answers ${other ? `${other.status} (${other.why})` : `${documentedSuccess(operation)} (the organization shares it)`}`, async () => {
      const fixture = fixtureOf(operation);
      const request = await fixture.prepare(new ResourceMaker(matrix, org, org.admin));
      const before = await request.observe?.();
      const res = await send(matrix.stack.api.url, operation, request, org.member.key);
      if (!fixture.ofAnotherUser) {
        expectPermitted(operation, res, fixture.expected);
        return;
      }
      expectError(res, fixture.ofAnotherUser.status, fixture.ofAnotherUser.status === 403 ? 'forbidden' : 'not_found');
      if (request.observe) expect(await request.observe(), 'the target is unchanged').toEqual(before);
    });
  }
});

describe('role rules', () => {
  let team: TestOrganization;
  beforeAll(async () => {
    team = await createTestOrganization(matrix.stack.runtime.orm);
  });

  it('lets only the owner promote to admin and demote an admin', async () => {
    const member = await createTestUser(matrix.stack.runtime.orm, team.id, 'member');
    const byAdmin = await call(matrix.stack.baseUrl, 'PUT', `/users/${member.id}/role`, { key: team.admin.key, body: { role: 'admin' } });
    expect(byAdmin.status).toBe(403);
    const byOwner = await call(matrix.stack.baseUrl, 'PUT', `/users/${member.id}/role`, { key: team.owner.key, body: { role: 'admin' } });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body).toMatchObject({ id: member.id, role: 'admin' });
    const demoteByAdmin = await call(matrix.stack.baseUrl, 'PUT', `/users/${member.id}/role`, { key: team.admin.key, body: { role: 'member' } });
    expect(demoteByAdmin.status).toBe(403);

    const audit = await call(matrix.stack.baseUrl, 'GET', '/audit-logs?limit=1', { key: team.owner.key });
    expect(audit.body.auditLogs[0]).toMatchObject({ action: 'user.role_changed', targetId: member.id, metadata: { from: 'member', to: 'admin' } });
  });

  it('never assigns owner and never removes or changes the owner', async () => {
    const member = await createTestUser(matrix.stack.runtime.orm, team.id, 'member');
    const toOwner = await call(matrix.stack.baseUrl, 'PUT', `/users/${member.id}/role`, { key: team.owner.key, body: { role: 'owner' } });
    expect(toOwner.status).toBe(400);
    expect(toOwner.body.error.param).toBe('role');
    expect((await call(matrix.stack.baseUrl, 'DELETE', `/users/${team.owner.id}`, { key: team.admin.key })).status).toBe(403);
    expect((await call(matrix.stack.baseUrl, 'DELETE', `/users/${team.owner.id}`, { key: team.owner.key })).status).toBe(403);
    expect((await call(matrix.stack.baseUrl, 'PUT', `/users/${team.owner.id}/role`, { key: team.owner.key, body: { role: 'member' } })).status).toBe(403);
  });

  it('lets an admin remove members but not admins; the owner removes admins', async () => {
    const admin = await createTestUser(matrix.stack.runtime.orm, team.id, 'admin');
    expect((await call(matrix.stack.baseUrl, 'DELETE', `/users/${admin.id}`, { key: team.admin.key })).status).toBe(403);
    expect((await call(matrix.stack.baseUrl, 'DELETE', `/users/${admin.id}`, { key: team.owner.key })).status).toBe(204);
    expect(await matrix.stack.runtime.orm.em.fork().count(User, { id: admin.id })).toBe(0);
    const audit = await call(matrix.stack.baseUrl, 'GET', '/audit-logs?limit=1', { key: team.owner.key });
    expect(audit.body.auditLogs[0]).toMatchObject({ action: 'user.removed', targetId: admin.id });
  });

  it('ignores nothing: privileged fields in bodies are rejected, not applied', async () => {
    const member = await createTestUser(matrix.stack.runtime.orm, team.id, 'member');
    const res = await call(matrix.stack.baseUrl, 'PUT', `/users/${member.id}/role`, {
      key: team.admin.key,
      body: { role: 'member', organizationId: randomUUID(), status: 'active' },
    });
    expect(res.status).toBe(400);
    const invite = await call(matrix.stack.baseUrl, 'POST', '/users/invite', { key: team.admin.key, body: { email: freshEmail(), status: 'active' } });
    expect(invite.status).toBe(400);
    expect(invite.body.error.param).toBe('status');
  });
});

let counter = 0;
function freshEmail(): string {
  return `rules-${process.pid}-${Date.now()}-${counter++}@example.test`;
}
