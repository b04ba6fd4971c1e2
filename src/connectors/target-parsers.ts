// How a connector will read a URL or DSN, so that the confinement check looks at exactly the host
// and port the connector connects to (SECURITY.md, "Connectors"). Each value is read twice: once
// by a plain split of its authority (what the rewrite edits), once by the parser of the code that
// connects (WHATWG `URL` for http(s), ws(s), redis and the others: Node's fetch, undici and
// node-redis use it; pg-connection-string for postgres, query parameters included). A value the
// two readings disagree on, or that parsers are known to read differently (a `\`, a second `@`,
// control characters, non-ASCII, several hosts), is refused rather than guessed at.
import pgConnectionString from 'pg-connection-string';
import { canonicalHost, splitHostPort } from '../net/addresses.js';

export const DEFAULT_PORTS: Record<string, number> = {
  http: 80, https: 443, ws: 80, wss: 443, postgres: 5432, postgresql: 5432, redis: 6379, rediss: 6379,
  mysql: 3306, mariadb: 3306, mongodb: 27017, amqp: 5672, amqps: 5671,
};

/** Query parameters that move a DSN to another host, a socket or a file: refused outright. */
const LOCATION_PARAMS = new Set(['host', 'hostaddr', 'socket', 'unix_socket', 'socketpath', 'service', 'servicefile', 'passfile', 'sslcert', 'sslkey', 'sslrootcert', 'sslcrl', 'sslcrldir']);

export interface NetworkTarget {
  /** Lower-case scheme. */
  scheme: string;
  /** The host as the connector's parser yields it (brackets kept for IPv6). */
  host: string;
  /** The port the connector will use (its parser's answer, default port of the scheme included). */
  port: number;
  /** Whether the value names a port (in the authority or, for postgres, in the query). */
  explicitPort: boolean;
  query: URLSearchParams;
  /** The value with its host replaced (brackets added for IPv6 addresses); everything else as written. */
  withHost(host: string): string;
}

export class TargetRefused extends Error {}

/** Parses a URL or DSN as its connector will; throws `TargetRefused` saying why when it may not be used. */
export function parseNetworkTarget(raw: string): NetworkTarget {
  const value = raw.trim();
  // Control characters and spaces are dropped or encoded differently by each parser; a backslash
  // ends the authority for WHATWG special schemes but not for a plain split.
  if ([...value].some((char) => char.charCodeAt(0) <= 0x20 || char.charCodeAt(0) === 0x7f)) throw new TargetRefused('contains spaces or control characters');
  if (value.includes('\\')) throw new TargetRefused('contains a backslash, which URL parsers read in different ways');
  if (/[^\u0021-\u007e]/.test(value)) throw new TargetRefused('contains non-ASCII characters; percent-encode them');
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/is.exec(value);
  if (!match) throw new TargetRefused('is not a URL with a host (scheme://host)');
  const scheme = match[1]!.toLowerCase();
  const authority = match[2]!;
  const rest = match[3]!;
  const defaultPort = DEFAULT_PORTS[scheme];
  if (defaultPort === undefined) throw new TargetRefused(`uses the scheme ${scheme}:, which connections may not use (${Object.keys(DEFAULT_PORTS).join(', ')})`);
  const query = queryOf(rest);
  for (const key of query.keys()) {
    if (LOCATION_PARAMS.has(key.toLowerCase())) throw new TargetRefused(`sets ${key}, which connections may not set (it names another host, a socket or a file)`);
  }
  if (authority.split('@').length > 2) throw new TargetRefused('has an @ in its host part; percent-encode it in the user name or password');
  if (authority.includes(',')) throw new TargetRefused('names several hosts; connections name one');
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at + 1) : '';
  const split = splitHostPort(authority.slice(at + 1));
  if (!split || split.host === '' || Number.isNaN(split.port)) throw new TargetRefused('names no valid host');
  if (split.port !== undefined && (split.port < 1 || split.port > 65535)) throw new TargetRefused('names a port outside 1-65535');
  const consumer = scheme === 'postgres' || scheme === 'postgresql' ? postgresReading(value) : urlReading(value);
  if (!sameHost(split.host, consumer.host)) throw new TargetRefused('reads as two different hosts depending on the parser');
  const port = consumer.port ?? defaultPort;
  if (split.port !== undefined && split.port !== port) throw new TargetRefused('names two different ports (the query\'s port would win)');
  const explicitPort = split.port !== undefined || consumer.port !== undefined;
  return {
    scheme,
    host: split.host,
    port,
    explicitPort,
    query,
    withHost: (host) => `${scheme}://${userinfo}${host}${split.port === undefined ? '' : `:${split.port}`}${rest}`,
  };
}

/** The host and port the consumer's parser yields for `value` (undefined port: the default). */
export function consumerReading(value: string): { host: string; port: number | undefined } {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  return scheme === 'postgres' || scheme === 'postgresql' ? postgresReading(value) : urlReading(value);
}

function urlReading(value: string): { host: string; port: number | undefined } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TargetRefused('is not a valid URL');
  }
  return { host: url.hostname, port: url.port === '' ? undefined : Number(url.port) };
}

function postgresReading(value: string): { host: string; port: number | undefined } {
  let parsed: ReturnType<typeof pgConnectionString.parse>;
  try {
    parsed = pgConnectionString.parse(value);
  } catch {
    throw new TargetRefused('is not a valid connection string');
  }
  const port = parsed.port === undefined || parsed.port === null || parsed.port === '' ? undefined : Number(parsed.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535)) throw new TargetRefused('names an invalid port');
  return { host: parsed.host ?? '', port };
}

function queryOf(rest: string): URLSearchParams {
  const start = rest.indexOf('?');
  if (start < 0) return new URLSearchParams();
  return new URLSearchParams(rest.slice(start + 1).replace(/#.*$/, ''));
}

function sameHost(written: string, parsed: string): boolean {
  const a = canonicalHost(written);
  const b = canonicalHost(parsed.startsWith('[') || !parsed.includes(':') ? parsed : `[${parsed}]`);
  if (!a || !b || a.kind !== b.kind) return false;
  return a.kind === 'name' ? a.name === (b as { name: string }).name : a.address === (b as { address: string }).address;
}
