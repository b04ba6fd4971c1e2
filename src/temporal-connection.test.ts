import { describe, expect, it } from 'vitest';
import { ConfigError } from './config.js';
import { temporalConnectionOptions } from './temporal-connection.js';

const base = { TEMPORAL_ADDRESS: 'temporal.example:7233', TEMPORAL_PORT: 7233 } as const;
const files: Record<string, string> = { '/etc/tls/client.pem': 'CERT', '/etc/tls/client.key': 'KEY', '/etc/tls/ca.pem': 'CA' };
const readFile = (path: string) => {
  if (!(path in files)) throw new Error('ENOENT');
  return Buffer.from(files[path]!);
};

describe('temporalConnectionOptions', () => {
  it('connects in plaintext to the local dev server when nothing is set', () => {
    expect(temporalConnectionOptions({ TEMPORAL_PORT: 7233 } as never, readFile)).toEqual({ address: '127.0.0.1:7233' });
  });

  it('builds mTLS from the certificate, key and CA files', () => {
    const options = temporalConnectionOptions(
      { ...base, TEMPORAL_TLS_CERT: '/etc/tls/client.pem', TEMPORAL_TLS_KEY: '/etc/tls/client.key', TEMPORAL_TLS_CA: '/etc/tls/ca.pem' } as never,
      readFile,
    );
    expect(options.address).toBe('temporal.example:7233');
    expect(Buffer.from(options.tls!.clientCertPair!.crt).toString()).toBe('CERT');
    expect(Buffer.from(options.tls!.clientCertPair!.key).toString()).toBe('KEY');
    expect(Buffer.from(options.tls!.serverRootCACertificate!).toString()).toBe('CA');
    expect(options.apiKey).toBeUndefined();
  });

  it('accepts PEM text in the variable itself', () => {
    const options = temporalConnectionOptions({ ...base, TEMPORAL_TLS_CA: '-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----' } as never, readFile);
    expect(Buffer.from(options.tls!.serverRootCACertificate!).toString()).toContain('BEGIN CERTIFICATE');
  });

  it('sends an API key only over TLS', () => {
    expect(temporalConnectionOptions({ ...base, TEMPORAL_API_KEY: 'tmprl-key' } as never, readFile)).toEqual({ address: 'temporal.example:7233', tls: {}, apiKey: 'tmprl-key' });
  });

  it('names the variable of a missing file, and a certificate without its key', () => {
    expect(() => temporalConnectionOptions({ ...base, TEMPORAL_TLS_CA: '/missing.pem' } as never, readFile)).toThrow(ConfigError);
    expect(() => temporalConnectionOptions({ ...base, TEMPORAL_TLS_CA: '/missing.pem' } as never, readFile)).toThrow(/TEMPORAL_TLS_CA/);
    expect(() => temporalConnectionOptions({ ...base, TEMPORAL_TLS_CERT: '/etc/tls/client.pem' } as never, readFile)).toThrow(/TEMPORAL_TLS_KEY/);
  });
});
