// Authorization on the real stack. The route table below is checked against the routes the
// identity routers really register, then every route is called with every role (expected 2xx or
// 403) and every route with an id is called with another organization's credentials (404, and
// nothing changes). Plus the role rules of DESIGN.md that the matrix alone does not show.
import type { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeysRoutes } from '../../src/api/routes/api-keys.js';
import { auditLogsRoutes } from '../../src/api/routes/audit-logs.js';
import { usersRoutes } from '../../src/api/routes/users.js';
import { ROLES, User, type Role } from '../../src/identity/entities.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization, type TestUser } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let orgA: TestOrganization;
let orgB: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  [orgA, orgB] = await Promise.all([createTestOrganization(stack.runtime.orm), createTestOrganization(stack.runtime.orm)]);
});
afterAll(async () => stack?.stop());

interface Prepared {
  path: string;
  body?: unknown;
}

interface RouteCase {
  method: string;
  /** As registered in Express. */
  route: string;
  minimum: Role;
  success: number;
  /** Builds a fresh request for `caller` in `org` (targets are created per call). */
  prepare(org: TestOrganization, caller: TestUser): Promise<Prepared>;
}

let counter = 0;
const freshEmail = () => `matrix-${Date.now()}-${counter++}@example.test`;

async function freshKeyOf(user: TestUser): Promise<string> {
  const res = await call(stack.baseUrl, 'POST', '/api-keys', { key: user.key, body: { name: 'target' } });
  expect(res.status).toBe(201);
  return res.body.id;
}

const ROUTES: RouteCase[] = [
  { method: 'GET', route: '/users', minimum: 'admin', success: 200, prepare: async () => ({ path: '/users' }) },
  { method: 'GET', route: '/users/me', minimum: 'member', success: 200, prepare: async () => ({ path: '/users/me' }) },
  {
    method: 'POST', route: '/users/invite', minimum: 'admin', success: 201,
    prepare: async () => ({ path: '/users/invite', body: { email: freshEmail(), role: 'member' } }),
  },
  {
    method: 'PUT', route: '/users/:id/role', minimum: 'admin', success: 200,
    prepare: async (org) => ({ path: `/users/${(await createTestUser(stack.runtime.orm, org.id, 'member')).id}/role`, body: { role: 'member' } }),
  },
  {
    method: 'DELETE', route: '/users/:id', minimum: 'admin', success: 204,
    prepare: async (org) => ({ path: `/users/${(await createTestUser(stack.runtime.orm, org.id, 'member')).id}` }),
  },
  { method: 'POST', route: '/api-keys', minimum: 'member', success: 201, prepare: async () => ({ path: '/api-keys', body: { name: 'matrix' } }) },
  { method: 'GET', route: '/api-keys', minimum: 'member', success: 200, prepare: async () => ({ path: '/api-keys' }) },
  {
    method: 'DELETE', route: '/api-keys/:id', minimum: 'member', success: 204,
    prepare: async (_org, caller) => ({ path: `/api-keys/${await freshKeyOf(caller)}` }),
  },
  { method: 'GET', route: '/audit-logs', minimum: 'admin', success: 200, prepare: async () => ({ path: '/audit-logs' }) },
];

const RANK: Record<Role, number> = { member: 0, admin: 1, owner: 2 };

function registeredRoutes(router: Router): string[] {
  return router.stack.flatMap((layer) => {
    const route = layer.route as { path: string; methods?: Record<string, boolean> } | undefined;
    if (!route) return [];
    return Object.keys(route.methods ?? {}).map((method) => `${method.toUpperCase()} ${route.path}`);
  });
}

describe('route table', () => {
  it('covers exactly the routes the identity routers register', () => {
    const registered = [usersRoutes, apiKeysRoutes, auditLogsRoutes].flatMap((factory) => registeredRoutes(factory(stack.runtime)));
    expect(registered.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.route}`).sort());
  });
});

describe('role x endpoint x method', () => {
  for (const route of ROUTES) {
    for (const role of ROLES) {
      const allowed = RANK[role] >= RANK[route.minimum];
      it(`${route.method} ${route.route} as ${role} -> ${allowed ? route.success : 403}`, async () => {
        const caller = orgA[role];
        const request = await route.prepare(orgA, caller);
        const res = await call(stack.baseUrl, route.method, request.path, { key: caller.key, body: request.body });
        expect(res.status, res.text).toBe(allowed ? route.success : 403);
        if (!allowed) expect(res.body.error.code).toBe('forbidden');
      });
    }
  }
});

describe("another organization's ids", () => {
  const withId = ROUTES.filter((route) => route.route.includes(':id'));
  for (const route of withId) {
    for (const role of ROLES) {
      if (RANK[role] < RANK[route.minimum]) continue;
      it(`${route.method} ${route.route} as orgA ${role} on an orgB id -> 404, nothing changed`, async () => {
        const victim = await createTestUser(stack.runtime.orm, orgB.id, 'member');
        const request = await route.prepare(orgB, victim);
        const res = await call(stack.baseUrl, route.method, request.path, { key: orgA[role].key, body: request.body ?? (route.method === 'PUT' ? { role: 'admin' } : undefined) });
        expect(res.status, res.text).toBe(404);
        expect(res.body.error.code).toBe('not_found');
        // The target is untouched: the victim and their keys still work, with their role.
        const me = await call(stack.baseUrl, 'GET', '/users/me', { key: victim.key });
        expect(me.status).toBe(200);
        expect(me.body.role).toBe('member');
        const keys = await call(stack.baseUrl, 'GET', '/api-keys', { key: victim.key });
        expect(keys.body.apiKeys.every((k: any) => k.revokedAt === null)).toBe(true);
      });
    }
  }

  it('lists only the caller’s organization', async () => {
    const res = await call(stack.baseUrl, 'GET', '/users', { key: orgA.admin.key });
    const ids = res.body.users.map((u: any) => u.id);
    expect(ids).toContain(orgA.member.id);
    expect(ids).not.toContain(orgB.member.id);
    const audit = await call(stack.baseUrl, 'GET', '/audit-logs?limit=200', { key: orgB.owner.key });
    expect(audit.body.auditLogs.every((e: any) => e.actorUserId !== orgA.owner.id)).toBe(true);
  });
});

describe('role rules', () => {
  let org: TestOrganization;
  beforeAll(async () => {
    org = await createTestOrganization(stack.runtime.orm);
  });

  it('lets only the owner promote to admin and demote an admin', async () => {
    const member = await createTestUser(stack.runtime.orm, org.id, 'member');
    const byAdmin = await call(stack.baseUrl, 'PUT', `/users/${member.id}/role`, { key: org.admin.key, body: { role: 'admin' } });
    expect(byAdmin.status).toBe(403);
    const byOwner = await call(stack.baseUrl, 'PUT', `/users/${member.id}/role`, { key: org.owner.key, body: { role: 'admin' } });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body).toMatchObject({ id: member.id, role: 'admin' });
    const demoteByAdmin = await call(stack.baseUrl, 'PUT', `/users/${member.id}/role`, { key: org.admin.key, body: { role: 'member' } });
    expect(demoteByAdmin.status).toBe(403);

    const audit = await call(stack.baseUrl, 'GET', '/audit-logs?limit=1', { key: org.owner.key });
    expect(audit.body.auditLogs[0]).toMatchObject({ action: 'user.role_changed', targetId: member.id, metadata: { from: 'member', to: 'admin' } });
  });

  it('never assigns owner and never removes or changes the owner', async () => {
    const member = await createTestUser(stack.runtime.orm, org.id, 'member');
    const toOwner = await call(stack.baseUrl, 'PUT', `/users/${member.id}/role`, { key: org.owner.key, body: { role: 'owner' } });
    expect(toOwner.status).toBe(400);
    expect(toOwner.body.error.param).toBe('role');
    expect((await call(stack.baseUrl, 'DELETE', `/users/${org.owner.id}`, { key: org.admin.key })).status).toBe(403);
    expect((await call(stack.baseUrl, 'DELETE', `/users/${org.owner.id}`, { key: org.owner.key })).status).toBe(403);
    expect((await call(stack.baseUrl, 'PUT', `/users/${org.owner.id}/role`, { key: org.owner.key, body: { role: 'member' } })).status).toBe(403);
  });

  it('lets an admin remove members but not admins; the owner removes admins', async () => {
    const admin = await createTestUser(stack.runtime.orm, org.id, 'admin');
    expect((await call(stack.baseUrl, 'DELETE', `/users/${admin.id}`, { key: org.admin.key })).status).toBe(403);
    expect((await call(stack.baseUrl, 'DELETE', `/users/${admin.id}`, { key: org.owner.key })).status).toBe(204);
    expect(await stack.runtime.orm.em.fork().count(User, { id: admin.id })).toBe(0);
    const audit = await call(stack.baseUrl, 'GET', '/audit-logs?limit=1', { key: org.owner.key });
    expect(audit.body.auditLogs[0]).toMatchObject({ action: 'user.removed', targetId: admin.id });
  });

  it('ignores nothing: privileged fields in bodies are rejected, not applied', async () => {
    const member = await createTestUser(stack.runtime.orm, org.id, 'member');
    const res = await call(stack.baseUrl, 'PUT', `/users/${member.id}/role`, {
      key: org.admin.key,
      body: { role: 'member', organizationId: orgB.id, status: 'active' },
    });
    expect(res.status).toBe(400);
    const invite = await call(stack.baseUrl, 'POST', '/users/invite', { key: org.admin.key, body: { email: freshEmail(), status: 'active' } });
    expect(invite.status).toBe(400);
    expect(invite.body.error.param).toBe('status');
  });
});
