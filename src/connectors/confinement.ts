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
import { ownEndpointAt, ownEndpoints, type OwnEndpoint, type OwnEndpointsConfig } from './own-endpoints.js';
import { parseNetworkTarget, TargetRefused, type NetworkTarget } from './target-parsers.js';
import type { Logger } from '../logger.js';
import { placeholdersIn, type CatalogEntry } from './catalog.js';
import type { ConnectorLaunch } from './mcp-client.js';

export type ConfinementConfig = Pick<
  Config,
  'toolsDataDir' | 'TOOLS_ALLOWED_HOSTS' | 'TOOLS_ENABLE_UNPINNED_EGRESS'
> &
  OwnEndpointsConfig;

type ValueType = 'url' | 'host' | 'path' | 'text';

export interface ConfinedValues {
  /** The values to launch with: pinned where the protocol allows, paths absolute. */
  env: Record<string, string>;
  /** Checked addresses of every host named, for transports that resolve in this process. */
  pins: Map<string, string[]>;
  /** The organization's connector directory (created). */
  orgDir: string;
  /** Every network location checked: the host as written, the port the consumer will use, its addresses. */
  checked: CheckedTarget[];
}

export interface CheckedTarget {
  param: string;
  host: string;
  port: number | undefined;
  addresses: string[];
}

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
  const checked: CheckedTarget[] = [];
  for (const [name, value] of Object.entries(env)) {
    const param = `env.${name}`;
    const type = valueType(entry, name, value);
    // A remote connector's URL keeps its name (Host header, TLS): the HTTP agent pins it instead.
    const inProcess = entry.transport === 'streamable-http' && placeholdersIn(entry.url).includes(name);
    if (type === 'path') out[name] = confinePath(orgDir, value, param);
    else if (type === 'url') out[name] = await checker.url(value, param, pins, checked, !inProcess);
    else if (type === 'host') out[name] = await checker.hostValue(value, param, pins, checked);
    else out[name] = value;
  }
  return { env: out, pins, orgDir, checked };
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

/** A relative path inside `orgDir`: no absolute path, no `..`, no symlink that leads out or to nothing. */
export function confinePath(orgDir: string, value: string, param: string): string {
  const refuse = (why: string): AppError => badRequest(`${param} ${why}; paths are relative to the organization's directory`, param);
  if (value.trim() === '') throw refuse('is empty');
  if (path.isAbsolute(value) || /^[a-z]:[\\/]/i.test(value) || value.startsWith('\\')) throw refuse('is an absolute path');
  if (value.split(/[\\/]+/).includes('..')) throw refuse('contains ..');
  const target = path.resolve(orgDir, value);
  const root = fs.realpathSync(orgDir);
  if (!isInside(path.resolve(orgDir), target)) throw refuse('leaves the directory');
  // The deepest part that exists (a link counts as existing, even when what it names does not),
  // with symlinks followed, must still be inside; a dangling link cannot be resolved and is refused.
  let existing = target;
  while (!linkOrFileExists(existing) && existing !== path.dirname(existing)) existing = path.dirname(existing);
  let real: string;
  try {
    real = fs.realpathSync(existing);
  } catch {
    throw refuse('cannot be resolved (a symbolic link to nothing?)');
  }
  if (!isInside(root, real)) throw refuse('leads out of the directory through a symbolic link');
  return path.join(root, path.relative(path.resolve(orgDir), target));
}

/** Whether a path names anything, a symbolic link included (existsSync follows links). */
function linkOrFileExists(candidate: string): boolean {
  try {
    fs.lstatSync(candidate);
    return true;
  } catch {
    return false;
  }
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Checks hosts against the address classes, the allow list and the service's own stores. */
class TargetChecker {
  private readonly allow: AllowEntry[];
  private readonly resolve;
  private ownStores: Promise<OwnEndpoint[]> | undefined;

  constructor(private readonly config: ConfinementConfig) {
    this.allow = parseAllowList(config.TOOLS_ALLOWED_HOSTS);
    this.resolve = resolverFor(config);
  }

  async url(value: string, param: string, pins: Map<string, string[]>, checked: CheckedTarget[], rewrite: boolean): Promise<string> {
    let target: NetworkTarget;
    try {
      target = parseNetworkTarget(value);
    } catch (error) {
      if (error instanceof TargetRefused) throw badRequest(`${param} ${error.message}`, param);
      throw error;
    }
    const addresses = await this.check(target.host, target.port, param);
    pins.set(canonicalKey(target.host), addresses);
    checked.push({ param, host: target.host, port: target.port, addresses });
    return rewrite && canRewriteHost(target.scheme, target.query) ? target.withHost(literal(addresses[0]!)) : value.trim();
  }

  async hostValue(value: string, param: string, pins: Map<string, string[]>, checked: CheckedTarget[]): Promise<string> {
    const split = /^[\u0021-\u007e]+$/.test(value.trim()) && !value.includes('@') ? splitHostPort(value.trim()) : null;
    if (!split || split.host === '' || Number.isNaN(split.port)) throw badRequest(`${param} is not a valid host`, param);
    const addresses = await this.check(split.host, split.port, param);
    pins.set(canonicalKey(split.host), addresses);
    checked.push({ param, host: split.host, port: split.port, addresses });
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
      const own = ownEndpointAt(await this.ownEndpoints(), addresses, port);
      if (own) throw refuse(`host ${host} is the service's own ${own.label}, which connections may never reach`);
    }
    return addresses;
  }

  private ownEndpoints(): Promise<OwnEndpoint[]> {
    this.ownStores ??= ownEndpoints(this.config, this.resolve);
    return this.ownStores;
  }
}

function notPublic(host: string, kind: string): string {
  return `${host} is a ${kind} address; connections may reach public hosts only (an operator may allow a host with TOOLS_ALLOWED_HOSTS)`;
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
