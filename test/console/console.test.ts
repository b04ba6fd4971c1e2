// The web console in a real browser (Debian's Chromium through playwright-core, as the /docs test
// does), on the real stack with a worker: sign in with the owner's API key on a deep link (the key
// is kept nowhere in the browser), see a tool call waiting in the approvals inbox without a reload,
// approve it with the keyboard and watch its run end `success`, see the month's spend drawn from
// that run's real usage; create a key (shown once) and revoke it; run an automation from its page
// and pause and activate it; sign in with a password in a fresh browser, on a phone-sized screen;
// axe-core finds no serious violation, and the console log has no script error or CSP violation.
// Skipped, with the reason, where Chromium is not installed (like test/api/docs-page.test.ts).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiServer } from '../../src/api/server.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { startMcpHttpFixture, type HttpFixture } from '../fixtures/mcp-server.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { createPasswordUser } from '../identity/helpers.js';
import { writeFixtureCatalog } from '../tools/fixture-catalog.js';
import { freePort } from '../../src/dev/temporal-server.js';
import { axeViolations, CHROMIUM, chromiumMissing, root, watchProblems } from './browser-checks.js';

const TOKEN = `tok-${randomUUID()}`;

let upstream: FakeUpstream;
let mcp: HttpFixture;
let stack: Stack;
let consoleServer: ApiServer;
let origin: string;
let org: TestOrganization;
let browser: Browser;




const as = (key: string) => (method: string, p: string, body?: unknown) => call(stack.baseUrl, method, p, { key, body });

describe.skipIf(chromiumMissing('console.test'))(`the web console in headless Chromium (${CHROMIUM})`, () => {
  beforeAll(async () => {
    execFileSync('bash', [path.join(root, 'scripts', 'ensure-console.sh')], { stdio: 'inherit' });
    upstream = await startFakeUpstream();
    mcp = await startMcpHttpFixture({ token: TOKEN });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    stack = await startStack({
      env: {
        GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })),
        TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: mcp.url, hangUrl: mcp.url }),
        PUBLIC_BASE_URL: `${origin}/v1`,
        SESSION_ALLOWED_ORIGINS: origin,
      },
    });
    // The stack's own listener has a random port; the browser uses this one, at the allowed origin.
    consoleServer = await startApi(stack.runtime, { port, host: '127.0.0.1' });
    org = await createTestOrganization(stack.runtime.orm);
    const connection = await as(org.member.key)('POST', '/tools/connections', { toolId: 'fixture-http', name: 'Fixture', env: { FIXTURE_TOKEN: TOKEN } });
    expect(connection.status, connection.text).toBe(201);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await consoleServer?.stop();
    await stack?.stop();
    await upstream?.close();
    await mcp?.stop();
  });

  it('serves /console/ and its client-side routes with a CSP that allows no inline script', async () => {
    for (const route of ['/console/', '/console/approvals', '/console/no/such/view']) {
      const res = await fetch(origin + route);
      expect(res.status, route).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      const html = await res.text();
      expect(html).toMatch(/<script type="module" crossorigin src="\/console\/assets\/[\w-]+\.js"><\/script>/);
      expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    }
    // Assets are plain file names under console/dist/assets: a missing one or a way out is 404, not the page.
    expect((await fetch(`${origin}/console/assets/..%2F..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${origin}/console/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${origin}/console`, { redirect: 'manual' })).headers.get('location')).toBe('/console/');
  });

  it('signs in with an API key, approves a waiting tool call from the inbox, the run ends success, and the spend is drawn', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchProblems(page);

    // A run of the member's automation waits for a person on `add`.
    const automation = await as(org.member.key)('POST', '/automations', {
      name: 'Adder', systemPrompt: 'Add 2 and 40 with the tool.', schedule: '0 9 * * *', status: 'paused', model: 'fake-model',
      tools: ['fixture-http'], toolApprovals: { 'fixture-http__add': 'always' },
    });
    expect(automation.status, automation.text).toBe(201);

    await page.goto(`${origin}/console/approvals`);
    await page.locator('input[name=apiKey]').fill(org.owner.key);
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
    await page.getByText('Nothing is waiting.').waitFor();

    // The key is kept nowhere in the browser: not in storage, not in a readable cookie, not in the URL.
    const kept = String(await page.evaluate('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie, url: location.href })'));
    expect(kept).not.toContain(org.owner.key);
    expect((await context.cookies()).map((c) => c.value).join(' ')).not.toContain(org.owner.key);

    upstream.reset();
    upstream.enqueue(
      { toolCalls: [{ id: 'call_add', name: 'fixture-http__add', arguments: '{"a": 2, "b": 40}' }], usage: { input: 2000, output: 500 } },
      { content: 'The answer is 42.', usage: { input: 3000, output: 800 } },
    );
    const started = await as(org.member.key)('POST', `/automations/${automation.body.id}/run`);
    expect(started.status, started.text).toBe(202);

    // It appears without a reload (the inbox polls), with its tool and arguments.
    const card = page.getByRole('listitem').filter({ hasText: 'fixture-http__add' });
    await card.waitFor({ timeout: 60_000 });
    expect(await card.innerText()).toContain(`automation run ${started.body.runId}`);
    expect(await card.locator('pre').innerText()).toContain('"b": 40');
    expect(await axeViolations(page), 'axe on the inbox').toEqual([]);

    // Approved by keyboard.
    await card.getByRole('button', { name: 'Approve', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Nothing is waiting.').waitFor({ timeout: 20_000 });
    await page.getByRole('cell', { name: 'approved' }).first().waitFor();

    const run = await waitFor(async () => {
      const runs = await as(org.member.key)('GET', `/automations/${automation.body.id}/runs`);
      const found = runs.body.runs.find((r: { id: string }) => r.id === started.body.runId);
      return found?.status !== 'running' && found;
    }, { timeoutMs: 60_000, what: 'the run to end' });
    expect(run.status).toBe('success');

    // The overview draws this month's spend from that run's usage (its two model calls, once recorded).
    const usage = await waitFor(async () => {
      const res = await as(org.owner.key)('GET', '/billing/usage');
      return res.body.totals.requests >= 2 && res;
    }, { timeoutMs: 30_000, what: 'the run to be billed' });
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const chart = page.getByTestId('spend-chart');
    await chart.locator('canvas').first().waitFor();
    expect(usage.body.totals.estimatedCost).toBeGreaterThan(0);
    await expect.poll(() => chart.getAttribute('data-days')).toBe('1');
    await expect.poll(() => page.getByTestId('requests').innerText()).toBe(String(usage.body.totals.requests));
    expect(await page.getByTestId('spent').innerText()).toMatch(/^\$\d/);
    expect(await page.getByRole('cell', { name: 'fake-model' }).count()).toBeGreaterThan(0);
    // The chart's canvas is drawn: some pixels are not blank.
    const painted = Number(
      await page.evaluate(`(() => {
        const canvas = document.querySelector('[data-testid=spend-chart] canvas');
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let inked = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) inked++;
        return inked;
      })()`),
    );
    expect(painted).toBeGreaterThan(100);
    expect(await axeViolations(page), 'axe on the overview').toEqual([]);

    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it('creates a key (shown once) and revokes it, and runs an automation from its page, pausing and activating it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${origin}/console/keys`);
    await page.locator('input[name=apiKey]').fill(org.owner.key);
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();

    await page.getByRole('textbox', { name: 'Name' }).fill('Console made');
    await page.getByRole('spinbutton', { name: 'Monthly budget (USD)' }).fill('12.5');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = await page.getByTestId('created-key').inputValue();
    expect(shown).toMatch(/^svc_live_/);
    expect((await as(shown)('GET', '/users/me')).status).toBe(200);
    const row = page.getByRole('row').filter({ hasText: 'Console made' });
    expect(await row.innerText()).toContain('$12.50');
    expect(await axeViolations(page), 'axe on the keys').toEqual([]);
    await row.getByRole('button', { name: 'Revoke', exact: true }).click();
    await row.getByRole('cell', { name: 'revoked' }).waitFor();
    expect(await page.getByTestId('created-key').count()).toBe(0);
    expect((await as(shown)('GET', '/users/me')).status).toBe(401);

    const automation = await as(org.owner.key)('POST', '/automations', {
      name: 'Greeter', systemPrompt: 'Say hello.', schedule: '0 9 * * *', status: 'paused', model: 'fake-model',
    });
    expect(automation.status, automation.text).toBe(201);
    upstream.reset();
    upstream.enqueue({ content: 'Hello from the console run.', usage: { input: 10, output: 5 } });
    await page.getByRole('link', { name: 'Automations' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Greeter' }) });
    await card.getByRole('button', { name: 'Run now', exact: true }).click();
    await card.getByRole('cell', { name: 'Hello from the console run.' }).waitFor({ timeout: 60_000 });
    expect(await card.locator('td.status').first().innerText()).toBe('success');
    // The run links to its workflow in the Temporal Web UI.
    const [lastRun] = (await as(org.owner.key)('GET', `/automations/${automation.body.id}/runs`)).body.runs;
    const workflowLink = card.getByRole('link', { name: /workflow in the Temporal Web UI/ }).first();
    expect(await workflowLink.getAttribute('href')).toBe(`${stack.config.temporalUiOrigin}/namespaces/${stack.config.TEMPORAL_NAMESPACE}/workflows/run%2F${lastRun.id}`);
    await card.getByRole('button', { name: 'Activate' }).click();
    await card.getByRole('button', { name: 'Pause' }).waitFor();
    expect((await as(org.owner.key)('GET', `/automations/${automation.body.id}`)).body.status).toBe('active');
    await card.getByRole('button', { name: 'Pause' }).click();
    await card.getByRole('button', { name: 'Activate' }).waitFor();
    expect((await as(org.owner.key)('GET', `/automations/${automation.body.id}`)).body.status).toBe('paused');
    expect(await axeViolations(page), 'axe on the automations').toEqual([]);

    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it('signs in with email and password on a phone-sized screen, without horizontal scrolling', async () => {
    const admin = await createPasswordUser(stack.runtime.orm, org.id, 'admin');
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${origin}/console/`);
    await page.getByRole('textbox', { name: 'Email' }).fill(admin.email);
    await page.locator('input[name=password]').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    expect(await page.getByText(admin.email).count()).toBe(1);
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
    expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(390);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
