// The MCP connector catalog: the entries shipped in catalog.json plus the operator's own from
// the file named by TOOLS_CATALOG_EXTRA (an entry with a shipped id replaces it). Both files are
// validated at start-up, so a bad catalog fails fast instead of at the first connection test.
// Entries say how they are confined (SECURITY.md): `network` (none: own network namespace;
// egress: may connect out), `unpinnedEgress` (reaches targets no check can pin: off unless the
// operator enables it), and `envTypes` (which variables name a URL, a host or a file path).
import fs from 'node:fs';
import { z } from 'zod';
import type { Config } from '../config.js';
import shippedCatalog from './catalog.json' with { type: 'json' };

const envVarName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an upper-case environment variable name');

const baseEntry = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be lower-case letters, digits and dashes'),
  name: z.string().min(1).max(200),
  category: z.string().min(1).max(100),
  description: z.string().min(1).max(2000),
  requiredEnvVars: z.array(envVarName).default([]),
  /** Variables a connection may set but need not. Anything else is rejected (it could hijack the process, e.g. NODE_OPTIONS). */
  optionalEnvVars: z.array(envVarName).default([]),
  /**
   * What each variable holds, for confinement: `url` and `host` values are resolved and must be
   * public, `path` values live in the organization's directory. Unlisted names are inferred from
   * their suffix (_URL, _HOST, _PATH...), and any value containing `://` is checked as a URL.
   */
  envTypes: z.record(envVarName, z.enum(['url', 'host', 'path', 'text'])).default({}),
});

/** Filled by the service, not the connection: the organization's own connector directory. */
export const BUILTIN_PLACEHOLDERS = ['ORG_DATA_DIR'] as const;

const stdioEntry = baseEntry.extend({
  transport: z.literal('stdio'),
  /** The executable; `args` follow. `${VAR}` in an argument is replaced by the connection's value. */
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  /** Fixed variables set by the operator, below the connection's own. */
  env: z.record(envVarName, z.string()).default({}),
  /** `none`: runs in its own network namespace (Linux); `egress`: may open connections. */
  network: z.enum(['none', 'egress']).default('none'),
  /** Reaches hosts chosen at run time (a browser, a fetcher): off unless TOOLS_ENABLE_UNPINNED_EGRESS. */
  unpinnedEgress: z.boolean().default(false),
});

const remoteEntry = baseEntry.extend({
  transport: z.literal('streamable-http'),
  /** Shown as the launch command of a remote connector: its URL. */
  command: z.string().min(1),
  /** A fixed URL, or exactly one `${VAR}`: the connection's URL, checked and pinned like any other. */
  url: z.union([z.url({ protocol: /^https?$/ }), z.string().regex(/^\$\{[A-Z_][A-Z0-9_]*\}$/, 'must be an http(s) URL or one ${VAR}')]),
  /** `${VAR}` in a header value is replaced by the connection's value. */
  headers: z.record(z.string(), z.string()).default({}),
});

const entrySchema = z.discriminatedUnion('transport', [stdioEntry, remoteEntry]);
const catalogFileSchema = z.object({ connectors: z.array(entrySchema) });

export type CatalogEntry = z.infer<typeof entrySchema>;
export type StdioCatalogEntry = z.infer<typeof stdioEntry>;
export type RemoteCatalogEntry = z.infer<typeof remoteEntry>;

export interface Catalog {
  entries: CatalogEntry[];
  find(id: string): CatalogEntry | undefined;
}

export class CatalogError extends Error {
  constructor(source: string, detail: string) {
    super(`Invalid connector catalog ${source}: ${detail}`);
    this.name = 'CatalogError';
  }
}

/** Builds a catalog from parsed files; later files replace entries of earlier ones by id. */
export function buildCatalog(files: { source: string; content: unknown }[]): Catalog {
  const byId = new Map<string, CatalogEntry>();
  for (const file of files) {
    for (const entry of parseCatalogFile(file.source, file.content)) byId.set(entry.id, entry);
  }
  const entries = [...byId.values()];
  return { entries, find: (id) => byId.get(id) };
}

function parseCatalogFile(source: string, content: unknown): CatalogEntry[] {
  const parsed = catalogFileSchema.safeParse(content);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CatalogError(source, `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  for (const entry of parsed.data.connectors) assertPlaceholdersDeclared(source, entry);
  return parsed.data.connectors;
}

/** A `${VAR}` the entry does not declare would silently stay empty; refuse the file instead. */
function assertPlaceholdersDeclared(source: string, entry: CatalogEntry): void {
  const declared = new Set<string>([...entry.requiredEnvVars, ...entry.optionalEnvVars, ...BUILTIN_PLACEHOLDERS]);
  const templated = entry.transport === 'stdio' ? [...entry.args, ...Object.values(entry.env)] : [...Object.values(entry.headers), entry.url];
  for (const value of templated) {
    for (const name of placeholdersIn(value)) {
      if (!declared.has(name)) throw new CatalogError(source, `${entry.id} uses \${${name}} without declaring it`);
    }
  }
}

const PLACEHOLDER = /\$\{([A-Z_][A-Z0-9_]*)\}/g;

export function placeholdersIn(value: string): string[] {
  return [...value.matchAll(PLACEHOLDER)].map((match) => match[1]!);
}

/** Replaces `${VAR}` by the connection's value (empty when an optional variable is unset). */
export function fillPlaceholders(value: string, env: Record<string, string>): string {
  return value.replace(PLACEHOLDER, (_match, name: string) => env[name] ?? '');
}

const loaded = new Map<string, Catalog>();

/** The catalog for this configuration, read once per process. */
export function catalogFor(config: Pick<Config, 'TOOLS_CATALOG_EXTRA'>): Catalog {
  const key = config.TOOLS_CATALOG_EXTRA ?? '';
  let catalog = loaded.get(key);
  if (!catalog) {
    const files: { source: string; content: unknown }[] = [{ source: 'catalog.json', content: shippedCatalog }];
    if (config.TOOLS_CATALOG_EXTRA) files.push(readExtraCatalog(config.TOOLS_CATALOG_EXTRA));
    catalog = buildCatalog(files);
    loaded.set(key, catalog);
  }
  return catalog;
}

function readExtraCatalog(file: string): { source: string; content: unknown } {
  const source = `TOOLS_CATALOG_EXTRA (${file})`;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CatalogError(source, (error as Error).message);
  }
  try {
    return { source, content: JSON.parse(text) };
  } catch (error) {
    throw new CatalogError(source, `not valid JSON: ${(error as Error).message}`);
  }
}
