// The docs hold to the code: every environment variable src/config.ts reads is documented in
// docs/configuration.md, every relative link (and `#anchor`, by GitHub's heading slugs) in the
// README, BENCHMARKS.md, SECURITY.md and docs/*.md resolves, and the README stays a front door
// (at most README_MAX_LINES lines). The repository stands alone: no file refers to documents
// outside it (the design is docs/design.md), and the docs name runs and decisions by date and
// commit, not by numbers of issues or sessions a reader cannot look up. Reads files only; needs
// no service.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const root = path.resolve(import.meta.dirname, '../..');
const README_MAX_LINES = 260;
const CONFIG_SOURCE = path.join(root, 'src/config.ts');
const CONFIGURATION_DOC = path.join(root, 'docs/configuration.md');

const read = (file: string) => fs.readFileSync(file, 'utf8');
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_?$/;

/** The names `loadConfig` asks its environment for, recorded by handing it an empty environment that notes every read. */
function namesReadAtRuntime(): Set<string> {
  const names = new Set<string>();
  const env = new Proxy({} as NodeJS.ProcessEnv, {
    get(_target, key) {
      if (typeof key === 'string' && ENV_NAME.test(key)) names.add(key);
      return undefined;
    },
    has(_target, key) {
      if (typeof key === 'string' && ENV_NAME.test(key)) names.add(key);
      return false;
    },
  });
  loadConfig(env);
  return names;
}

/** The names config.ts's source reads: keys of its schema (`NAME: z…`) and `env.NAME` / `env['NAME']` / `process.env.NAME` anywhere in it. */
function namesInSource(source: string): Set<string> {
  const names = new Set<string>();
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const match of code.matchAll(/^\s+([A-Z][A-Z0-9_]+)\s*:/gm)) names.add(match[1]!);
  for (const match of code.matchAll(/\benv\s*(?:\.\s*([A-Z][A-Z0-9_]+)|\[\s*['"`]([A-Z][A-Z0-9_]+)['"`]\s*\])/g)) names.add((match[1] ?? match[2])!);
  return names;
}

/** Names written as code (`NAME`) in a markdown text. */
function documentedNames(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!));
}

/** The text outside fenced code blocks (their `#` lines are comments, their brackets code). */
function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^([ \t]*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm, '');
}

/** GitHub's anchor for a heading's text (github-slugger): lowercased, punctuation dropped, each space a hyphen. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text only
    .replace(/<[^>]+>/g, ''); // HTML tags
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a markdown file offers: its headings' slugs, numbered as GitHub numbers repeats, plus explicit `id`/`name` anchors. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const prose = withoutCodeBlocks(markdown);
  for (const match of prose.matchAll(/^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = githubSlug(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of prose.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

interface Link {
  file: string;
  target: string;
}

/** The relative links of a markdown file: inline `[text](target)` and reference definitions, outside code. */
function relativeLinksOf(file: string): Link[] {
  const prose = withoutCodeBlocks(read(file)).replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!),
    ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((match) => match[1]!),
  ];
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target)).map((target) => ({ file, target }));
}

/** Why a link does not resolve, or undefined when it does. */
function brokenReason(link: Link): string | undefined {
  const [rawPath = '', anchor] = link.target.split('#', 2);
  const targetPath = rawPath === '' ? link.file : path.resolve(path.dirname(link.file), decodeURIComponent(rawPath));
  if (!fs.existsSync(targetPath)) return `no file ${path.relative(root, targetPath)}`;
  if (anchor === undefined || anchor === '') return undefined;
  if (!targetPath.endsWith('.md')) return `an anchor into ${path.relative(root, targetPath)}, which is not markdown`;
  if (!anchorsOf(read(targetPath)).has(decodeURIComponent(anchor).toLowerCase())) return `no heading #${anchor} in ${path.relative(root, targetPath)}`;
  return undefined;
}

const DOCUMENTS = [
  'README.md',
  'BENCHMARKS.md',
  'SECURITY.md',
  ...fs.readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
].map((name) => path.join(root, name));

/** Text files of the repository (what a clone holds, minus dependencies, builds and local data). */
function repositoryFiles(dir = root): string[] {
  const skipped = new Set(['node_modules', 'dist', 'data', 'coverage', '.git', '.test-build']);
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (skipped.has(entry.name) || (entry.name.startsWith('.') && entry.isDirectory())) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return repositoryFiles(full);
    return /\.(ts|tsx|js|mjs|md|sh|json|ya?ml|css|html)$|^Dockerfile$/.test(entry.name) ? [full] : [];
  });
}

/** A reference to a document outside the repository: the parent folder's shared notes, or a bare name of one (docs/design.md is this repository's). */
const OUTSIDE_DOCUMENT = new RegExp(String.raw`\.\./shared/|(?<![\w/.-])(?:DESIGN|SPEC|STYLE)\.md`);
/** A run or a decision labelled by a number only the project's tracker knows. */
const TRACKER_LABEL = /\b(?:issues?|sessions?) \d+\b|\bissue #?\d+/i;

describe('the docs', () => {
  it('slugs headings as GitHub does', () => {
    expect(githubSlug('Reading runs in the Web UI through the codec server')).toBe('reading-runs-in-the-web-ui-through-the-codec-server');
    expect(githubSlug('2026-11-27 08:3x UTC (quiet): 0 failures, 0 lost, 0 duplicates')).toBe('2026-11-27-083x-utc-quiet-0-failures-0-lost-0-duplicates');
    expect(githubSlug('Tools (MCP connectors)')).toBe('tools-mcp-connectors');
    expect(githubSlug('Read outside `src/config.ts`')).toBe('read-outside-srcconfigts');
    expect(githubSlug('**What a restart costs**, said [plainly](x.md)')).toBe('what-a-restart-costs-said-plainly');
    expect([...anchorsOf('# A\n## Notes\n```sh\n# not a heading\n```\n### Notes\n')]).toEqual(['a', 'notes', 'notes-1']);
  });

  it('finds every variable config.ts reads, in its schema and in direct reads', () => {
    const names = namesInSource("const s = z.object({\n  PORT: port,\n  // NOT_THIS: x\n});\nenv.NODE_ENV; process.env.HOST; env['DATA_DIR'];\n");
    expect([...names].sort()).toEqual(['DATA_DIR', 'HOST', 'NODE_ENV', 'PORT']);
    expect(namesReadAtRuntime()).toContain('DATABASE_URL');
  });

  it('documents in docs/configuration.md every environment variable src/config.ts reads', () => {
    const readNames = new Set([...namesReadAtRuntime(), ...namesInSource(read(CONFIG_SOURCE))]);
    expect(readNames.size).toBeGreaterThan(50);
    const documented = documentedNames(read(CONFIGURATION_DOC));
    const missing = [...readNames].filter((name) => !documented.has(name)).sort();
    expect(missing, `read by src/config.ts but not in docs/configuration.md: ${missing.join(', ')}`).toEqual([]);
  });

  it('has no relative link that does not resolve, anchors included', () => {
    const links = DOCUMENTS.flatMap(relativeLinksOf);
    expect(links.length).toBeGreaterThan(20);
    const broken = links.flatMap((link) => {
      const reason = brokenReason(link);
      return reason ? [`${path.relative(root, link.file)}: (${link.target}) ${reason}`] : [];
    });
    expect(broken, broken.join('\n')).toEqual([]);
  });

  it('refers to no document outside the repository', () => {
    const files = repositoryFiles().filter((file) => file !== fileURLToPath(import.meta.url));
    expect(files.length).toBeGreaterThan(100);
    expect(OUTSIDE_DOCUMENT.test('see ' + '../shared/' + 'SPEC.md')).toBe(true);
    expect(OUTSIDE_DOCUMENT.test('(' + 'DESIGN' + '.md section 3)')).toBe(true);
    expect(OUTSIDE_DOCUMENT.test('docs/design.md, DESIGN-NOTES.md')).toBe(false);
    const found = files.flatMap((file) => {
      const match = OUTSIDE_DOCUMENT.exec(read(file));
      return match ? [`${path.relative(root, file)}: ${match[0]}`] : [];
    });
    expect(found, 'refers outside the repository (point it at docs/design.md)').toEqual([]);
  });

  it('names runs and decisions by date and commit in the docs, not by issue or session numbers', () => {
    const documents = DOCUMENTS.filter((file) => !file.endsWith('SECURITY.md'));
    const found = documents.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, index) => (TRACKER_LABEL.test(line) ? [`${path.relative(root, file)}:${index + 1}: ${line.trim().slice(0, 120)}`] : [])),
    );
    expect(found, found.join('\n')).toEqual([]);
  });

  it(`keeps the README at most ${README_MAX_LINES} lines`, () => {
    const lines = read(path.join(root, 'README.md')).split('\n').length - 1;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });
});
