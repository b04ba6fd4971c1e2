// Structured JSON logs (pino). Secrets never reach a log line: credentials in headers are
// redacted at the logger, and code logs ids and counts, never keys, tokens or prompt text.
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.apiKey',
  '*.password',
  '*.token',
  '*.secret',
  '*.env',
  '*.environment',
];

/** `level` is the config's LOG_LEVEL (or a test's choice): the logger never reads the environment. */
export function createLogger(options: { level: string; name?: string; destination?: DestinationStream }): Logger {
  const settings = {
    level: options.level,
    name: options.name ?? 'ai-workspace',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
