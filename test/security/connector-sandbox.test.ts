// Attacker's tests for what a connector process can reach: a `network: none` connector cannot
// open a socket (the fixture tries and reports), an egress one can (so the test can fail), and
// an organization's connector sees its own directory only. Connections are made through the
// API; the tool calls go through the seam automation runs use.
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callConnectionTool } from '../../src/connectors/tool-use.js';
import { stdioFixtureLaunch } from '../fixtures/mcp-server.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-data-'));
let stack: Stack;
let orgA: TestOrganization;
let orgB: TestOrganization;
let listener: net.Server;
let port: number;
const accepted: number[] = [];

function writeCatalog(): string {
  const probe = stdioFixtureLaunch('probe', ['--root', '${ORG_DATA_DIR}']);
  const common = { category: 'testing', description: 'Probe fixture', transport: 'stdio', ...probe };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tools-catalog-')), 'catalog.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      connectors: [
        { ...common, id: 'probe-none', name: 'Probe (no network)', network: 'none' },
        { ...common, id: 'probe-egress', name: 'Probe (egress)', network: 'egress' },
      ],
    }),
  );
  return file;
}

beforeAll(async () => {
  listener = net.createServer((socket) => {
    accepted.push(Date.now());
    socket.end();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
  stack = await startStack({ worker: false, env: { TOOLS_DATA_DIR: dataDir, TOOLS_CATALOG_EXTRA: writeCatalog() } });
  orgA = await createTestOrganization(stack.runtime.orm);
  orgB = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  listener?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function connection(org: TestOrganization, toolId: string): Promise<string> {
  const res = await call(stack.baseUrl, 'POST', '/tools/connections', { key: org.member.key, body: { toolId, name: toolId } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

const callTool = (org: TestOrganization, connectionId: string, toolName: string, args: Record<string, unknown>) =>
  callConnectionTool(stack.runtime, { organizationId: org.id, userId: org.member.id, connectionId, toolName, arguments: args, timeoutMs: 20_000 });

describe('network: none', () => {
  it('a none connector cannot open a socket, even to loopback; an egress one can', async () => {
    const none = await callTool(orgA, await connection(orgA, 'probe-none'), 'connect', { host: '127.0.0.1', port });
    expect(none.isError, none.text).toBe(false);
    expect(none.text).toMatch(/^failed: (ENETUNREACH|ECONNREFUSED|EACCES|EPERM)/);
    expect(accepted).toHaveLength(0);

    const egress = await callTool(orgA, await connection(orgA, 'probe-egress'), 'connect', { host: '127.0.0.1', port });
    expect(egress.text).toBe('connected');
    expect(accepted).toHaveLength(1);
  });
});

describe('organization directories', () => {
  it("organization A's connector lists A's directory and never B's files", async () => {
    fs.mkdirSync(path.join(dataDir, orgB.id), { recursive: true });
    fs.writeFileSync(path.join(dataDir, orgB.id, 'b-secret.txt'), 'B only');
    const a = await callTool(orgA, await connection(orgA, 'probe-none'), 'list_dir', {});
    const listing = JSON.parse(a.text) as { root: string; entries: string[] };
    expect(fs.realpathSync(listing.root)).toBe(fs.realpathSync(path.join(dataDir, orgA.id)));
    expect(listing.entries).not.toContain('b-secret.txt');

    const b = await callTool(orgB, await connection(orgB, 'probe-none'), 'list_dir', {});
    expect(JSON.parse(b.text).entries).toContain('b-secret.txt');
  });

  it("organization B cannot call a tool through organization A's connection", async () => {
    const idOfA = await connection(orgA, 'probe-none');
    const result = await callTool(orgB, idOfA, 'list_dir', {});
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/no longer exists/);
  });
});
