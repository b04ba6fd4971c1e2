// Tells a database outage (connection refused, reset or cut, server shutting down, no connection
// to be had from the pool) from every other database error, so the API answers it as a 503 the
// caller may retry instead of a 500.
import { ConnectionException } from '@mikro-orm/core';

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  '57P01', '57P02', '57P03', // admin_shutdown, crash_shutdown, cannot_connect_now
  '53300', // too_many_connections
]);
// pg and knex say these in words only (no code).
const UNREACHABLE_MESSAGES = /Connection terminated|Connection ended unexpectedly|is not queryable|Timeout acquiring a connection/i;

export function isDatabaseUnreachable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof ConnectionException || current.name === 'KnexTimeoutError') return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (UNREACHABLE_MESSAGES.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
