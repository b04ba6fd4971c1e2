// Outbound webhook targets must be public: no private, loopback, link-local, multicast or
// reserved addresses (SSRF), unless the configuration allows them. Checked on the literal host
// and again on every address DNS returns at connect time, so a name cannot resolve around it.
import dns from 'node:dns';
import type net from 'node:net';
import { Agent } from 'undici';
import { classifyHost, isPublicAddress } from '../net/addresses.js';
import { PermanentDeliveryError } from './types.js';

/** True for anything but a public address (every spelling; see src/net/addresses.ts). */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

/** Throws PermanentDeliveryError when the URL names a private address (or localhost, metadata) literally. */
export function assertPublicUrl(url: URL): void {
  const host = url.hostname;
  const kind = classifyHost(host);
  if (kind !== 'public' && kind !== 'name') {
    throw new PermanentDeliveryError(`Webhook target ${host} is a private address`);
  }
}

/** A DNS lookup that refuses names resolving to private addresses. */
export const publicLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4);
    const list = addresses as unknown as dns.LookupAddress[];
    const refused = list.find((entry) => isPrivateAddress(entry.address));
    if (refused) {
      return callback(new PermanentDeliveryError(`Webhook target ${hostname} resolves to a private address`), '', 4);
    }
    if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    const first = list[0]!;
    return callback(null, first.address, first.family);
  });
};

/** The HTTP dispatcher for webhook deliveries. */
export function webhookDispatcher(allowPrivateTargets: boolean): Agent {
  return new Agent({
    keepAliveTimeout: 10_000,
    connections: 64,
    ...(allowPrivateTargets ? {} : { connect: { lookup: publicLookup } }),
  });
}
