// How the client, the readiness probe and the worker reach Temporal: the address, plus TLS
// (TEMPORAL_TLS_CA, and TEMPORAL_TLS_CERT + TEMPORAL_TLS_KEY for mTLS) and an API key
// (TEMPORAL_API_KEY) for a production cluster or Temporal Cloud. Each TLS variable holds a PEM
// file path or the PEM text itself.
import fs from 'node:fs';
import type { TLSConfig } from '@temporalio/common/lib/internal-non-workflow/tls-config.js';
import { ConfigError, type Config } from './config.js';

export type TemporalConnectionConfig = Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_PORT' | 'TEMPORAL_TLS_CERT' | 'TEMPORAL_TLS_KEY' | 'TEMPORAL_TLS_CA' | 'TEMPORAL_API_KEY'>;

export interface TemporalConnectionOptions {
  address: string;
  /** Absent: plaintext (the local dev server). */
  tls?: TLSConfig;
  apiKey?: string;
}

export function temporalAddress(config: Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_PORT'>): string {
  return config.TEMPORAL_ADDRESS ?? `127.0.0.1:${config.TEMPORAL_PORT}`;
}

/** The connection options; reads the PEM files once. Throws ConfigError naming a bad variable. */
export function temporalConnectionOptions(config: TemporalConnectionConfig, readFile: (path: string) => Buffer = fs.readFileSync): TemporalConnectionOptions {
  const pem = (variable: 'TEMPORAL_TLS_CERT' | 'TEMPORAL_TLS_KEY' | 'TEMPORAL_TLS_CA'): Buffer | undefined => {
    const value = config[variable];
    if (!value) return undefined;
    if (value.startsWith('-----BEGIN')) return Buffer.from(value);
    try {
      return readFile(value);
    } catch (error) {
      throw new ConfigError(variable, `cannot read ${value}: ${(error as Error).message}`);
    }
  };
  const [crt, key, ca] = [pem('TEMPORAL_TLS_CERT'), pem('TEMPORAL_TLS_KEY'), pem('TEMPORAL_TLS_CA')];
  if (Boolean(crt) !== Boolean(key)) {
    throw new ConfigError(crt ? 'TEMPORAL_TLS_KEY' : 'TEMPORAL_TLS_CERT', 'TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together (mTLS)');
  }
  const options: TemporalConnectionOptions = { address: temporalAddress(config) };
  // An API key is only ever sent over TLS (Temporal Cloud requires it, and a bearer key in clear is a leak).
  if (crt || ca || config.TEMPORAL_API_KEY) {
    options.tls = {
      ...(ca ? { serverRootCACertificate: ca } : {}),
      ...(crt && key ? { clientCertPair: { crt, key } } : {}),
    };
  }
  if (config.TEMPORAL_API_KEY) options.apiKey = config.TEMPORAL_API_KEY;
  return options;
}
