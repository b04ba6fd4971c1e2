// The stack the two authorization matrices run against, and the resources their requests target.
// Every operation of the registry must be callable with a valid request, so the stack has what
// each needs and nothing leaves the machine: a worker (automation runs, diagnostics, webhook
// executions), the fake upstream for chat completions, a real SMTP listener for invitations, a
// real local OpenID provider, and an inert catalog connector whose command does not exist (a
// connection test answers 200 with status error without starting anything).
import { randomUUID } from 'node:crypto';
import { ToolApproval } from '../../src/approval-policy/entities.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startOidcProvider, type OidcProviderFixture } from '../fixtures/oidc-provider.js';
import { startSmtpListener, type SmtpListener } from '../fixtures/smtp.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestUser, type TestOrganization, type TestUser } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { cookieValue, createPasswordUser, invitationTokenOf, OidcBrowser } from './helpers.js';

type Json = Record<string, any>;

/** What the OpenID provider redirects to; mapped to the test's API instance by OidcBrowser. */
export const PUBLIC_BASE = 'https://api.example.test/v1';
const REDIRECT_URI = `${PUBLIC_BASE}/auth/oidc/callback`;
export const INERT_TOOL = 'matrix-inert-tool';

export interface MatrixStack {
  stack: Stack;
  smtp: SmtpListener;
  oidc: OidcProviderFixture;
  stop(): Promise<void>;
}

function inertCatalog(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'matrix-catalog-'));
  const file = path.join(dir, 'catalog.json');
  const connector = { id: INERT_TOOL, name: 'Inert', category: 'testing', description: 'Never starts', transport: 'stdio', command: '/nonexistent/mcp-server', args: [] };
  fs.writeFileSync(file, JSON.stringify({ connectors: [connector] }));
  return file;
}

export async function startMatrixStack(): Promise<MatrixStack> {
  const [upstream, smtp, oidc]: [FakeUpstream, SmtpListener, OidcProviderFixture] = await Promise.all([
    startFakeUpstream(),
    startSmtpListener(),
    startOidcProvider({ redirectUri: REDIRECT_URI }),
  ]);
  const stack = await startStack({
    env: {
      LOG_LEVEL: 'warn',
      GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })),
      SMTP_URL: smtp.url,
      PUBLIC_BASE_URL: PUBLIC_BASE,
      SIGN_IN_REDIRECT_URL: 'https://portal.example.test/home',
      OIDC_ISSUER: oidc.issuer,
      OIDC_CLIENT_ID: oidc.clientId,
      OIDC_CLIENT_SECRET: oidc.clientSecret,
      OIDC_REDIRECT_URI: REDIRECT_URI,
      TOOLS_CATALOG_EXTRA: inertCatalog(),
      TOOLS_TEST_TIMEOUT_MS: '3000',
      RATE_LIMIT_PER_KEY_PER_MINUTE: '100000',
      RATE_LIMIT_PER_ORG_PER_MINUTE: '100000',
      RATE_LIMIT_SIGN_IN_PER_MINUTE: '100000',
      WEBHOOK_RATE_LIMIT_PER_IP: '100000',
    },
  });
  return {
    stack,
    smtp,
    oidc,
    async stop() {
      await stack.stop();
      await Promise.all([upstream.close(), smtp.stop(), oidc.stop()]);
    },
  };
}

let unique = 0;
const uniqueName = (what: string) => `${what}-${process.pid}-${Date.now()}-${unique++}`;

/**
 * Makes the resources a request targets, in `org` and owned by `caller` (the creator may always
 * change what they created, whatever their role). With a cache, what a request only reads or
 * changes in place is made once per organization and caller; what a request destroys is always
 * fresh (`{ fresh: true }`). Without one (the two-organization matrix), everything is fresh.
 */
export class ResourceMaker {
  constructor(
    private readonly matrix: MatrixStack,
    readonly org: TestOrganization,
    readonly caller: TestUser,
    private readonly cache?: Map<string, Promise<unknown>>,
  ) {}

  get baseUrl(): string {
    return this.matrix.stack.baseUrl;
  }

  get runtime() {
    return this.matrix.stack.runtime;
  }

  private reuse<T>(kind: string, fresh: boolean | undefined, make: () => Promise<T>): Promise<T> {
    if (fresh || !this.cache) return make();
    const key = `${this.org.id}/${this.caller.id}/${kind}`;
    let made = this.cache.get(key) as Promise<T> | undefined;
    if (!made) {
      made = make();
      this.cache.set(key, made);
    }
    return made;
  }

  /** POST as the caller; the resource must be created. */
  async post(path: string, body?: unknown, key = this.caller.key): Promise<Json> {
    const res = await call<Json>(this.baseUrl, 'POST', path, { key, body });
    expect(res.status, `fixture POST ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  }

  /** GET as the organization's owner (by default): how the organization sees a resource, which must be there. */
  async read(path: string, key = this.org.owner.key): Promise<Json> {
    const res = await call<Json>(this.baseUrl, 'GET', path, { key });
    expect(res.status, `${path} is readable by its organization: ${res.text}`).toBe(200);
    return res.body;
  }

  /** A stored response of the Responses API (the fake upstream answers at once). */
  storedResponse(options: { fresh?: boolean } = {}): Promise<Json> {
    return this.reuse('stored-response', options.fresh, () => this.post('/responses', { model: 'standard', input: 'Hello', max_output_tokens: 16 }));
  }

  /** Whether GET of `path` finds the resource (as the organization's owner): for what a call might delete. */
  async exists(path: string): Promise<boolean> {
    return (await call<Json>(this.baseUrl, 'GET', path, { key: this.org.owner.key })).status === 200;
  }

  /** An automation with a yearly schedule (no scheduled fire during the test). */
  automation(options: { status?: 'active' | 'paused'; fresh?: boolean } = {}): Promise<Json> {
    const status = options.status ?? 'active';
    return this.reuse(`automation-${status}`, options.fresh, () =>
      this.post('/automations', { name: uniqueName('matrix automation'), systemPrompt: 'Say hi.', schedule: '0 0 1 1 *', status }),
    );
  }

  /** A manual run of an automation of the caller's, once it ended (the fake upstream answers at once). */
  async endedRun(options: { fresh?: boolean } = {}): Promise<{ automationId: string; runId: string }> {
    const automation = await this.automation({ status: 'paused' });
    return this.reuse('ended-run', options.fresh, async () => {
      const { runId } = await this.post(`/automations/${automation.id}/run`);
      await waitFor(async () => {
        const { runs } = await this.read(`/automations/${automation.id}/runs?limit=100`);
        return runs.some((run: Json) => run.id === runId && run.status !== 'running');
      }, { timeoutMs: 30_000, what: `run ${runId} to end` });
      return { automationId: automation.id, runId };
    });
  }

  /**
   * A pending approval request of a run of an automation of the caller's, written straight to the
   * database (a real wait is in test/approvals); always fresh, since a decision consumes it.
   */
  async approval(): Promise<{ id: string; expiresAt: Date }> {
    const { automationId, runId } = await this.endedRun();
    const em = this.matrix.stack.runtime.orm.em.fork();
    const approval = em.create(ToolApproval, {
      id: randomUUID(), organizationId: this.org.id, workflowId: `run/${runId}`, runId, automationId, ownerId: this.caller.id,
      tool: `${INERT_TOOL}__act`, arguments: '{}', requestedAt: new Date(), expiresAt: new Date(Date.now() + 3_600_000), status: 'pending',
    });
    await em.flush();
    return { id: approval.id, expiresAt: approval.expiresAt };
  }

  /** A webhook of an automation of the caller's. */
  async automationWebhook(options: { fresh?: boolean } = {}): Promise<{ automationId: string; webhookId: string }> {
    const automation = await this.automation();
    return this.reuse('automation-webhook', options.fresh, async () => {
      const webhook = await this.post(`/automations/${automation.id}/webhooks`);
      return { automationId: automation.id, webhookId: webhook.id };
    });
  }

  /** A skill with version 1. */
  skill(options: { visibility?: 'private' | 'team' | 'public'; fresh?: boolean } = {}): Promise<Json> {
    const visibility = options.visibility ?? 'team';
    return this.reuse(`skill-${visibility}`, options.fresh, () =>
      this.post('/skills', { name: uniqueName('matrix skill'), description: 'For the matrix', category: 'testing', systemPrompt: 'Be brief.', visibility }),
    );
  }

  connection(options: { fresh?: boolean } = {}): Promise<Json> {
    return this.reuse('connection', options.fresh, () => this.post('/tools/connections', { toolId: INERT_TOOL, name: uniqueName('matrix connection') }));
  }

  /**
   * An assistant with a webhook trigger; `webhookId` is the id of its URL. `ingress` is another
   * one, whose URL no request regenerates, for the requests that post to it.
   */
  assistant(options: { fresh?: boolean; ingress?: boolean } = {}): Promise<Json & { webhookId: string }> {
    return this.reuse(options.ingress ? 'ingress-assistant' : 'assistant', options.fresh, async () => {
      const assistant = await this.post('/assistants', { name: uniqueName('matrix assistant'), systemPrompt: 'Echo.', model: 'standard', trigger: { type: 'webhook' } });
      return { ...assistant, webhookId: String(assistant.webhookUrl).split('/').pop()! };
    });
  }

  /** A webhook execution of an assistant of the organization. */
  execution(options: { fresh?: boolean } = {}): Promise<string> {
    return this.reuse('execution', options.fresh, async () => {
      const { webhookId } = await this.assistant({ ingress: true });
      const res = await call<Json>(this.baseUrl, 'POST', `/webhooks/${webhookId}`, { body: { event: 'matrix' } });
      expect(res.status, res.text).toBe(202);
      return String(res.body.executionId);
    });
  }

  /** A new API key of the caller (raw key included). */
  apiKey(): Promise<Json> {
    return this.post('/api-keys', { name: uniqueName('matrix key') });
  }

  /** A new active member of the organization. */
  member(): Promise<TestUser> {
    return createTestUser(this.matrix.stack.runtime.orm, this.org.id, 'member');
  }

  /** A local account with a password, in the organization (argon2 is slow: made once per caller). */
  passwordUser(): Promise<{ id: string; email: string; password: string }> {
    return this.reuse('password-user', false, () => createPasswordUser(this.matrix.stack.runtime.orm, this.org.id));
  }

  /** A new signed-in session of a password user (the raw session token). */
  async session(): Promise<string> {
    const user = await this.passwordUser();
    const res = await call(this.baseUrl, 'POST', '/auth/login', { body: { email: user.email, password: user.password } });
    expect(res.status, res.text).toBe(200);
    return cookieValue(res.headers, 'svc_session')!;
  }

  /** A fresh invitation into the organization, sent by its owner: the token of the emailed link. */
  async invitationToken(): Promise<string> {
    const email = `${uniqueName('invitee')}@example.test`;
    await this.post('/users/invite', { email }, this.org.owner.key);
    const mail = await waitFor(async () => this.matrix.smtp.messages.find((m) => m.to.includes(email)), { what: 'invitation email' });
    return invitationTokenOf(mail.raw)!;
  }

  /**
   * An OpenID Connect sign-in of the organization's member, up to the provider's redirect back:
   * the callback's query and the flow cookie the API set at the start.
   */
  async oidcCallback(): Promise<{ query: string; cookie: string }> {
    const browser = new OidcBrowser(PUBLIC_BASE, this.baseUrl);
    this.matrix.oidc.signInAs({ email: this.org.member.email, name: 'Matrix Member' });
    const start = await browser.get(`${PUBLIC_BASE}/auth/oidc/login`);
    expect(start.status).toBe(302);
    const toCallback = await browser.follow(start.headers.get('location')!, REDIRECT_URI);
    return { query: new URL(toCallback.url).search, cookie: browser.apiCookies() };
  }
}
