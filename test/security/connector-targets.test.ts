// Attacker's tests for connector confinement: a member of one organization
// tries to point a connection at the service's own stores, at private networks and at cloud
// metadata in every spelling, and at files outside the organization's directory. DNS answers
// come from an injected resolver (no DNS in CI): names map to the addresses each test needs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHostResolver } from '../../src/net/resolve.js';
import { startMcpHttpFixture, type HttpFixture } from '../fixtures/mcp-server.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-data-'));
const dns: Record<string, string[]> = {
  'public.example.test': ['93.184.216.34'],
  'inside.example.test': ['10.1.2.3'],
  'mixed.example.test': ['93.184.216.34', '127.0.0.1'],
  'rebind.example.test': ['93.184.216.34'],
};
const resolver = async (host: string) => {
  const found = dns[host.replace(/\.$/, '').toLowerCase()];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
};

let stack: Stack;
let allowing: Stack;
let org: TestOrganization;
let other: TestOrganization;
/** The organization on `allowing`'s database (the same database on PostgreSQL; its own in-memory PGlite otherwise). */
let allowingOrg: TestOrganization;
let remote: HttpFixture;

beforeAll(async () => {
  remote = await startMcpHttpFixture();
  stack = await startStack({ worker: false, env: { TOOLS_DATA_DIR: dataDir } });
  // A second instance whose operator allowed the loopback range on purpose.
  allowing = await startStack({ worker: false, env: { TOOLS_DATA_DIR: dataDir, TOOLS_ALLOWED_HOSTS: '127.0.0.0/8,::1' } });
  useHostResolver(stack.config, resolver);
  useHostResolver(allowing.config, async (host) => (host === 'mcp.example.test' ? ['127.0.0.1'] : resolver(host)));
  org = await createTestOrganization(stack.runtime.orm);
  other = await createTestOrganization(stack.runtime.orm);
  // Each stack has its own database when tests run on embedded PGlite.
  allowingOrg = await createTestOrganization(allowing.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await allowing?.stop();
  await remote?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const connect = (target: Stack, key: string, toolId: string, env: Record<string, string>) =>
  call(target.baseUrl, 'POST', '/tools/connections', { key, body: { toolId, name: `${toolId} connection`, env } });

const NON_PUBLIC_HOSTS = [
  // loopback in every spelling
  '127.0.0.1', '127.1', '127.0.1', '2130706433', '0177.0.0.1', '0x7f.0.0.1', '0x7f000001', '017700000001', '127.0.0.1.',
  'localhost', 'localhost.', 'LOCALHOST', 'db.localhost', '[::1]', '[0:0:0:0:0:0:0:1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]',
  '[64:ff9b::7f00:1]', '[::127.0.0.1]',
  // private, link-local, CGNAT, multicast, unspecified, reserved
  '10.0.0.5', '172.16.3.4', '192.168.1.1', '[::ffff:192.168.1.1]', '[fd00::1]', '[fe80::1]', '169.254.10.10', '100.64.0.1',
  '224.0.0.1', '[ff02::1]', '0.0.0.0', '0', '[::]', '240.0.0.1', '255.255.255.255',
  // cloud metadata
  '169.254.169.254', '0xa9fea9fe', '2852039166', '[::ffff:169.254.169.254]', '[fd00:ec2::254]', 'metadata.google.internal',
  'metadata.google.internal.', '168.63.129.16',
  // names that resolve inside, or partly inside
  'inside.example.test', 'mixed.example.test',
];

describe('network locations in connection values', () => {
  it.each(NON_PUBLIC_HOSTS)('refuses %s for postgres, redis and a remote MCP URL', async (host) => {
    const cases = [
      { toolId: 'postgres', name: 'POSTGRES_URL', value: `postgresql://reader:pw@${host}:5432/app` },
      { toolId: 'redis', name: 'REDIS_URL', value: `redis://${host}:6379/0` },
      { toolId: 'remote-mcp', name: 'MCP_SERVER_URL', value: `http://${host}:8080/mcp` },
    ];
    for (const { toolId, name, value } of cases) {
      const res = await connect(stack, org.member.key, toolId, { [name]: value });
      expect(res.status, `${toolId} ${value}: ${res.text}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', param: `env.${name}` });
      expect(res.body.error.message).not.toContain('pw');
    }
  });

  it('refuses DSN tricks: several hosts, a host in the query, a Unix socket, no host, a non-URL', async () => {
    for (const value of [
      'postgresql://u@93.184.216.34,127.0.0.1/db',
      'postgresql://u@93.184.216.34/db?host=127.0.0.1',
      'postgresql://u@93.184.216.34/db?hostaddr=10.0.0.1',
      'postgresql:///db?host=/var/run/postgresql',
      'postgresql://u@/db',
      'unix:///var/run/postgresql/.s.PGSQL.5432',
      'not a url',
    ]) {
      const res = await connect(stack, org.admin.key, 'postgres', { POSTGRES_URL: value });
      expect(res.status, `${value}: ${res.text}`).toBe(400);
      expect(res.body.error.param).toBe('env.POSTGRES_URL');
    }
  });

  it('accepts public hosts: literal IPv4 and IPv6, and a name that resolves publicly', async () => {
    for (const [toolId, name, value] of [
      ['postgres', 'POSTGRES_URL', 'postgresql://reader:pw@93.184.216.34:5432/app'],
      ['postgres', 'POSTGRES_URL', 'postgresql://reader@public.example.test/app?sslmode=require'],
      ['redis', 'REDIS_URL', 'redis://public.example.test:6379/0'],
      ['remote-mcp', 'MCP_SERVER_URL', 'https://[2606:4700:4700::1111]/mcp'],
      ['remote-mcp', 'MCP_SERVER_URL', 'https://public.example.test/mcp'],
    ] as const) {
      const res = await connect(stack, org.owner.key, toolId, { [name]: value });
      expect(res.status, `${value}: ${res.text}`).toBe(201);
    }
  });

  it('checks again at test time: a name that now resolves to loopback is refused (DNS rebinding)', async () => {
    const created = await connect(stack, org.member.key, 'redis', { REDIS_URL: 'redis://rebind.example.test:6379' });
    expect(created.status, created.text).toBe(201);
    dns['rebind.example.test'] = ['127.0.0.1'];
    try {
      const tested = await call(stack.baseUrl, 'POST', `/tools/connections/${created.body.id}/test`, { key: org.member.key });
      expect(tested.status, tested.text).toBe(400);
      expect(tested.body.error).toMatchObject({ code: 'bad_request', param: 'env.REDIS_URL' });
    } finally {
      dns['rebind.example.test'] = ['93.184.216.34'];
    }
  });

  it('an allowed private range still never opens the service\'s own database, Redis or Temporal', async () => {
    const own = allowing.config;
    const temporalPort = own.TEMPORAL_ADDRESS!.split(':').pop();
    // Embedded runs have no database or Redis server to point at: Temporal is checked either way.
    const redisPort = own.REDIS_URL ? new URL(own.REDIS_URL).port || '6379' : undefined;
    const dbPort = own.DATABASE_URL ? new URL(own.DATABASE_URL).port || '5432' : undefined;
    const cases: (readonly [string, string, string])[] = [['remote-mcp', 'MCP_SERVER_URL', `http://127.0.0.1:${temporalPort}/`]];
    if (redisPort) cases.push(['redis', 'REDIS_URL', `redis://127.0.0.1:${redisPort}/0`], ['redis', 'REDIS_URL', `redis://localhost:${redisPort}`]);
    if (dbPort) cases.push(['postgres', 'POSTGRES_URL', `postgresql://postgres@127.0.0.1:${dbPort}/postgres`]);
    for (const [toolId, name, value] of cases) {
      const res = await connect(allowing, allowingOrg.member.key, toolId, { [name]: value });
      expect(res.status, `${value}: ${res.text}`).toBe(400);
      expect(res.body.error.param).toBe(`env.${name}`);
    }
    const elsewhere = await connect(allowing, allowingOrg.member.key, 'postgres', { POSTGRES_URL: 'postgresql://u@127.0.0.1:15432/tools' });
    expect(elsewhere.status, elsewhere.text).toBe(201);
  });

  it('a remote connector talks to the address that was checked, not to a second DNS answer', async () => {
    const port = new URL(remote.url).port;
    const created = await connect(allowing, allowingOrg.member.key, 'remote-mcp', { MCP_SERVER_URL: `http://mcp.example.test:${port}/mcp` });
    expect(created.status, created.text).toBe(201);
    // mcp.example.test exists only in the injected resolver: a client that resolved it again
    // through the system would fail; the pinned one reaches the fixture.
    const tested = await call(allowing.baseUrl, 'POST', `/tools/connections/${created.body.id}/test`, { key: allowingOrg.member.key });
    expect(tested.status, tested.text).toBe(200);
    expect(tested.body.testResult).toBe('ok');
  });

  it('keeps unpinned egress connectors (fetch, puppeteer) off unless the operator enables them', async () => {
    for (const toolId of ['fetch', 'puppeteer']) {
      const res = await connect(stack, org.owner.key, toolId, {});
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.param).toBe('toolId');
    }
  });
});

describe('file paths in connection values', () => {
  it('refuses absolute paths, .. and symlinks out of the organization directory', async () => {
    const orgDir = path.join(dataDir, org.id);
    fs.mkdirSync(orgDir, { recursive: true });
    fs.symlinkSync('/etc', path.join(orgDir, 'etc-link'));
    fs.mkdirSync(path.join(dataDir, other.id), { recursive: true });
    for (const value of ['/etc/passwd', '../x.db', 'a/../../x.db', `../${other.id}/data.db`, 'etc-link/passwd', './etc-link/../../x.db', '~/../../etc/passwd/..']) {
      const res = await connect(stack, org.member.key, 'sqlite', { SQLITE_DB_PATH: value });
      expect(res.status, `${value}: ${res.text}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', param: 'env.SQLITE_DB_PATH' });
    }
  });

  it('refuses a dangling symlink that leads out, as the file or as a directory on the way', async () => {
    const orgDir = path.join(dataDir, org.id);
    fs.mkdirSync(orgDir, { recursive: true });
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'outside-'));
    // Neither target exists yet: existsSync() follows the link and says "no such file".
    fs.symlinkSync(path.join(outside, 'planted.db'), path.join(orgDir, 'dangling.db'));
    fs.symlinkSync(path.join(outside, 'not-yet'), path.join(orgDir, 'dangling-dir'));
    try {
      for (const value of ['dangling.db', 'dangling-dir/x.db', './dangling-dir/deeper/x.db']) {
        const res = await connect(stack, org.member.key, 'sqlite', { SQLITE_DB_PATH: value });
        expect(res.status, `${value}: ${res.text}`).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'bad_request', param: 'env.SQLITE_DB_PATH' });
      }
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('accepts paths inside the organization directory', async () => {
    for (const value of ['data.db', 'reports/q3.db', './x.db']) {
      const res = await connect(stack, org.member.key, 'sqlite', { SQLITE_DB_PATH: value });
      expect(res.status, `${value}: ${res.text}`).toBe(201);
    }
  });
});
