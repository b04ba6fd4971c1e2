// Attacker's tests for SECURITY.md's second round (trust), findings 1 and 2: a value that names a network location is
// checked as the connector will parse it. A backslash, a second @, a query parameter that moves
// the port: each spelling that made the checker and the connector read two different hosts or
// ports. Every "public" host here is a loopback address listed in TOOLS_ALLOWED_HOSTS, so that a
// regression connects to this machine and nowhere else.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFor, type CatalogEntry } from '../../src/connectors/catalog.js';
import { confineValues, type ConfinementConfig } from '../../src/connectors/confinement.js';
import { consumerReading } from '../../src/connectors/target-parsers.js';
import { AppError } from '../../src/errors.js';
import { canonicalHost, classifyAddress, normaliseAddress } from '../../src/net/addresses.js';
import { useHostResolver } from '../../src/net/resolve.js';
import { startMcpHttpFixture, type HttpFixture } from '../fixtures/mcp-server.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-parsers-'));

let stack: Stack;
let allowing: Stack;
let org: TestOrganization;
let allowingOrg: TestOrganization;
let remote: HttpFixture;

beforeAll(async () => {
  remote = await startMcpHttpFixture();
  // 127.0.0.2 plays a public host: the only address this operator allows.
  stack = await startStack({ worker: false, env: { TOOLS_DATA_DIR: dataDir, TOOLS_ALLOWED_HOSTS: '127.0.0.2' } });
  // An operator who allowed the whole loopback range: the service's own endpoints stay closed.
  allowing = await startStack({ worker: false, env: { TOOLS_DATA_DIR: dataDir, TOOLS_ALLOWED_HOSTS: '127.0.0.0/8,::1' } });
  org = await createTestOrganization(stack.runtime.orm);
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

describe('values the checker and the connector would read differently', () => {
  it('refuses a remote MCP URL with a backslash before an @ (checked as the allowed host, connected to loopback)', async () => {
    const port = new URL(remote.url).port;
    const value = `http://127.0.0.1:${port}\\@127.0.0.2/mcp`;
    expect(new URL(value).host).toBe(`127.0.0.1:${port}`); // what fetch and undici would connect to
    const res = await connect(stack, org.member.key, 'remote-mcp', { MCP_SERVER_URL: value });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', param: 'env.MCP_SERVER_URL' });
  });

  it('refuses a GitLab API URL that smuggles a host in its user info', async () => {
    for (const value of ['http://169.254.169.254\\@127.0.0.2/api/v4', 'http://127.0.0.1:9\\@127.0.0.2/api/v4', 'http://x@127.0.0.1@127.0.0.2/api/v4', 'http://127.0.0.2\t.evil/api/v4']) {
      const res = await connect(stack, org.member.key, 'gitlab', { GITLAB_PERSONAL_ACCESS_TOKEN: 'glpat-test', GITLAB_API_URL: value });
      expect(res.status, `${JSON.stringify(value)}: ${res.text}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', param: 'env.GITLAB_API_URL' });
    }
  });

  it('still accepts the allowed host spelled plainly', async () => {
    const res = await connect(stack, org.member.key, 'gitlab', { GITLAB_PERSONAL_ACCESS_TOKEN: 'glpat-test', GITLAB_API_URL: 'http://127.0.0.2:8929/api/v4' });
    expect(res.status, res.text).toBe(201);
  });
});

describe("the service's own endpoints, by address and by the port the consumer uses", () => {
  it('refuses the database through a query port, Redis through loopback aliases, the API and the Temporal UI on any loopback address', async () => {
    const own = allowing.config;
    const cases: [string, string, string][] = [
      ['remote-mcp', 'MCP_SERVER_URL', `http://127.0.0.3:${own.PORT}/v1/models`],
      ['remote-mcp', 'MCP_SERVER_URL', `http://[::ffff:7f00:1]:${own.PORT}/v1/models`],
      ['remote-mcp', 'MCP_SERVER_URL', `http://127.0.0.1:${own.TEMPORAL_UI_PORT}/`],
      ['remote-mcp', 'MCP_SERVER_URL', `http://127.0.0.2:${own.TEMPORAL_ADDRESS!.split(':').pop()}/`],
    ];
    if (own.DATABASE_URL) {
      const dbPort = new URL(own.DATABASE_URL).port || '5432';
      cases.push(
        ['postgres', 'POSTGRES_URL', `postgresql://postgres@127.0.0.1:1/postgres?port=${dbPort}`],
        ['postgres', 'POSTGRES_URL', `postgresql://postgres@127.0.0.1/postgres?port=${dbPort}`],
        ['postgres', 'POSTGRES_URL', `postgresql://postgres@127.0.0.2:${dbPort}/postgres`],
      );
    }
    if (own.REDIS_URL) {
      const redisPort = new URL(own.REDIS_URL).port || '6379';
      cases.push(['redis', 'REDIS_URL', `redis://127.0.0.2:${redisPort}/0`], ['redis', 'REDIS_URL', `redis://[::ffff:7f00:1]:${redisPort}`]);
    }
    for (const [toolId, name, value] of cases) {
      const res = await connect(allowing, allowingOrg.member.key, toolId, { [name]: value });
      expect(res.status, `${value}: ${res.text}`).toBe(400);
      expect(res.body.error.param).toBe(`env.${name}`);
    }
    const elsewhere = await connect(allowing, allowingOrg.member.key, 'postgres', { POSTGRES_URL: 'postgresql://u@127.0.0.2:15432/tools?port=15432' });
    expect(elsewhere.status, elsewhere.text).toBe(201);
  });
});

// ---- property: what is checked is what the consumer parses ----

const NAMES: Record<string, string[]> = { 'public.example.test': ['127.0.0.2'], 'inside.example.test': ['10.1.2.3'] };
const HOSTS = ['127.0.0.2', '127.0.0.1', '127.1', '0x7f.0.0.2', '[::1]', '[::ffff:7f00:2]', 'public.example.test', 'inside.example.test', 'localhost', '169.254.169.254', '10.0.0.1', '2130706434'];
const NOISE = ['\\', '@', ':', '/', '?', '#', ',', '[', ']', '%40', '%5C', '%2e', '%2f', '\t', '\n', ' ', '\u0000', '\u3002', '１', '.', 'user', 'pw', '80', '5432', '6379', '55432', '56379', '58080', '58233', '?port=5432', '?port=1', '&port=6379', '?port=55432', '?host=127.0.0.1', '?sslmode=verify-full', '?hostaddr=10.0.0.1'];
const SCHEMES = ['http', 'https', 'ws', 'wss', 'HTTP', 'postgres', 'postgresql', 'redis', 'rediss', 'mysql'];

const token = fc.oneof(fc.constantFrom(...HOSTS), fc.constantFrom(...NOISE), fc.integer({ min: 0, max: 70000 }).map(String));
// Mostly well-formed values with hostile pieces spliced in anywhere, and some token soup.
const structured = fc
  .record({
    scheme: fc.constantFrom(...SCHEMES),
    userinfo: fc.constantFrom('', 'user@', 'user:pw@', 'u%40x@'),
    host: fc.constantFrom(...HOSTS),
    port: fc.constantFrom('', ':80', ':5432', ':55432', ':56379', ':58080', ':58233', ':8443', ':0', ':65536'),
    path: fc.constantFrom('', '/', '/mcp', '/db', '/api/v4'),
    query: fc.constantFrom('', '?port=5432', '?port=55432', '?sslmode=require', '?sslmode=verify-full&port=1', '#frag'),
    splices: fc.array(fc.tuple(fc.nat(), token), { maxLength: 2 }),
  })
  .map(({ scheme, userinfo, host, port, path: tail, query, splices }) => {
    let value = `${scheme}://${userinfo}${host}${port}${tail}${query}`;
    for (const [at, piece] of splices) {
      const i = at % (value.length + 1);
      value = value.slice(0, i) + piece + value.slice(i);
    }
    return value;
  });
const soup = fc
  .tuple(fc.constantFrom(...SCHEMES), fc.constantFrom('://', ':/', ':\\\\', '://\\'), fc.array(token, { minLength: 1, maxLength: 8 }), fc.constantFrom('', '/', '/mcp', '/db', '/0'))
  .map(([scheme, separator, parts, tail]) => `${scheme}${separator}${parts.join('')}${tail}`);
const hostile = fc.oneof({ arbitrary: structured, weight: 3 }, { arbitrary: soup, weight: 1 });

describe('property: the checked host and port are what the consumer parses, or the value is refused', () => {
  const toolsDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-property-'));
  const config: ConfinementConfig = {
    toolsDataDir,
    TOOLS_ALLOWED_HOSTS: '127.0.0.0/8,::1',
    TOOLS_ENABLE_UNPINNED_EGRESS: false,
    DATABASE_URL: 'postgresql://postgres@127.0.0.1:55432/postgres',
    REDIS_URL: 'redis://127.0.0.1:56379',
    TEMPORAL_ADDRESS: '127.0.0.1:57233',
    TEMPORAL_PORT: 7233,
    TEMPORAL_UI_PORT: 58233,
    PORT: 58080,
    temporalUiOrigin: 'http://localhost:58233',
    publicBaseUrl: 'http://localhost:58080/v1',
  };
  useHostResolver(config, async (host) => {
    const found = NAMES[host.toLowerCase()];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  });
  const catalog = catalogFor({ TOOLS_CATALOG_EXTRA: undefined });
  const organizationId = '00000000-0000-4000-8000-000000000029';
  const consumers: { entry: CatalogEntry; name: string; extra: Record<string, string> }[] = [
    { entry: catalog.find('remote-mcp')!, name: 'MCP_SERVER_URL', extra: {} },
    { entry: catalog.find('gitlab')!, name: 'GITLAB_API_URL', extra: { GITLAB_PERSONAL_ACCESS_TOKEN: 'glpat-test' } },
    { entry: catalog.find('postgres')!, name: 'POSTGRES_URL', extra: {} },
    { entry: catalog.find('redis')!, name: 'REDIS_URL', extra: {} },
  ];
  const OWN_PORTS = [55432, 56379, 57233, 58233, 58080];
  afterAll(() => fs.rmSync(toolsDataDir, { recursive: true, force: true }));

  const canonicalKey = (host: string) => {
    const canonical = canonicalHost(host.startsWith('[') || !host.includes(':') ? host : `[${host}]`)!;
    return canonical.kind === 'name' ? canonical.name : canonical.address;
  };
  const key = (host: string) => {
    const canonical = canonicalHost(host.startsWith('[') || !host.includes(':') ? host : `[${host}]`);
    if (!canonical) return `invalid:${host}`;
    return canonical.kind === 'name' ? canonical.name : normaliseAddress(canonical.address);
  };

  it('holds for 10,000 hostile spellings across remote MCP, GitLab, postgres and redis values', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(hostile, fc.constantFrom(...consumers), async (value, consumer) => {
        let confined;
        try {
          confined = await confineValues(config, organizationId, consumer.entry, { ...consumer.extra, [consumer.name]: value });
        } catch (error) {
          if (error instanceof AppError && error.status === 400) return; // refused: fine
          throw error;
        }
        accepted += 1;
        const scheme = value.trim().split(':')[0]!.toLowerCase();
        const defaultPort = { http: 80, https: 443, ws: 80, wss: 443, postgres: 5432, postgresql: 5432, redis: 6379, rediss: 6379, mysql: 3306 }[scheme];
        // The value as written, read by the consumer's parser, names a host that was checked...
        const asWritten = consumerReading(value.trim());
        const pinnedKeys = [...confined.pins.keys()].map(key);
        expect(pinnedKeys, value).toContain(key(asWritten.host));
        // ... and the value launched connects to one of the addresses checked (or the checked name, pinned by the agent).
        const launched = consumerReading(confined.env[consumer.name]!);
        const checkedAddresses = confined.pins.get(canonicalKey(asWritten.host))!.map(normaliseAddress);
        expect([...checkedAddresses, key(asWritten.host)], `${value} -> ${confined.env[consumer.name]}`).toContain(key(launched.host));
        // The port checked is the port the consumer uses, before and after the rewrite.
        const [checked] = confined.checked.filter((target) => target.param === `env.${consumer.name}`);
        expect(checked?.port, value).toBe(asWritten.port ?? defaultPort);
        expect(launched.port ?? defaultPort, value).toBe(checked!.port);
        // Nothing accepted is private (only loopback is allowed here) or one of the service's own endpoints.
        for (const address of checkedAddresses) expect(['public', 'loopback'], `${value}: ${address}`).toContain(classifyAddress(address));
        if (checkedAddresses.some((address) => classifyAddress(address) === 'loopback')) expect(OWN_PORTS, value).not.toContain(checked!.port);
      }),
      { numRuns: 10_000 },
    );
    expect(accepted).toBeGreaterThan(500);
  }, 60_000);
});
