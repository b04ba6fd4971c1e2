import { describe, expect, it } from 'vitest';
import { canonicalHost, classifyAddress, classifyHost, isPublicAddress, matchesAllowList, parseAllowList } from './addresses.js';

describe('classifyHost: every spelling of a non-public address', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['127.0.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['0x7f.0.0.1', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['017700000001', 'loopback'],
    ['0x7F.1', 'loopback'],
    ['127.0.0.1.', 'loopback'],
    ['localhost', 'loopback'],
    ['localhost.', 'loopback'],
    ['LocalHost', 'loopback'],
    ['api.localhost', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['::ffff:0:7f00:1', 'reserved'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['10.0.0.1', 'private'],
    ['012.0.0.1', 'private'],
    ['167772161', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['::ffff:192.168.1.1', 'private'],
    ['fd00::1', 'private'],
    ['fc12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['64:ff9b:1::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['0xa9.0xfe.0xa9.0xfe', 'metadata'],
    ['2852039166', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['[fd00:ec2::254]', 'metadata'],
    ['metadata.google.internal', 'metadata'],
    ['metadata.google.internal.', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['[::]', 'unspecified'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['100::1', 'reserved'],
  ])('%s is %s', (host, expected) => {
    expect(classifyHost(host)).toBe(expected);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '::ffff:8.8.8.8', '2606:4700:4700::1111', '64:ff9b::808:808', '[2a00:1450::1]'])(
    '%s is public',
    (host) => expect(classifyHost(host)).toBe('public'),
  );

  it('leaves an ordinary name to DNS', () => {
    expect(classifyHost('db.example.com')).toBe('name');
    expect(classifyHost('db.example.com.')).toBe('name');
  });

  it.each(['', ' 127.0.0.1', '1.2.3.4.5', '256.0.0.1', 'foo.123', '[::1', '::1::2', 'a b', 'exa_mple.com/..'])('%j is not a valid host', (host) => {
    expect(classifyHost(host)).toBe('invalid');
  });
});

describe('canonicalHost', () => {
  it('writes every IPv4 spelling as a dotted quad and IPv6 in brackets-free lower case', () => {
    expect(canonicalHost('0x7f.1')).toEqual({ kind: 'ipv4', address: '127.0.0.1' });
    expect(canonicalHost('[::FFFF:7F00:1]')).toEqual({ kind: 'ipv6', address: '::ffff:7f00:1' });
    expect(canonicalHost('Example.COM.')).toEqual({ kind: 'name', name: 'example.com' });
  });
});

describe('classifyAddress', () => {
  it('classifies resolved addresses the way DNS returns them', () => {
    expect(classifyAddress('127.0.0.53')).toBe('loopback');
    expect(classifyAddress('::ffff:10.1.2.3')).toBe('private');
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('not-an-address')).toBe(false);
  });
});

describe('allow list (TOOLS_ALLOWED_HOSTS)', () => {
  const list = parseAllowList('db.internal, 10.20.0.0/16 ,127.0.0.1:5433,[fd00::5]:6380,fd12::/16');
  it('matches names, host:port, CIDRs and bracketed IPv6 with a port', () => {
    expect(matchesAllowList(list, { name: 'db.internal', port: 5432, addresses: ['10.1.1.1'] })).toEqual({ allowed: true, exactPort: false });
    expect(matchesAllowList(list, { name: 'DB.internal.', port: 5432, addresses: ['10.1.1.1'] }).allowed).toBe(true);
    expect(matchesAllowList(list, { name: 'x.example', port: 5432, addresses: ['10.20.3.4'] }).allowed).toBe(true);
    expect(matchesAllowList(list, { name: 'x.example', port: 5432, addresses: ['10.20.3.4', '10.21.0.1'] }).allowed).toBe(false);
    expect(matchesAllowList(list, { port: 5433, addresses: ['127.0.0.1'] })).toEqual({ allowed: true, exactPort: true });
    expect(matchesAllowList(list, { port: 5432, addresses: ['127.0.0.1'] }).allowed).toBe(false);
    expect(matchesAllowList(list, { port: 6380, addresses: ['fd00::5'] }).allowed).toBe(true);
    expect(matchesAllowList(list, { port: 1, addresses: ['fd12:1::9'] }).allowed).toBe(true);
  });
  it('refuses a malformed entry at start-up', () => {
    expect(() => parseAllowList('10.0.0.0/33')).toThrow(/TOOLS_ALLOWED_HOSTS/);
    expect(() => parseAllowList('host:99999')).toThrow(/TOOLS_ALLOWED_HOSTS/);
  });
});
