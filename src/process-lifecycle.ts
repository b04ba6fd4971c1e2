// Process lifecycle shared by the entry points: start, then on SIGINT/SIGTERM run the stop
// function once (a second signal forces exit). A start failure prints why and exits 1.
import { ConfigError } from './config.js';

export async function runMain(name: string, start: () => Promise<() => Promise<void>>): Promise<void> {
  let stop: (() => Promise<void>) | undefined;
  try {
    stop = await start();
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : (error as Error).stack ?? String(error);
    process.stderr.write(`${name} failed to start: ${message}\n`);
    process.exit(1);
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      process.stderr.write(`${name}: second ${signal}, exiting now\n`);
      process.exit(130);
    }
    stopping = true;
    stop!()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        process.stderr.write(`${name}: error while stopping: ${(error as Error).message}\n`);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}
