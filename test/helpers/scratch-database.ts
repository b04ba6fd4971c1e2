// A throwaway PostgreSQL database beside the one DATABASE_URL names: for the test run, for
// tests that need an empty database, and for benchmarks. drop() removes it even if connected.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function asAdmin(baseUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(baseUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await asAdmin(baseUrl, `create database "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => asAdmin(baseUrl, `drop database if exists "${name}" with (force)`) };
}
