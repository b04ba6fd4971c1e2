// A catalog connector started with `npx -y <package>` runs from the service's own node_modules
// when the package is installed there (a dependency of this project): `node <its bin>`, with no
// download, so it also starts inside a `network: none` sandbox and always at the version the
// lockfile pins. Otherwise the command stays as written (npx fetches the package, where it can).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

interface Command {
  command: string;
  args: string[];
}

const require = createRequire(import.meta.url);

export function preinstalled<T extends Command>(target: T): T {
  if (path.basename(target.command) !== 'npx') return target;
  const at = target.args.findIndex((arg) => !arg.startsWith('-'));
  const flags = target.args.slice(0, Math.max(0, at));
  if (at < 0 || !flags.every((flag) => flag === '-y' || flag === '--yes')) return target;
  const bin = installedBin(target.args[at]!);
  return bin ? { ...target, command: process.execPath, args: [bin, ...target.args.slice(at + 1)] } : target;
}

const bins = new Map<string, string | undefined>();

/** The bin file of `spec` (`name` or `@scope/name`, no version) in this project's node_modules (looked up once). */
function installedBin(spec: string): string | undefined {
  if (!bins.has(spec)) bins.set(spec, findBin(spec));
  return bins.get(spec);
}

function findBin(spec: string): string | undefined {
  if (!/^(@[a-z0-9._-]+\/)?[a-z0-9._-]+$/.test(spec)) return undefined; // a version or a URL: leave it to npx
  let manifestPath: string;
  try {
    manifestPath = require.resolve(`${spec}/package.json`);
  } catch {
    return undefined;
  }
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {});
  return bins.length === 1 ? path.join(path.dirname(manifestPath), bins[0]!) : undefined;
}
