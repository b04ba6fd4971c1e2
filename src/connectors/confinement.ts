// What a connection's values may point at (SECURITY.md, "Connectors"). Every value that names a
// network location (a URL, a DSN, a host) is resolved and must land on public addresses only,
// never on the service's own database, Redis or Temporal, unless TOOLS_ALLOWED_HOSTS allows it;
// every file path lives in the organization's directory TOOLS_DATA_DIR/<organizationId>/.
// The same check runs at create, at test and right before every spawn; at spawn it also hands
// back the values to launch with: plain-text URLs rewritten to the checked address (pinned),
// paths made absolute inside the organization's directory.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { badRequest, type AppError } from '../errors.js';
import { canonicalHost, classifyAddress, classifyHost, matchesAllowList, parseAllowList, splitHostPort, type AllowEntry } from '../net/addresses.js';
import { resolverFor } from '../net/resolve.js';
import type { Logger } from '../logger.js';
import { placeholdersIn, type CatalogEntry } from './catalog.js';
import type { ConnectorLaunch } from './mcp-client.js';

export type ConfinementConfig = Pick<
  Config,
  'toolsDataDir' | 'TOOLS_ALLOWED_HOSTS' | 'TOOLS_ENABLE_UNPINNED_EGRESS' | 'DATABASE_URL' | 'REDIS_URL' | 'TEMPORAL_ADDRESS' | 'TEMPORAL_PORT' | 'TEMPORAL_UI_PORT' | 'PORT'
>;

type ValueType = 'url' | 'host' | 'path' | 'text';

export interface ConfinedValues {
  /** The values to launch with: pinned where the protocol allows, paths absolute. */
  env: Record<string, string>;
  /** Checked addresses of every host named, for transports that resolve in this process. */
  pins: Map<string, string[]>;
  /** The organization's connector directory (created). */
  orgDir: string;
}

const DEFAULT_PORTS: Record<string, number> = {
  http: 80, https: 443, ws: 80, wss: 443, postgres: 5432, postgresql: 5432, redis: 6379, rediss: 6379,
  mysql: 3306, mariadb: 3306, mongodb: 27017, amqp: 5672, amqps: 5671,
};

/** Query parameters that move a DSN to another host, a socket or a file: refused outright. */
const LOCATION_PARAMS = new Set(['host', 'hostaddr', 'socket', 'unix_socket', 'socketpath', 'service', 'servicefile', 'passfile', 'sslcert', 'sslkey', 'sslrootcert', 'sslcrl', 'sslcrldir']);

/** Refuses a connector the operator has not enabled (unpinned egress). Throws 400 on `toolId`. */
export function assertConnectorEnabled(config: Pick<Config, 'TOOLS_ENABLE_UNPINNED_EGRESS'>, entry: CatalogEntry): void {
  if (entry.transport === 'stdio' && entry.unpinnedEgress && !config.TOOLS_ENABLE_UNPINNED_EGRESS) {
    throw badRequest(
      `Connector ${entry.id} reaches any address it is asked for, internal ones included, so it is off on this server (an operator enables it with TOOLS_ENABLE_UNPINNED_EGRESS)`,
      'toolId',
    );
  }
}

/**
 * Checks every value of a connection; throws 400 bad_request with `param` = `env.<NAME>` on the
 * first refused one. Returns the values to launch with.
 */
export async function confineValues(config: ConfinementConfig, organizationId: string, entry: CatalogEntry, env: Record<string, string>): Promise<ConfinedValues> {
  assertConnectorEnabled(config, entry);
  const orgDir = organizationDirectory(config, organizationId);
  const checker = new TargetChecker(config);
  const out: Record<string, string> = {};
  const pins = new Map<string, string[]>();
  for (const [name, value] of Object.entries(env)) {
    const param = `env.${name}`;
    const type = valueType(entry, name, value);
    // A remote connector's URL keeps its name (Host header, TLS): the HTTP agent pins it instead.
    const inProcess = entry.transport === 'streamable-http' && placeholdersIn(entry.url).includes(name);
    if (type === 'path') out[name] = confinePath(orgDir, value, param);
    else if (type === 'url') out[name] = await checker.url(value, param, pins, !inProcess);
    else if (type === 'host') out[name] = await checker.hostValue(value, param, pins);
    else out[name] = value;
  }
  return { env: out, pins, orgDir };
}

/**
 * The launch of a connector for an organization, checked right before it starts (DNS may have
 * changed since the connection was created). Throws 400 like `confineValues`.
 */
export async function confinedLaunch(
  deps: { config: ConfinementConfig & Pick<Config, 'TOOLS_MAX_PROCESSES' | 'TOOLS_PROCESS_MEMORY_MB'>; logger?: Pick<Logger, 'warn'> },
  organizationId: string,
  entry: CatalogEntry,
  env: Record<string, string>,
): Promise<ConnectorLaunch> {
  const confined = await confineValues(deps.config, organizationId, entry, env);
  return {
    entry,
    env: confined.env,
    confinement: {
      orgDir: confined.orgDir,
      pins: confined.pins,
      memoryMb: deps.config.TOOLS_PROCESS_MEMORY_MB,
      maxProcesses: deps.config.TOOLS_MAX_PROCESSES,
      ...(deps.logger ? { logger: deps.logger } : {}),
    },
  };
}

/** The organization's connector directory, created (0700) on first use. */
export function organizationDirectory(config: Pick<Config, 'toolsDataDir'>, organizationId: string): string {
  if (!/^[0-9a-f-]{36}$/i.test(organizationId)) throw new Error('organization id expected');
  const dir = path.join(config.toolsDataDir, organizationId);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

function valueType(entry: CatalogEntry, name: string, value: string): ValueType {
  if (entry.transport === 'streamable-http' && placeholdersIn(entry.url).includes(name)) return 'url';
  const declared = entry.envTypes[name];
  if (declared && declared !== 'text') return declared;
  if (!declared) {
    if (/(_URL|_URI|_DSN|_ENDPOINT)$/.test(name)) return 'url';
    if (/(_HOST|_HOSTNAME|_ADDR|_ADDRESS)$/.test(name)) return 'host';
    if (/(_PATH|_FILE|_DIR|_DIRECTORY)$/.test(name)) return 'path';
  }
  // Whatever the name, a value that is a URL is checked as one.
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim()) ? 'url' : 'text';
}

/** A relative path inside `orgDir`: no absolute path, no `..`, no symlink that leads out. */
export function confinePath(orgDir: string, value: string, param: string): string {
  const refuse = (why: string): AppError => badRequest(`${param} ${why}; paths are relative to the organization's directory`, param);
  if (value.trim() === '') throw refuse('is empty');
  if (path.isAbsolute(value) || /^[a-z]:[\\/]/i.test(value) || value.startsWith('\\')) throw refuse('is an absolute path');
  if (value.split(/[\\/]+/).includes('..')) throw refuse('contains ..');
  const target = path.resolve(orgDir, value);
  const root = fs.realpathSync(orgDir);
  if (!isInside(path.resolve(orgDir), target)) throw refuse('leaves the directory');
  // The deepest part that exists, with symlinks followed, must still be inside.
  let existing = target;
  while (!fs.existsSync(existing) && existing !== path.dirname(existing)) existing = path.dirname(existing);
  let real: string;
  try {
    real = fs.realpathSync(existing);
  } catch {
    throw refuse('cannot be resolved');
  }
  if (!isInside(root, real)) throw refuse('leads out of the directory through a symbolic link');
  if (fs.existsSync(target) && fs.lstatSync(target).isSymbolicLink() && !isInside(root, fs.realpathSync(target))) {
    throw refuse('leads out of the directory through a symbolic link');
  }
  return path.join(root, path.relative(path.resolve(orgDir), target));
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

interface Endpoint {
  label: string;
  addresses: string[];
  port: number;
}

/** Checks hosts against the address classes, the allow list and the service's own stores. */
class TargetChecker {
  private readonly allow: AllowEntry[];
  private readonly resolve;
  private ownStores: Promise<Endpoint[]> | undefined;

  constructor(private readonly config: ConfinementConfig) {
    this.allow = parseAllowList(config.TOOLS_ALLOWED_HOSTS);
    this.resolve = resolverFor(config);
  }

  async url(value: string, param: string, pins: Map<string, string[]>, rewrite: boolean): Promise<string> {
    const refuse = (why: string): AppError => badRequest(`${param} ${why}`, param);
    const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/is.exec(value.trim());
    if (!match) throw refuse('is not a URL with a host (scheme://host)');
    const scheme = match[1]!.toLowerCase();
    const authority = match[2]!;
    const rest = match[3]!;
    const defaultPort = DEFAULT_PORTS[scheme];
    if (defaultPort === undefined) throw refuse(`uses the scheme ${scheme}:, which connections may not use (${Object.keys(DEFAULT_PORTS).join(', ')})`);
    const query = rest.includes('?') ? new URLSearchParams(rest.slice(rest.indexOf('?') + 1).replace(/#.*$/, '')) : new URLSearchParams();
    for (const key of query.keys()) {
      if (LOCATION_PARAMS.has(key.toLowerCase())) throw refuse(`sets ${key}, which connections may not set (it names another host, a socket or a file)`);
    }
    const at = authority.lastIndexOf('@');
    const userinfo = at >= 0 ? authority.slice(0, at + 1) : '';
    const hostList = authority.slice(at + 1);
    if (hostList === '') throw refuse('names no host');
    const pinnable = rewrite && canRewriteHost(scheme, query);
    const hosts: string[] = [];
    for (const item of hostList.split(',')) {
      const split = splitHostPort(item);
      if (!split || split.host === '' || Number.isNaN(split.port)) throw refuse('names no valid host');
      const port = split.port ?? defaultPort;
      const addresses = await this.check(split.host, port, param);
      pins.set(canonicalKey(split.host), addresses);
      const shown = pinnable ? literal(addresses[0]!) : split.host;
      hosts.push(split.port === undefined ? shown : `${shown}:${split.port}`);
    }
    return `${scheme}://${userinfo}${hosts.join(',')}${rest}`;
  }

  async hostValue(value: string, param: string, pins: Map<string, string[]>): Promise<string> {
    const split = splitHostPort(value.trim());
    if (!split || split.host === '' || Number.isNaN(split.port)) throw badRequest(`${param} is not a valid host`, param);
    const addresses = await this.check(split.host, split.port, param);
    pins.set(canonicalKey(split.host), addresses);
    return split.port === undefined ? literal(addresses[0]!) : `${literal(addresses[0]!)}:${split.port}`;
  }

  /** Resolves `host` and returns its addresses when every one may be reached on `port`. */
  private async check(host: string, port: number | undefined, param: string): Promise<string[]> {
    const refuse = (why: string): AppError => badRequest(`${param}: ${why}`, param);
    const kind = classifyHost(host);
    if (kind === 'invalid') throw refuse(`${JSON.stringify(host)} is not a valid host`);
    const canonical = canonicalHost(host)!;
    const name = canonical.kind === 'name' ? canonical.name : undefined;
    let addresses: string[];
    if (canonical.kind !== 'name') addresses = [canonical.address];
    else if (kind === 'loopback') addresses = ['127.0.0.1', '::1'];
    else {
      try {
        addresses = await this.resolve(canonical.name);
      } catch {
        throw refuse(`host ${canonical.name} does not resolve`);
      }
      if (addresses.length === 0) throw refuse(`host ${canonical.name} does not resolve`);
    }
    const allowed = matchesAllowList(this.allow, { ...(name ? { name } : {}), ...(port ? { port } : {}), addresses });
    if (!allowed.allowed) {
      if (kind !== 'name' && kind !== 'public') throw refuse(notPublic(host, kind));
      for (const address of addresses) {
        const found = classifyAddress(address);
        if (found !== 'public') throw refuse(`host ${host} resolves to ${address}, ${notPublic(address, found)}`);
      }
    }
    // Only an allow-list entry that names the exact port opens the service's own stores.
    if (!allowed.exactPort) {
      const own = (await this.ownEndpoints()).find(
        (store) => (port === undefined || store.port === port) && store.addresses.some((address) => addresses.includes(address)),
      );
      if (own) throw refuse(`host ${host} is the service's own ${own.label}, which connections may never reach`);
    }
    return addresses;
  }

  private ownEndpoints(): Promise<Endpoint[]> {
    this.ownStores ??= ownStoreEndpoints(this.config, this.resolve);
    return this.ownStores;
  }
}

function notPublic(host: string, kind: string): string {
  return `${host} is a ${kind} address; connections may reach public hosts only (an operator may allow a host with TOOLS_ALLOWED_HOSTS)`;
}

/** Where the service's own database, Redis and Temporal listen (resolved). */
async function ownStoreEndpoints(config: ConfinementConfig, resolve: (host: string) => Promise<string[]>): Promise<Endpoint[]> {
  const targets: { label: string; host: string; port: number }[] = [];
  const fromUrl = (label: string, url: string | undefined, port: number) => {
    if (!url) return;
    const parsed = new URL(url);
    targets.push({ label, host: parsed.hostname, port: parsed.port ? Number(parsed.port) : port });
  };
  fromUrl('database', config.DATABASE_URL, 5432);
  fromUrl('Redis', config.REDIS_URL, 6379);
  if (config.TEMPORAL_ADDRESS) {
    const split = splitHostPort(config.TEMPORAL_ADDRESS);
    if (split) targets.push({ label: 'Temporal', host: split.host, port: split.port ?? 7233 });
  } else {
    targets.push({ label: 'Temporal', host: '127.0.0.1', port: config.TEMPORAL_PORT }, { label: 'Temporal UI', host: '127.0.0.1', port: config.TEMPORAL_UI_PORT });
  }
  targets.push({ label: 'API', host: '127.0.0.1', port: config.PORT });
  const endpoints = await Promise.all(
    targets.map(async ({ label, host, port }) => {
      const canonical = canonicalHost(host);
      if (!canonical) return { label, addresses: [], port };
      if (canonical.kind !== 'name') return { label, addresses: [canonical.address], port };
      if (classifyHost(host) === 'loopback') return { label, addresses: ['127.0.0.1', '::1'], port };
      const addresses = await resolve(canonical.name).catch(() => [] as string[]);
      return { label, addresses, port };
    }),
  );
  // A store on a wildcard or loopback address is reachable on every loopback spelling.
  return endpoints.map((endpoint) => ({
    ...endpoint,
    addresses: endpoint.addresses.flatMap((address) => (classifyAddress(address) === 'loopback' ? [address, '127.0.0.1', '::1'] : [address])),
  }));
}

/** Plain-text protocols do not check the host name, so the checked address can replace it. */
function canRewriteHost(scheme: string, query: URLSearchParams): boolean {
  if (scheme === 'http' || scheme === 'ws' || scheme === 'redis' || scheme === 'amqp') return true;
  if (scheme === 'postgres' || scheme === 'postgresql') return !/^verify-/.test(query.get('sslmode') ?? '');
  if (scheme === 'mysql' || scheme === 'mariadb') return ![...query.keys()].some((key) => /ssl|tls/i.test(key));
  return false;
}

function literal(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

function canonicalKey(host: string): string {
  const canonical = canonicalHost(host);
  if (!canonical) return host;
  return canonical.kind === 'name' ? canonical.name : canonical.address;
}
