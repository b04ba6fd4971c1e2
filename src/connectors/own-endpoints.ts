// Where the service itself listens: its database, Redis, Temporal frontend and Web UI, and its
// own API. Connections never reach them, even inside a range TOOLS_ALLOWED_HOSTS opens (only an
// allow-list entry naming the exact host:port does). An endpoint is recognised by address and by
// the port its consumer will use; an endpoint on this machine (a loopback, wildcard or interface
// address) answers on every local address, so every loopback alias (127.0.0.2, ::ffff:7f00:1)
// and every interface address of the host counts as it.
import os from 'node:os';
import type { Config } from '../config.js';
import { canonicalHost, classifyAddress, classifyHost, normaliseAddress, splitHostPort } from '../net/addresses.js';
import { consumerReading } from './target-parsers.js';

export type OwnEndpointsConfig = Pick<
  Config,
  'DATABASE_URL' | 'REDIS_URL' | 'TEMPORAL_ADDRESS' | 'TEMPORAL_PORT' | 'TEMPORAL_UI_PORT' | 'PORT' | 'temporalUiOrigin' | 'publicBaseUrl'
>;

export interface OwnEndpoint {
  label: string;
  /** Resolved addresses, normalised (IPv4-mapped IPv6 as IPv4). */
  addresses: string[];
  port: number;
  /** Listens on this machine: every local address reaches it. */
  local: boolean;
}

/** The service's own endpoints, resolved. A value that cannot be read or resolved is skipped. */
export async function ownEndpoints(config: OwnEndpointsConfig, resolve: (host: string) => Promise<string[]>): Promise<OwnEndpoint[]> {
  const targets: { label: string; host: string; port: number }[] = [];
  const fromUrl = (label: string, url: string | undefined, defaultPort: number) => {
    if (!url) return;
    try {
      const { host, port } = consumerReading(url);
      targets.push({ label, host, port: port ?? defaultPort });
    } catch {
      // An unreadable store URL fails at start-up elsewhere; nothing to compare with here.
    }
  };
  fromUrl('database', config.DATABASE_URL, 5432);
  fromUrl('Redis', config.REDIS_URL, 6379);
  const temporal = config.TEMPORAL_ADDRESS ? splitHostPort(config.TEMPORAL_ADDRESS) : null;
  targets.push(temporal ? { label: 'Temporal', host: temporal.host, port: temporal.port ?? 7233 } : { label: 'Temporal', host: '127.0.0.1', port: config.TEMPORAL_PORT });
  targets.push({ label: 'Temporal UI', host: '127.0.0.1', port: config.TEMPORAL_UI_PORT });
  fromUrl('Temporal UI', config.temporalUiOrigin, 80);
  targets.push({ label: 'API', host: '127.0.0.1', port: config.PORT });
  fromUrl('API', config.publicBaseUrl, 80);
  return Promise.all(
    targets.map(async ({ label, host, port }) => {
      const addresses = (await addressesOf(host, resolve)).map(normaliseAddress);
      return { label, addresses, port, local: addresses.some(isLocalAddress) };
    }),
  );
}

/** The own endpoint a target at `addresses` on `port` (undefined: any port) would reach, if any. */
export function ownEndpointAt(endpoints: OwnEndpoint[], addresses: string[], port: number | undefined): OwnEndpoint | undefined {
  const targets = addresses.map(normaliseAddress);
  return endpoints.find(
    (endpoint) =>
      (port === undefined || endpoint.port === port) &&
      targets.some((address) => endpoint.addresses.includes(address) || (endpoint.local && isLocalAddress(address))),
  );
}

/** Loopback (any of 127/8, ::1, mapped forms), the unspecified address, or an address of a local interface. */
export function isLocalAddress(address: string): boolean {
  const kind = classifyAddress(address);
  if (kind === 'loopback' || kind === 'unspecified') return true;
  const normalised = normaliseAddress(address);
  return Object.values(os.networkInterfaces()).some((list) => list?.some((item) => normaliseAddress(item.address) === normalised));
}

async function addressesOf(host: string, resolve: (host: string) => Promise<string[]>): Promise<string[]> {
  const canonical = canonicalHost(host.startsWith('[') || !host.includes(':') ? host : `[${host}]`);
  if (!canonical) return [];
  if (canonical.kind !== 'name') return [canonical.address];
  if (classifyHost(host) === 'loopback') return ['127.0.0.1', '::1'];
  return resolve(canonical.name).catch(() => [] as string[]);
}
