// Host name resolution for the checks that decide whether a connection may reach a host. One
// resolver per configuration; tests swap it (there is no DNS in CI) with `useHostResolver`, so
// the checks run the same code on the addresses a test chooses.
import dns from 'node:dns';

/** Every address a name resolves to (IPv4 and IPv6). Rejects when it does not resolve. */
export type HostResolver = (host: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (host) => {
  const answers = await dns.promises.lookup(host, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};

const overrides = new WeakMap<object, HostResolver>();

/** Replaces the resolver used under this configuration (tests). */
export function useHostResolver(config: object, resolver: HostResolver): void {
  overrides.set(config, resolver);
}

export function resolverFor(config: object): HostResolver {
  return overrides.get(config) ?? systemResolver;
}
