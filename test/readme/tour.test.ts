// The README, executed: the service started the way `npm run dev` starts it (scripts/dev.sh, a
// fresh DATA_DIR, free ports), then the quick start's commands and the tour, taken from the
// README's own text and run with bash and curl as a new user would. Every curl step must answer
// with the status its `→` comment names (an `until curl …` wait, that status once or more); then
// the manual run ends `success`, the run whose tool call was approved ends `success` with its
// file written, the automation due every minute produces a scheduled run, and the webhook
// execution ends `success`. The tour's leading `sleep`s are dropped: the test waits for those
// outcomes itself, with deadlines. On the suite's engine: PGlite and in-process limits, or a
// scratch PostgreSQL database and Redis.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../src/dev/temporal-server.js';
import { call, waitFor } from '../helpers/http.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';

const root = path.resolve(import.meta.dirname, '../..');
const README = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

/** The ```sh blocks of the README section under `heading`. */
function shellBlocks(heading: string): string[] {
  const start = README.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`README has no section "${heading}"`);
  const end = README.indexOf('\n## ', start + heading.length + 2);
  const section = README.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

interface Step {
  command: string;
  /** The status the README's `→ NNN` comment promises; undefined when the step calls no curl. */
  expected: number | undefined;
  /** An `until curl …; do sleep 1; done` wait: its curl answers that status once or more. */
  repeats: boolean;
}

/** A block's commands, continuation lines joined; each curl step must name its status. */
function stepsOf(block: string): Step[] {
  const commands = block.replace(/\\\n\s*/g, ' ').split('\n').filter((line) => line.trim() !== '');
  return commands.map((command) => {
    const expected = /→\s*(\d{3})/.exec(command)?.[1];
    if (/\bcurl\b/.test(command) && !expected) throw new Error(`README step without "→ <status>": ${command}`);
    return { command, expected: expected ? Number(expected) : undefined, repeats: /^until\b/.test(command.trim()) };
  });
}

/** Every file called `name` below `dir`. */
function filesNamed(dir: string, name: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesNamed(full, name);
    return entry.name === name ? [full] : [];
  });
}

/** Whether the recorded statuses are the steps' in order (a wait's status once or more; any split that fits). */
function matchesSteps(statuses: number[], steps: Step[]): boolean {
  const expected = steps.filter((step) => step.expected !== undefined);
  const fits = (at: number, index: number): boolean => {
    if (index === expected.length) return at === statuses.length;
    const step = expected[index]!;
    if (statuses[at] !== step.expected) return false;
    if (!step.repeats) return fits(at + 1, index + 1);
    for (let end = at + 1; end <= statuses.length && statuses[end - 1] === step.expected; end++) if (fits(end, index + 1)) return true;
    return false;
  };
  return fits(0, 0);
}

/** Sourced first: `curl` records each answer's status (one line per call) and the body goes on. */
const RECORDER = path.join(import.meta.dirname, 'curl-recorder.sh');

interface Service {
  child: ChildProcessWithoutNullStreams;
  port: number;
  output: () => string;
}

let service: Service;
let database: ScratchDatabase | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-tour-'));

async function startLikeNpmRunDev(): Promise<Service> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    TEMPORAL_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
  };
  if (inject('databaseUrl')) {
    database = await createScratchDatabase(inject('databaseUrl')!, 'tour');
    env.DATABASE_URL = database.url;
  }
  const redisUrl = inject('redisUrl');
  if (redisUrl) {
    env.REDIS_URL = redisUrl;
    env.REDIS_KEY_PREFIX = `tour-${process.pid}-${Date.now()}:`;
  }
  const child = spawn('bash', ['scripts/dev.sh'], { cwd: root, env, detached: true });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(async () => output.includes('AI workspace is running') || child.exitCode !== null, {
    timeoutMs: 240_000,
    intervalMs: 250,
    what: 'the service started by scripts/dev.sh',
  });
  if (child.exitCode !== null) throw new Error(`scripts/dev.sh exited early:\n${output}`);
  return { child, port, output: () => output };
}

/** Runs the steps in one bash, with the README's localhost:8080 pointed at this service (without blocking the test runner). */
async function runSteps(steps: Step[], key: string): Promise<{ statuses: number[]; bodies: string; vars: Record<string, string>; stderr: string; status: number | null }> {
  const scratch = fs.mkdtempSync(path.join(dataDir, 'steps-'));
  const files = { TOUR_STATUSES: path.join(scratch, 'statuses'), TOUR_BODIES: path.join(scratch, 'bodies'), TOUR_VARS: path.join(scratch, 'vars') };
  for (const file of Object.values(files)) fs.writeFileSync(file, '');
  const script = [
    `source '${RECORDER}'`,
    // A step's leading `sleep N;` is dropped (the test waits for outcomes itself); a wait's loop keeps its own.
    ...steps.map((step) => step.command.replace(/^export KEY=.*$/, '').replace(/^sleep \d+;\s*/, '').replaceAll('localhost:8080', `localhost:${service.port}`)),
    // What later checks need: the ids the tour kept in variables.
    'for name in AUTO EVERY EXEC SKILL FILES APPROVAL; do printf "%s=%s\\n" "$name" "${!name:-}" >> "$TOUR_VARS"; done',
  ].join('\n');
  const result = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
    execFile('bash', ['-c', script], { env: { ...process.env, ...files, KEY: key }, timeout: 120_000 }, (error, _stdout, stderr) => {
      resolve({ status: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr });
    });
  });
  const vars = Object.fromEntries(fs.readFileSync(files.TOUR_VARS, 'utf8').split('\n').filter(Boolean).map((line) => line.split('=', 2) as [string, string]));
  return {
    statuses: fs.readFileSync(files.TOUR_STATUSES, 'utf8').split('\n').filter(Boolean).map(Number),
    bodies: fs.readFileSync(files.TOUR_BODIES, 'utf8'),
    vars,
    stderr: result.stderr,
    status: result.status,
  };
}

beforeAll(async () => {
  service = await startLikeNpmRunDev();
}, 300_000);

afterAll(async () => {
  if (service && service.child.exitCode === null) {
    const exited = new Promise((resolve) => service.child.once('exit', resolve));
    process.kill(-service.child.pid!, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    if (service.child.exitCode === null) process.kill(-service.child.pid!, 'SIGKILL');
  }
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the README, executed', () => {
  it('runs the quick start and the tour as written: every step answers as the README says, and runs, fires and webhooks end in success', { timeout: 300_000 }, async () => {
    const key = /Owner API key\s+(svc_live_[A-Za-z0-9]{32,})/.exec(service.output())?.[1];
    expect(key, service.output()).toBeDefined();

    const quickStart = shellBlocks('## Quick start').filter((block) => !block.includes('npm run dev'));
    const tour = shellBlocks('## A tour with curl');
    expect(tour).toHaveLength(1);
    const steps = [...quickStart, ...tour].flatMap(stepsOf);
    const expected = steps.flatMap((step) => (step.expected === undefined ? [] : [step.expected]));
    expect(expected.length).toBeGreaterThanOrEqual(20);

    const result = await runSteps(steps, key!);
    expect(result.status, `${result.stderr}\n${result.bodies}`).toBe(0);
    expect(matchesSteps(result.statuses, steps), `statuses ${JSON.stringify(result.statuses)} against ${JSON.stringify(expected)} (waits repeat)\n${result.bodies}`).toBe(true);

    const { AUTO, EVERY, EXEC, FILES, APPROVAL } = result.vars;
    for (const id of [AUTO, EVERY, EXEC, FILES, APPROVAL]) expect(id, JSON.stringify(result.vars)).toMatch(/^[\w-]{8,}$/);
    const base = `http://localhost:${service.port}/v1`;

    // The manual run: success within seconds.
    const manual = await waitFor(async () => {
      const runs = await call(base, 'GET', `/automations/${AUTO}/runs`, { key });
      return runs.body.runs?.find((run: { status: string }) => run.status !== 'running');
    }, { timeoutMs: 60_000, intervalMs: 500, what: 'the manual run to end' });
    expect(manual).toMatchObject({ status: 'success', trigger: 'manual', output: expect.any(String) });
    expect(manual.tokensOutput).toBeGreaterThan(0);

    // The webhook execution: success, with the assistant's answer.
    const execution = await waitFor(async () => {
      const res = await call(base, 'GET', `/webhooks/executions/${EXEC}`, { key });
      return ['success', 'failure'].includes(res.body.status) ? res.body : undefined;
    }, { timeoutMs: 60_000, intervalMs: 500, what: 'the webhook execution to end' });
    expect(execution).toMatchObject({ status: 'success', target: { type: 'assistant' }, output: expect.any(String) });

    // The approved tool call: the run ends in success, the approval is recorded as approved, and
    // the file is in the organization's own folder.
    const approved = await waitFor(async () => {
      const runs = await call(base, 'GET', `/automations/${FILES}/runs`, { key });
      return runs.body.runs?.find((run: { status: string }) => run.status !== 'running');
    }, { timeoutMs: 60_000, intervalMs: 500, what: 'the run whose tool call was approved to end' });
    expect(approved).toMatchObject({ status: 'success', trigger: 'manual' });
    expect((await call(base, 'GET', `/approvals/${APPROVAL}`, { key })).body).toMatchObject({ status: 'approved', tool: 'filesystem__write_file' });
    const notes = filesNamed(dataDir, 'note.txt');
    expect(notes.map((file) => fs.readFileSync(file, 'utf8')), `note.txt under ${dataDir}`).toEqual(['hello']);

    // The automation due every minute: a scheduled fire produces a run that ends in success.
    const fired = await waitFor(async () => {
      const runs = await call(base, 'GET', `/automations/${EVERY}/runs`, { key });
      return runs.body.runs?.find((run: { trigger: string; status: string }) => run.trigger === 'schedule' && run.status !== 'running');
    }, { timeoutMs: 150_000, intervalMs: 1000, what: 'a scheduled run of the automation due every minute' });
    expect(fired.status).toBe('success');
  });
});
