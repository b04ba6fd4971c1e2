// The console's Requests, Audit log and Skills and tools views in a real browser (Debian's
// Chromium through playwright-core, like console.test.ts), on the real stack without a worker:
// the gateway's request records paged (Next / Previous by keyboard) and filtered (status, model;
// the filters in the address), another organization's records never shown, the overview's error
// count linking to the failed requests; the audit log paged with the sign-in just made; skills with
// their versions and the caller's tool connections with their health and "Test connection"; a
// member sees their own requests only and no audit log. axe-core finds no serious violation and
// the console log has no script error. Skipped where Chromium is not installed.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiServer } from '../../src/api/server.js';
import { RequestRecorder, type GatewayRequestEntry } from '../../src/gateway/recorder.js';
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
/** Seeded records of the organization (besides one real call), so the list has two pages of 25. */
const SEEDED = 30;
const SEEDED_ERRORS = 4;

let upstream: FakeUpstream;
let mcp: HttpFixture;
let stack: Stack;
let consoleServer: ApiServer;
let origin: string;
let org: TestOrganization;
let other: TestOrganization;
let browser: Browser;
let skillId: string;




/** Every button, link, input and select on the page has an accessible name, as the browser's accessibility tree computes it. */
async function unnamedControls(page: Page): Promise<string[]> {
  const unnamed: string[] = [];
  let checked = 0;
  for (const role of ['button', 'link', 'textbox', 'combobox', 'spinbutton'] as const) {
    for (const control of await page.getByRole(role).all()) {
      // `- button "Next"` when named, `- button` when not.
      const [first = ''] = (await control.ariaSnapshot()).split('\n');
      if (!/^- \w+ ".+"/.test(first)) unnamed.push(first);
      checked++;
    }
  }
  // The navigation alone has 7 links and Sign out: a page where nothing was found proves nothing.
  expect(checked).toBeGreaterThan(8);
  return unnamed;
}

const as = (key: string) => (method: string, p: string, body?: unknown) => call(stack.baseUrl, method, p, { key, body });

function record(organizationId: string, userId: string, fields: Partial<GatewayRequestEntry>): GatewayRequestEntry {
  return {
    organizationId, userId, apiKeyId: null, source: 'gateway', runId: null, requestId: null, modelRequested: 'seed-model', model: 'seed-model', provider: 'fake',
    upstreamModel: 'seed-up', stream: false, attempts: 1, outcome: 'success', status: 200, errorCode: null, latencyMs: 80, inputTokens: 50, outputTokens: 5,
    cacheReadTokens: 20, cacheWriteTokens: 10, estimated: false, cost: 0.0004, dlpFindings: {}, promptText: null, cached: false, createdAt: new Date(), ...fields,
  };
}

async function signInWithKey(page: Page, address: string, key: string): Promise<void> {
  await page.goto(address);
  await page.locator('input[name=apiKey]').fill(key);
  await page.getByRole('button', { name: 'Sign in with key' }).click();
}

describe.skipIf(chromiumMissing('views.test'))(`the console's requests, audit and skills views in headless Chromium (${CHROMIUM})`, () => {
  beforeAll(async () => {
    execFileSync('bash', [path.join(root, 'scripts', 'ensure-console.sh')], { stdio: 'inherit' });
    upstream = await startFakeUpstream();
    mcp = await startMcpHttpFixture({ token: TOKEN });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    stack = await startStack({
      worker: false,
      env: {
        GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })),
        TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: mcp.url, hangUrl: mcp.url }),
        PUBLIC_BASE_URL: `${origin}/v1`,
        SESSION_ALLOWED_ORIGINS: origin,
      },
    });
    consoleServer = await startApi(stack.runtime, { port, host: '127.0.0.1' });
    org = await createTestOrganization(stack.runtime.orm);
    other = await createTestOrganization(stack.runtime.orm);

    // 30 records a second apart (the newest 4 failed), and one of another organization.
    const ownerKeyId = (await as(org.owner.key)('GET', '/api-keys')).body.apiKeys.find((k: { name: string }) => k.name === 'owner key').id;
    const recorder = new RequestRecorder(stack.runtime.orm, stack.runtime.logger);
    const now = Date.now();
    for (let i = 0; i < SEEDED; i++) {
      const failed = i < SEEDED_ERRORS;
      recorder.record(record(org.id, org.owner.id, {
        apiKeyId: ownerKeyId, createdAt: new Date(now - (i + 1) * 1000),
        ...(failed && { status: 502, outcome: 'failure', errorCode: 'provider_error', model: 'flaky-model', modelRequested: 'flaky-model', inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 0 }),
      }));
    }
    recorder.record(record(other.id, other.owner.id, { model: 'other-org-model', modelRequested: 'other-org-model', createdAt: new Date(now - 500) }));
    await recorder.close();
    upstream.enqueue({ content: 'ok', usage: { input: 700, output: 70 } });
    const completion = await as(org.owner.key)('POST', '/chat/completions', { model: 'fake-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.status, completion.text).toBe(200);
    await waitFor(async () => (await as(org.owner.key)('GET', '/gateway/requests?limit=1')).body.total === SEEDED + 1, { timeoutMs: 20_000, what: 'the real call recorded' });

    const skill = await as(org.owner.key)('POST', '/skills', { name: 'Release notes', description: 'Turns merged PRs into release notes', category: 'development', systemPrompt: 'You write concise release notes.', tools: [], visibility: 'team' });
    expect(skill.status, skill.text).toBe(201);
    skillId = skill.body.id;
    const version = await as(org.owner.key)('POST', `/skills/${skillId}/versions`, { systemPrompt: 'Group notes by area.', notes: 'grouping' });
    expect(version.status, version.text).toBe(201);
    const connection = await as(org.owner.key)('POST', '/tools/connections', { toolId: 'fixture-http', name: 'Fixture tools', env: { FIXTURE_TOKEN: TOKEN } });
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

  it('pages and filters the request records by keyboard, never showing another organization, and the overview links its errors there', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await signInWithKey(page, `${origin}/console/requests`, org.owner.key);
    await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor();
    const range = page.getByTestId('requests-range');
    await expect.poll(() => range.innerText()).toBe(`1–25 of ${SEEDED + 1}`);
    const rows = page.getByTestId('requests-table').locator('tbody tr');
    expect(await rows.count()).toBe(25);
    // Newest first: the real call, with its tokens and key.
    await expect.poll(() => rows.first().innerText()).toContain('owner key');
    const newest = await rows.first().innerText();
    expect(newest).toContain('fake-model');
    expect(newest).toContain('700 / 70');
    expect(await page.getByText('other-org-model').count()).toBe(0);
    expect(await axeViolations(page), 'axe on the requests').toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);

    // Next and Previous, by keyboard.
    await page.getByRole('button', { name: 'Next', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => range.innerText()).toBe(`26–${SEEDED + 1} of ${SEEDED + 1}`);
    expect(await rows.count()).toBe(SEEDED + 1 - 25);
    expect(await page.getByRole('button', { name: 'Next', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => range.innerText()).toBe(`1–25 of ${SEEDED + 1}`);

    // Filters: the status by its select, the model typed and submitted with Enter; they go into the address.
    await page.getByRole('combobox', { name: 'Status' }).selectOption('error');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => range.innerText()).toBe(`1–${SEEDED_ERRORS} of ${SEEDED_ERRORS}`);
    expect(page.url()).toContain('status=error');
    for (const row of await rows.all()) expect(await row.innerText()).toContain('502 provider_error');
    await page.getByRole('combobox', { name: 'Status' }).selectOption('');
    await page.getByRole('textbox', { name: 'Model' }).fill('other-org-model');
    await page.getByRole('textbox', { name: 'Model' }).press('Enter');
    await page.getByRole('cell', { name: 'No requests match.' }).waitFor();
    expect(await range.innerText()).toBe('None');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => range.innerText()).toBe(`1–25 of ${SEEDED + 1}`);
    expect(await page.getByRole('textbox', { name: 'Model' }).inputValue()).toBe('');

    // The overview counts this month's errors and links to them.
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    const errors = page.getByTestId('errors').getByRole('link');
    await errors.waitFor();
    expect(await errors.innerText()).toBe(String(SEEDED_ERRORS));
    await errors.click();
    await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor();
    await expect.poll(() => range.innerText()).toBe(`1–${SEEDED_ERRORS} of ${SEEDED_ERRORS}`);
    expect(await page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('error');

    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it('pages the audit log, the sign-in just made first', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await signInWithKey(page, `${origin}/console/audit`, org.owner.key);
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    const table = page.getByTestId('audit-table');
    await table.locator('tbody tr').first().waitFor();
    const api = await as(org.owner.key)('GET', '/audit-logs?limit=25');
    expect(api.body.auditLogs[0].action).toBe('user.signed_in');
    expect(await table.locator('tbody tr').first().innerText()).toContain('user.signed_in');
    expect(await table.locator('tbody tr').count()).toBe(Math.min(25, api.body.total));
    expect(await page.getByTestId('audit-events-range').innerText()).toBe(`1–${Math.min(25, api.body.total)} of ${api.body.total}`);
    expect(await axeViolations(page), 'axe on the audit log').toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('lists skills with their versions and tool connections with their health, and tests a connection', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await signInWithKey(page, `${origin}/console/skills`, org.owner.key);
    await page.getByRole('heading', { name: 'Skills and tool connections', level: 1 }).waitFor();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Release notes', exact: true }) });
    await card.waitFor();
    expect(await card.innerText()).toContain('version 2');
    // The versions open by keyboard.
    await card.getByText('Versions of Release notes').focus();
    await page.keyboard.press('Enter');
    const versions = card.getByRole('table').locator('tbody tr');
    await expect.poll(() => versions.count()).toBe(2);
    expect(await versions.first().innerText()).toContain('grouping');
    expect(await versions.first().innerText()).toContain('(current)');

    const row = page.getByTestId('connections-table').getByRole('row').filter({ hasText: 'Fixture tools' });
    await row.waitFor();
    expect(await row.innerText()).toContain('fixture-http');
    await row.getByRole('button', { name: 'Test connection' }).click();
    await row.getByText(/tools\)/).waitFor({ timeout: 30_000 });
    expect(await row.getByRole('cell', { name: 'healthy' }).count()).toBe(1);
    expect(await axeViolations(page), 'axe on skills and tools').toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('shows a member their own requests only and no audit log, on a phone without horizontal scrolling', async () => {
    const member = await createPasswordUser(stack.runtime.orm, org.id, 'member');
    const recorder = new RequestRecorder(stack.runtime.orm, stack.runtime.logger);
    recorder.record(record(org.id, member.id, { model: 'member-model', modelRequested: 'member-model' }));
    await recorder.close();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${origin}/console/requests`);
    await page.getByRole('textbox', { name: 'Email' }).fill(member.email);
    await page.locator('input[name=password]').fill(member.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor();
    await expect.poll(() => page.getByTestId('requests-range').innerText()).toBe('1–1 of 1');
    expect(await page.getByTestId('requests-table').locator('tbody tr').innerText()).toContain('member-model');
    expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(390);
    expect(await axeViolations(page), 'axe on the requests (phone)').toEqual([]);
    await page.getByRole('link', { name: 'Audit log', exact: true }).click();
    await page.getByText('The audit log is shown to admins and the owner.').waitFor();
    expect(await page.getByTestId('audit-table').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
