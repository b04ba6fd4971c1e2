// A valid request for every operation of the route registry (src/api/openapi), keyed by
// operationId, for the authorization matrices: the role matrix (access-matrix.test.ts) and the
// two-organization matrix (tenant-matrix.test.ts). Both fail for an operation without an entry
// here, so a new route cannot escape them.
//
// `prepare` builds a fresh request for a caller: path parameter values naming real resources of
// the caller's organization (made by the caller, see ResourceMaker), a valid body, and for the
// operations that change something an `observe` that reads the target as its organization sees
// it, so a refused call can be shown to have changed nothing.
import { expect } from 'vitest';
import { errorBody } from '../../src/api/openapi/document.js';
import type { Operation } from '../../src/api/openapi/registry.js';
import { approvalLink } from '../../src/approvals/links.js';
import { AppError, type ErrorCode } from '../../src/errors.js';
import { toAnthropicError } from '../../src/gateway/wire/messages.js';
import { call, type HttpResult } from '../helpers/http.js';
import { INERT_TOOL, type ResourceMaker } from './matrix-stack.js';

type Json = Record<string, any>;

export interface PreparedRequest {
  /** A value for each `{param}` of the operation's path. */
  params?: Record<string, string>;
  /** `?name=value...` */
  query?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The target's state as its organization sees it; equal before and after a refused call. */
  observe?: () => Promise<unknown>;
}

export interface Expectation {
  status: number;
  why: string;
}

export interface OperationFixture {
  prepare(make: ResourceMaker): Promise<PreparedRequest>;
  /** The status a permitted call answers when it is not the documented success, and why. */
  expected?: Expectation;
  /**
   * What a member gets when the target was made by another user of the organization (an admin):
   * 403 where only its creator, admins and the owner may change it, 404 where it is its user's
   * own; the documented success when absent (the organization shares it).
   */
  ofAnotherUser?: Expectation;
  /**
   * For the two-organization matrix: another `prepare` when the target must differ, and the
   * status the target's own organization then gets (the control) when it is not the success.
   * `excluded` only for an operation whose credential is not an organization's (auth not `caller`).
   */
  crossOrganization?: { prepare?: OperationFixture['prepare']; control?: Expectation } | { excluded: string };
}

const PASSWORD = 'a long enough password';
let unique = 0;
const uniqueEmail = () => `matrix-${process.pid}-${Date.now()}-${unique++}@example.test`;

const onlyManagers = (what: string): Expectation => ({ status: 403, why: `only the ${what}'s creator, admins and the owner change it` });
const ownConnection: Expectation = { status: 404, why: "a connection is its user's own" };
const storingUsers: Expectation = { status: 404, why: "a stored response is its storing user's (admins and the owner read and delete it)" };

/** A signed link to a fresh request of the caller's (as the activity signs it for a channel). */
async function linkRequest(make: ResourceMaker, decision: 'approve' | 'deny'): Promise<PreparedRequest> {
  const approval = await make.approval();
  const url = new URL(approvalLink(make.runtime, approval, decision, 'email:matrix@example.test'));
  return { params: { id: approval.id, decision }, query: url.search, observe: read(make, `/approvals/${approval.id}`) };
}

/** A request without parameters or body. */
const plain = (): OperationFixture => ({ prepare: async () => ({}) });
const read = (make: ResourceMaker, path: string) => () => make.read(path);
/** A connection is seen by its user only. */
const readConnection = (make: ResourceMaker, id: string) => () => make.read(`/tools/connections/${id}`, make.caller.key);

function automationState(make: ResourceMaker, id: string) {
  // Webhook URLs are the automation's owner's alone: read them with the owner's key.
  return async () => ({ automation: await make.read(`/automations/${id}`), webhooks: await make.read(`/automations/${id}/webhooks`, make.caller.key) });
}

function runState(make: ResourceMaker, automationId: string, runId: string) {
  return async () => (await make.read(`/automations/${automationId}/runs?limit=100`)).runs.find((run: Json) => run.id === runId);
}

/** The ids of an automation's runs: a refused retry adds none. */
function runsOf(make: ResourceMaker, automationId: string) {
  return async () => (await make.read(`/automations/${automationId}/runs?limit=100`)).runs.map((run: Json) => run.id);
}

function userState(make: ResourceMaker, id: string) {
  return async () => {
    const user = (await make.read('/users')).users.find((view: Json) => view.id === id);
    expect(user, `user ${id} is listed in its organization`).toBeDefined();
    return user;
  };
}

/** The key as listed (lastUsedAt aside: using it may move it) and whether it still authenticates. */
function keyState(make: ResourceMaker, key: Json) {
  return async () => {
    const listed = (await make.read('/api-keys')).apiKeys.find((view: Json) => view.id === key.id);
    expect(listed, `key ${key.id} is listed in its organization`).toBeDefined();
    const { lastUsedAt: _moved, ...view } = listed;
    return { view, authenticates: (await call(make.baseUrl, 'GET', '/users/me', { key: key.key })).status };
  };
}

export const OPERATION_FIXTURES: Record<string, OperationFixture> = {
  // Operations
  getHealth: plain(),
  getConsoleSettings: plain(),
  getReadiness: plain(),
  getMetrics: plain(),
  getOpenApiDocument: plain(),
  getApiReference: plain(),

  // Authentication
  login: {
    prepare: async (make) => {
      const user = await make.passwordUser();
      return { body: { email: user.email, password: user.password } };
    },
  },
  signInWithApiKey: {
    // The organization owner's key has no limits: whoever calls this public endpoint with it signs in.
    prepare: async (make) => ({ body: { apiKey: make.org.owner.key } }),
  },
  acceptInvitation: {
    prepare: async (make) => ({ body: { token: await make.invitationToken(), name: 'Matrix Invitee', password: PASSWORD } }),
  },
  logout: {
    prepare: async (make) => ({ headers: { cookie: `svc_session=${await make.session()}` } }),
  },
  oidcLogin: plain(),
  oidcCallback: {
    prepare: async (make) => {
      const { query, cookie } = await make.oidcCallback();
      return { query, headers: { cookie } };
    },
  },

  // Users
  listUsers: plain(),
  getCurrentUser: plain(),
  inviteUser: { prepare: async () => ({ body: { email: uniqueEmail(), role: 'member' } }) },
  changeUserRole: {
    // Only the owner promotes to admin; an admin changes a member's role to member (a no-op, 200).
    prepare: async (make) => {
      const member = await make.member();
      return { params: { id: member.id }, body: { role: make.caller.role === 'owner' ? 'admin' : 'member' }, observe: userState(make, member.id) };
    },
  },
  removeUser: {
    prepare: async (make) => {
      const member = await make.member();
      return { params: { id: member.id }, observe: userState(make, member.id) };
    },
  },
  changeUserStatus: {
    prepare: async (make) => {
      const member = await make.member();
      return { params: { id: member.id }, body: { status: 'disabled' }, observe: userState(make, member.id) };
    },
  },
  transferOwnership: {
    // Handing ownership over for real would demote the matrix's owner for every later request:
    // the owner names themselves (409, nothing changes); the transfer itself is tested in
    // test/security/identity-user-lifecycle.test.ts.
    expected: { status: 409, why: 'the owner already owns the organization (a real transfer would demote the matrix owner)' },
    prepare: async (make) => ({ params: { id: make.caller.id }, observe: userState(make, make.caller.id) }),
  },

  // API keys (a member revokes only their own keys: the key is the caller's)
  createApiKey: { prepare: async () => ({ body: { name: 'matrix key' } }) },
  listApiKeys: plain(),
  revokeApiKey: {
    ofAnotherUser: { status: 404, why: 'a member sees only their own keys' },
    prepare: async (make) => {
      const key = await make.apiKey();
      return { params: { id: key.id }, observe: keyState(make, key) };
    },
  },

  listAuditLogs: { prepare: async () => ({ query: '?limit=5' }) },
  listGatewayRequests: { prepare: async () => ({ query: '?limit=5' }) },
  runWorkflowDiagnostics: plain(),
  // Codec server: a plain JSON payload, encoded for the caller's organization / returned unchanged.
  encodePayloads: { prepare: async () => ({ body: { payloads: [{ metadata: { encoding: 'anNvbi9wbGFpbg==' }, data: 'IngiIA==' }] } }) },
  decodePayloads: { prepare: async () => ({ body: { payloads: [{ metadata: { encoding: 'anNvbi9wbGFpbg==' }, data: 'IngiIA==' }] } }) },
  createChatCompletion: {
    prepare: async () => ({ body: { model: 'standard', messages: [{ role: 'user', content: 'Hello' }], max_tokens: 16 } }),
  },
  listModels: plain(),
  createEmbeddings: { prepare: async () => ({ body: { model: 'text-embedding-3-small', input: ['Hello', 'world'] } }) },
  createResponse: { prepare: async () => ({ body: { model: 'standard', input: 'Hello', max_output_tokens: 16, store: false } }) },
  getResponse: { prepare: async (make) => ({ params: { id: (await make.storedResponse()).id } }), ofAnotherUser: storingUsers },
  listResponseInputItems: { prepare: async (make) => ({ params: { id: (await make.storedResponse()).id }, query: '?limit=5' }), ofAnotherUser: storingUsers },
  deleteResponse: {
    prepare: async (make) => {
      const { id } = await make.storedResponse({ fresh: true });
      return { params: { id }, observe: () => make.exists(`/responses/${id}`) };
    },
    ofAnotherUser: storingUsers,
  },
  createMessage: { prepare: async () => ({ body: { model: 'standard', max_tokens: 16, messages: [{ role: 'user', content: 'Hello' }] } }) },
  countMessageTokens: { prepare: async () => ({ body: { model: 'standard', messages: [{ role: 'user', content: 'Hello' }] } }) },
  getDlpPolicy: plain(),
  updateDlpPolicy: { prepare: async () => ({ body: { detectors: { phone: 'off' } } }) },
  getUsage: { prepare: async () => ({ query: '?groupBy=day' }) },
  setBudget: { prepare: async () => ({ body: { monthlyCap: 1000 } }) },

  // Automations
  listAutomations: plain(),
  createAutomation: {
    prepare: async () => ({ body: { name: 'Matrix automation', systemPrompt: 'Say hi.', schedule: '0 0 1 1 *', status: 'paused' } }),
  },
  getAutomation: {
    prepare: async (make) => ({ params: { id: (await make.automation()).id } }),
  },
  updateAutomation: {
    ofAnotherUser: onlyManagers('automation'),
    prepare: async (make) => {
      const { id } = await make.automation();
      return { params: { id }, body: { description: `changed ${uniqueEmail()}` }, observe: automationState(make, id) };
    },
  },
  deleteAutomation: {
    ofAnotherUser: onlyManagers('automation'),
    prepare: async (make) => {
      const { id } = await make.automation({ fresh: true });
      return { params: { id }, observe: automationState(make, id) };
    },
  },
  activateAutomation: {
    ofAnotherUser: onlyManagers('automation'),
    prepare: async (make) => {
      const { id } = await make.automation({ status: 'paused' });
      return { params: { id }, observe: automationState(make, id) };
    },
  },
  takeAutomationOwnership: {
    prepare: async (make) => {
      const { id } = await make.automation();
      return { params: { id }, observe: automationState(make, id) };
    },
  },
  pauseAutomation: {
    ofAnotherUser: onlyManagers('automation'),
    prepare: async (make) => {
      const { id } = await make.automation({ status: 'active' });
      return { params: { id }, observe: automationState(make, id) };
    },
  },
  runAutomation: {
    ofAnotherUser: onlyManagers('automation'),
    prepare: async (make) => {
      const { id } = await make.automation();
      return { params: { id }, observe: automationState(make, id) };
    },
  },
  listRuns: {
    prepare: async (make) => ({ params: { id: (await make.automation()).id }, query: '?limit=5' }),
  },
  cancelRun: {
    // Only a running run can be cancelled; the matrix's runs end at once, so a permitted caller
    // gets past the role check to the state check (409) while others are refused first.
    expected: { status: 409, why: 'the run already ended (the fake upstream answers at once)' },
    ofAnotherUser: onlyManagers('automation'),
    prepare: async (make) => {
      const { automationId, runId } = await make.endedRun();
      return { params: { id: automationId, runId }, observe: runState(make, automationId, runId) };
    },
  },
  retryRun: {
    ofAnotherUser: onlyManagers('automation'),
    prepare: async (make) => {
      const { automationId, runId } = await make.endedRun();
      return { params: { id: automationId, runId }, observe: runsOf(make, automationId) };
    },
  },
  createAutomationWebhook: {
    ofAnotherUser: onlyManagers('automation'),
    prepare: async (make) => {
      const { id } = await make.automation();
      return { params: { id }, observe: automationState(make, id) };
    },
  },
  listAutomationWebhooks: {
    ofAnotherUser: onlyManagers('automation'),
    prepare: async (make) => ({ params: { id: (await make.automation()).id } }),
  },
  revokeAutomationWebhook: {
    ofAnotherUser: onlyManagers('automation'),
    prepare: async (make) => {
      const { automationId, webhookId } = await make.automationWebhook({ fresh: true });
      return { params: { id: automationId, webhookId }, observe: automationState(make, automationId) };
    },
  },

  // Skills (team visibility: another organization cannot see them)
  listSkills: plain(),
  createSkill: {
    prepare: async () => ({ body: { name: 'Matrix skill', description: 'x', category: 'testing', systemPrompt: 'Be brief.', visibility: 'private' } }),
  },
  getSkill: { prepare: async (make) => ({ params: { id: (await make.skill()).id } }) },
  listApprovals: plain(),
  getApproval: {
    prepare: async (make) => ({ params: { id: (await make.approval()).id } }),
  },
  approveToolCall: {
    ofAnotherUser: { status: 403, why: "only the automation's owner, admins and the organization owner decide on its tool calls" },
    prepare: async (make) => {
      const { id } = await make.approval();
      return { params: { id }, body: {}, observe: read(make, `/approvals/${id}`) };
    },
  },
  denyToolCall: {
    ofAnotherUser: { status: 403, why: "only the automation's owner, admins and the organization owner decide on its tool calls" },
    prepare: async (make) => {
      const { id } = await make.approval();
      return { params: { id }, body: { reason: 'matrix' }, observe: read(make, `/approvals/${id}`) };
    },
  },
  openApprovalLink: {
    prepare: async (make) => linkRequest(make, 'approve'),
    crossOrganization: { excluded: 'public and unauthenticated: the signed link is the credential' },
  },
  decideByApprovalLink: {
    prepare: async (make) => linkRequest(make, 'deny'),
    crossOrganization: { excluded: 'public and unauthenticated: the signed link is the credential' },
  },
  getMarketplaceSkill: {
    prepare: async (make) => {
      const skill = await make.skill({ visibility: 'public', fresh: true });
      await make.post(`/skills/${skill.id}/publish`);
      return { params: { id: skill.id } };
    },
    crossOrganization: { excluded: 'public and unauthenticated: a published public skill is listed for everyone' },
  },
  updateSkill: {
    ofAnotherUser: onlyManagers('skill'),
    prepare: async (make) => {
      const { id } = await make.skill();
      return { params: { id }, body: { description: `changed ${uniqueEmail()}` }, observe: read(make, `/skills/${id}`) };
    },
  },
  deleteSkill: {
    ofAnotherUser: onlyManagers('skill'),
    prepare: async (make) => {
      const { id } = await make.skill({ fresh: true });
      return { params: { id }, observe: read(make, `/skills/${id}`) };
    },
  },
  createSkillVersion: {
    ofAnotherUser: onlyManagers('skill'),
    prepare: async (make) => {
      const { id } = await make.skill();
      return { params: { id }, body: { systemPrompt: 'Be briefer.', notes: 'matrix' }, observe: read(make, `/skills/${id}`) };
    },
  },
  getSkillVersion: { prepare: async (make) => ({ params: { id: (await make.skill()).id, version: '1' } }) },
  publishSkill: {
    ofAnotherUser: onlyManagers('skill'),
    prepare: async (make) => {
      const { id } = await make.skill({ visibility: 'public' });
      return { params: { id }, observe: read(make, `/skills/${id}`) };
    },
    crossOrganization: {
      // A public skill is visible to every organization by design (changing it from another
      // one is 403, see test/skills/visibility.test.ts), so the target is a team skill: hidden
      // from the other organization, and not publishable for its own.
      prepare: async (make) => {
        const { id } = await make.skill({ visibility: 'team' });
        return { params: { id }, observe: read(make, `/skills/${id}`) };
      },
      control: { status: 400, why: 'only a public skill can be published (skill_not_publishable)' },
    },
  },

  // Tools (connections are the caller's own)
  listConnectors: plain(),
  listConnections: plain(),
  createConnection: { prepare: async () => ({ body: { toolId: INERT_TOOL, name: 'Matrix connection' } }) },
  getConnection: {
    ofAnotherUser: ownConnection,
    prepare: async (make) => ({ params: { id: (await make.connection()).id } }),
  },
  deleteConnection: {
    ofAnotherUser: ownConnection,
    prepare: async (make) => {
      const { id } = await make.connection({ fresh: true });
      return { params: { id }, observe: readConnection(make, id) };
    },
  },
  testConnection: {
    ofAnotherUser: ownConnection,
    prepare: async (make) => {
      const { id } = await make.connection();
      return { params: { id }, observe: readConnection(make, id) };
    },
  },

  // Assistants
  createAssistant: {
    prepare: async () => ({ body: { name: 'Matrix assistant', systemPrompt: 'Echo.', model: 'standard', trigger: { type: 'webhook' } } }),
  },
  listAssistants: plain(),
  getAssistant: { prepare: async (make) => ({ params: { id: (await make.assistant()).id } }) },
  updateAssistant: {
    ofAnotherUser: onlyManagers('assistant'),
    prepare: async (make) => {
      const { id } = await make.assistant();
      return { params: { id }, body: { description: `changed ${uniqueEmail()}` }, observe: read(make, `/assistants/${id}`) };
    },
  },
  deleteAssistant: {
    ofAnotherUser: onlyManagers('assistant'),
    prepare: async (make) => {
      const { id } = await make.assistant({ fresh: true });
      return { params: { id }, observe: read(make, `/assistants/${id}`) };
    },
  },
  regenerateAssistantWebhook: {
    ofAnotherUser: onlyManagers('assistant'),
    prepare: async (make) => {
      const { id } = await make.assistant();
      return { params: { id }, observe: read(make, `/assistants/${id}`) };
    },
  },
  takeAssistantOwnership: {
    prepare: async (make) => {
      const { id } = await make.assistant();
      return { params: { id }, observe: read(make, `/assistants/${id}`) };
    },
  },

  // Webhooks
  receiveWebhook: {
    prepare: async (make) => ({ params: { webhookId: (await make.assistant({ ingress: true })).webhookId }, body: { event: 'matrix' } }),
    crossOrganization: { excluded: 'the URL id is the credential (docs/design.md, Webhooks): whoever holds the URL may post, whatever else they hold' },
  },
  getWebhookExecution: { prepare: async (make) => ({ params: { executionId: await make.execution() } }) },
  postMcpMessage: {
    prepare: async () => ({ body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { accept: 'application/json, text/event-stream' } }),
    // 202 is a notification's answer; a request such as tools/list gets its JSON-RPC answer.
    expected: { status: 200, why: 'a JSON-RPC request is answered' },
  },
};

/** The fixture of an operation; fails the test when the operation has none. */
export function fixtureOf(operation: Operation): OperationFixture {
  const fixture = OPERATION_FIXTURES[operation.operationId];
  if (!fixture) throw new Error(`No fixture for ${operation.operationId} (${operation.method.toUpperCase()} ${operation.path}): add one to test/identity/operation-fixtures.ts`);
  return fixture;
}

/** The documented success status of an operation. */
export function successOf(operation: Operation): number {
  const statuses = Object.keys(operation.responses).map(Number).filter((status) => status < 400);
  expect(statuses, `${operation.operationId} documents one success`).toHaveLength(1);
  return statuses[0]!;
}

export const pathParamsOf = (operation: Operation): string[] => [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);

/** Sends a prepared request to an operation, with an API key or no credential. Redirects are not followed. */
export function send(apiUrl: string, operation: Operation, request: PreparedRequest, key: string | undefined): Promise<HttpResult<Json>> {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = request.params?.[name];
    if (value === undefined) throw new Error(`The fixture of ${operation.operationId} gives no value for {${name}}`);
    return encodeURIComponent(value);
  });
  return call<Json>(apiUrl, operation.method.toUpperCase(), path + (request.query ?? ''), {
    key,
    body: request.body,
    headers: request.headers,
    redirect: 'manual',
  });
}

/** An OpenAI-shaped error body with `code`, under the status of that code (Anthropic's shape and type on the Messages routes). */
export function expectError(res: HttpResult<Json>, status: number, code: string, operation?: Operation): void {
  if (operation?.errorShape === 'anthropic') {
    const expected = toAnthropicError(new AppError(code as ErrorCode, ''));
    expect(res.status, res.text).toBe(expected.status);
    expect(res.body, res.text).toMatchObject({ type: 'error', error: { type: expected.body.error.type, message: expect.any(String) } });
    return;
  }
  expect(res.status, res.text).toBe(status);
  expect(errorBody.safeParse(res.body).success, `OpenAI-shaped error body: ${res.text}`).toBe(true);
  expect(res.body.error.code).toBe(code);
}

/** What a permitted call answers: the documented success (or the documented exception), with a body of the documented schema. */
export function expectPermitted(operation: Operation, res: HttpResult<Json>, expected?: Expectation): void {
  const status = expected?.status ?? successOf(operation);
  expect(res.status, `${expected ? `${expected.why}: ` : ''}${res.text.slice(0, 500)}`).toBe(status);
  const documented = operation.responses[res.status];
  if (!documented?.schema || (documented.contentType ?? 'application/json') !== 'application/json') return;
  const parsed = documented.schema.safeParse(res.body);
  expect(parsed.success, `body matches the documented schema: ${parsed.error?.issues[0]?.path.join('.')}: ${parsed.error?.issues[0]?.message}`).toBe(true);
}
