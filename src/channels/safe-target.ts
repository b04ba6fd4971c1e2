// Outbound webhook targets must be public: no private, loopback, link-local, multicast or
// reserved addresses (SSRF), unless the configuration allows them. Checked on the literal host
// and again on every address DNS returns at connect time, so a name cannot resolve around it.
import dns from 'node:dns';
import net from 'node:net';
import { Agent } from 'undici';
import { PermanentDeliveryError } from './types.js';

const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) {
  blocked.addSubnet(address, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return mapped ? blocked.check(mapped[1]!, 'ipv4') : blocked.check(address, 'ipv6');
  }
  return true;
}

/** Throws PermanentDeliveryError when the URL names a private address literally. */
export function assertPublicUrl(url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && isPrivateAddress(host)) {
    throw new PermanentDeliveryError(`Webhook target ${host} is a private address`);
  }
  if (host === 'localhost' || host.endsWith('.localhost')) {
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
