// npm run docs:screenshots: a screenshot of each web console view into docs/images/, for the README
// and docs/console.md. Starts the service the way `npm run dev` does (scripts/dev.sh, embedded
// defaults, the built-in dev provider) in a scratch DATA_DIR on free ports, seeds it through the
// public API with what a workspace has after a few days (gateway calls under several keys so the
// spend chart is drawn, automations with runs, a decided and a pending approval, limited keys, a
// budget), signs into the console with the printed owner key in Debian's Chromium
// (playwright-core, scripts/ensure-chromium.sh installs it) and saves one PNG per view. The views
// are read from the console's own sources (each `{ route: '/…', label: '…' }` entry), so a new
// view gets its screenshot without a change here. Not a test: it writes into the work tree.
//
//   npm run docs:screenshots                  # every view, 1280x800
//   VIEWS=overview,approvals npm run docs:screenshots
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { freePort } from '../src/dev/temporal-server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(root, 'docs', 'images');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const VIEWPORT = { width: 1280, height: 800 };
const only = process.env.VIEWS?.split(',').map((name) => name.trim()).filter(Boolean);

interface View {
  route: string;
  label: string;
  file: string;
}

/** The console's views as its sources list them: every `{ route: '/…', label: '…' }` entry. */
function consoleViews(): View[] {
  const dir = path.join(root, 'console', 'src');
  const sources = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => /\.tsx?$/.test(file));
  const views = new Map<string, View>();
  for (const file of sources) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const match of text.matchAll(/\{\s*route:\s*'(\/[^']*)',\s*label:\s*'([^']+)'/g)) {
      const [, route, label] = match as unknown as [string, string, string];
      const slug = route === '/' ? 'overview' : route.slice(1).replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      views.set(route, { route, label, file: `console-${slug}.png` });
    }
  }
  if (views.size === 0) throw new Error(`no views found in ${dir} (entries like { route: '/approvals', label: 'Approvals' })`);
  return [...views.values()];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | false | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(500);
  }
}

interface Service {
  child: ChildProcessWithoutNullStreams;
  origin: string;
  ownerKey: string;
}

/** scripts/dev.sh in a scratch DATA_DIR on free ports, without the console's rebuild watcher. */
async function startService(dataDir: string): Promise<Service> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_BASE_URL: `${origin}/v1`,
    TEMPORAL_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    CONSOLE_WATCH: '0',
    LOG_LEVEL: 'warn',
  };
  const child = spawn('bash', ['scripts/dev.sh'], { cwd: root, env, detached: true });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ownerKey = await until(
    'the service started by scripts/dev.sh',
    async () => {
      if (child.exitCode !== null) throw new Error(`scripts/dev.sh exited early:\n${output}`);
      return output.includes('AI workspace is running') && /Owner API key\s+(\S+)/.exec(output)?.[1];
    },
    300_000,
  ).catch((error: Error) => {
    if (child.exitCode !== null) throw new Error(`scripts/dev.sh exited early:\n${output}`);
    throw error;
  });
  return { child, origin, ownerKey };
}

async function stopService(service: Service | undefined): Promise<void> {
  if (!service || service.child.exitCode !== null) return;
  const exited = new Promise((resolve) => service.child.once('exit', resolve));
  try {
    process.kill(-service.child.pid!, 'SIGTERM');
  } catch {
    return;
  }
  await Promise.race([exited, sleep(30_000)]);
  if (service.child.exitCode === null) process.kill(-service.child.pid!, 'SIGKILL');
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function client(base: string, key: string) {
  return async (method: string, p: string, body?: unknown, expected?: number): Promise<Json> => {
    const res = await fetch(`${base}/v1${p}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (expected !== undefined ? res.status !== expected : res.status >= 400) {
      throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 500)}`);
    }
    return text ? (JSON.parse(text) as Json) : {};
  };
}

const PROMPTS = [
  'Summarise this support ticket in two sentences and suggest a priority: the export button on the billing page returns a blank CSV for accounts created before March.',
  'Draft a friendly reply to a customer asking whether the Pro plan includes single sign-on and how many seats it covers.',
  'Classify this incoming email as sales, support, billing or spam, and explain why in one line.',
  'Rewrite this release note for a non-technical audience: webhook deliveries now retry with exponential backoff for up to 24 hours.',
  'List three risks of migrating our reporting jobs from a nightly cron to an event-driven pipeline.',
];

/** What a workspace holds after some days of use, through the public API only. */
async function seed(origin: string, ownerKey: string): Promise<void> {
  const owner = client(origin, ownerKey);
  await owner('POST', '/users/invite', { email: 'ana@example.com', role: 'admin' }, 201);
  await owner('POST', '/users/invite', { email: 'ben@example.com', role: 'member' }, 201);
  await owner('PUT', '/billing/budget', { monthlyCap: 250 }, 200);

  // Skills: one team skill in its second version, one public and published.
  const triage = await owner('POST', '/skills', { name: 'Support triage', description: 'Classify a ticket and draft a first answer', category: 'support', systemPrompt: 'Classify the ticket as bug, question or request.', visibility: 'team' }, 201);
  await owner('POST', `/skills/${triage.id}/versions`, { systemPrompt: 'Classify the ticket as bug, question or request, then draft a two-line answer.', notes: 'Drafts an answer too' }, 201);
  const digestSkill = await owner('POST', '/skills', { name: 'Daily digest', description: 'Summarise a day of activity in three bullets', category: 'productivity', systemPrompt: 'Summarise in three bullets.', visibility: 'public' }, 201);
  await owner('POST', `/skills/${digestSkill.id}/publish`, undefined, 200);

  // A tool connection, tested; an automation whose file writes wait for a person: the first
  // request approved, the second denied with a reason (the inbox's history), a third left waiting.
  const connection = await owner('POST', '/tools/connections', { toolId: 'filesystem', name: 'Team notes' }, 201);
  await owner('POST', `/tools/connections/${connection.id}/test`, undefined, 200).catch(() => undefined);
  const notes = await owner('POST', '/automations', {
    name: 'Save meeting notes',
    systemPrompt: 'Save the note: filesystem__write_file {"path":"standup.md","content":"Standup: release on Thursday, Ana owns the changelog."}',
    schedule: '0 17 * * 1-5',
    timezone: 'Europe/Lisbon',
    status: 'paused',
    tools: ['filesystem'],
    toolApprovals: { filesystem__write_file: 'always' },
  }, 201);
  const pending = async () =>
    (await owner('GET', `/approvals?status=pending&automationId=${notes.id}`)).approvals as Json[];
  const runToEnd = (automationId: string, runId: string) =>
    until(`run ${runId} to end`, async () => {
      const runs = await owner('GET', `/automations/${automationId}/runs?limit=10`);
      return runs.runs.find((r: Json) => r.id === runId && r.status !== 'running');
    });
  for (const decide of ['approve', 'deny'] as const) {
    const { runId } = await owner('POST', `/automations/${notes.id}/run`, undefined, 202);
    const approval = await until('a pending approval', async () => (await pending()).find((a) => a.runId === runId));
    await owner('POST', `/approvals/${approval.id}/${decide}`, decide === 'deny' ? { reason: 'Notes go to the shared drive, not here.' } : {}, 200);
    await runToEnd(notes.id, runId);
  }

  // Automations with finished runs: one paused, one active on a skill.
  const weekly = await owner('POST', '/automations', { name: 'Weekly spend report', systemPrompt: 'Report this week\'s model spend by team.', schedule: '0 8 * * 1', timezone: 'Europe/Lisbon' }, 201);
  await runToEnd(weekly.id, (await owner('POST', `/automations/${weekly.id}/run`, undefined, 202)).runId);
  await owner('POST', `/automations/${weekly.id}/pause`, undefined, 200);
  const digest = await owner('POST', '/automations', { name: 'Morning digest', systemPrompt: 'Summarise yesterday\'s support tickets.', schedule: '0 9 * * 1-5', timezone: 'Europe/Lisbon', skillId: digestSkill.id }, 201);
  for (let i = 0; i < 3; i++) await runToEnd(digest.id, (await owner('POST', `/automations/${digest.id}/run`, undefined, 202)).runId);

  // Keys with and without limits; each one makes gateway calls, so spend by key has rows.
  const keys: Array<{ name: string; body: Json; calls: number; repeat: number }> = [
    { name: 'support-bot', body: { name: 'support-bot', models: ['standard'], monthlyBudget: 40, rateLimitPerMinute: 120 }, calls: 40, repeat: 60 },
    { name: 'analytics-notebook', body: { name: 'analytics-notebook', monthlyBudget: 15 }, calls: 18, repeat: 90 },
    { name: 'ci', body: { name: 'ci', rateLimitPerMinute: 30 }, calls: 10, repeat: 20 },
  ];
  const revoked = await owner('POST', '/api-keys', { name: 'old-laptop' }, 201);
  await owner('DELETE', `/api-keys/${revoked.id}`);
  for (const spec of keys) {
    const created = await owner('POST', '/api-keys', spec.body, 201);
    const as = client(origin, created.key);
    for (let i = 0; i < spec.calls; i++) {
      const prompt = PROMPTS[i % PROMPTS.length]!;
      await as('POST', '/chat/completions', {
        model: spec.name === 'support-bot' || i % 3 !== 0 ? 'standard' : 'premium',
        messages: [
          { role: 'system', content: `You are a careful assistant for the ${spec.name} team. `.repeat(spec.repeat) },
          { role: 'user', content: prompt },
        ],
      }, 200);
    }
    await as('POST', '/embeddings', { model: 'dev-embedding', input: PROMPTS }, 200).catch(() => undefined);
  }
  for (let i = 0; i < 6; i++) {
    await owner('POST', '/chat/completions', { model: 'standard', messages: [{ role: 'user', content: PROMPTS[i % PROMPTS.length]! }] }, 200);
  }

  // And one tool call left waiting for a person.
  const { runId } = await owner('POST', `/automations/${notes.id}/run`, undefined, 202);
  await until('the pending approval', async () => (await pending()).find((a) => a.runId === runId));
  await until('usage to be recorded', async () => {
    const usage = await owner('GET', '/billing/usage');
    return usage.totals.requests >= 85 && usage;
  });
}

/** Waits until the view has its heading and no request in flight for a moment. */
async function settle(page: Page, label: string): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 20_000 }).catch(() => {
    console.warn(`[docs:screenshots] ${label}: no level-1 heading after 20 s, taking the screenshot anyway`);
  });
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await page.locator('[aria-busy=true]').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await sleep(800);
}

async function main(): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is not installed: run scripts/ensure-chromium.sh as root, or set CHROMIUM_PATH`);
  }
  const views = consoleViews().filter((view) => !only || only.some((name) => view.file.includes(name) || view.label.toLowerCase() === name.toLowerCase()));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-screenshots-'));
  let service: Service | undefined;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    console.log(`[docs:screenshots] starting the service (scripts/dev.sh) in ${dataDir}`);
    service = await startService(dataDir);
    console.log('[docs:screenshots] seeding through the API');
    await seed(service.origin, service.ownerKey);

    fs.mkdirSync(OUT, { recursive: true });
    const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, colorScheme: 'light' });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.warn(`[docs:screenshots] page error: ${error.message}`));

    await page.goto(`${service.origin}/console/`);
    await page.locator('input[name=apiKey]').waitFor();
    if (!only || only.includes('sign-in')) {
      await sleep(300);
      await page.screenshot({ path: path.join(OUT, 'console-sign-in.png') });
      console.log('[docs:screenshots] docs/images/console-sign-in.png');
    }
    await page.locator('input[name=apiKey]').fill(service.ownerKey);
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await page.getByRole('navigation', { name: 'Console' }).waitFor();

    for (const view of views) {
      await page.goto(`${service.origin}/console${view.route === '/' ? '/' : view.route}`);
      await settle(page, view.label);
      await page.screenshot({ path: path.join(OUT, view.file) });
      console.log(`[docs:screenshots] docs/images/${view.file} (${view.label})`);
    }
    await context.close();
  } finally {
    await browser.close();
    await stopService(service);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
