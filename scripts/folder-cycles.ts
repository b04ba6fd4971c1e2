// Folder-level layering: no folder of src/ imports a folder that imports it back. A
// file directly in src/ counts as its own unit. Reads dpdm's JSON dependency tree (written by
// scripts/check-cycles.sh) and the allow-list of pairs still to be untangled
// (scripts/folder-cycles.allow.json, `["a <-> b", ...]`, sorted names); fails on a pair not in the
// list, and on a listed pair that no longer exists, so the list only shrinks.
//
//   tsx scripts/folder-cycles.ts <dpdm.json> <allow-list.json>
import fs from 'node:fs';

interface DpdmOutput {
  tree: Record<string, Array<{ id: string | null }> | null>;
}

/** `src/gateway/chat.ts` -> `gateway`; `src/config.ts` -> `config.ts`. */
function unitOf(file: string): string {
  return file.split('/')[1]!;
}

/** Every pair of units that import each other, with the file edges that make each direction. */
function mutualPairs(tree: DpdmOutput['tree']): Map<string, string[]> {
  const edges = new Map<string, Set<string>>();
  const isSource = (file: string) => file.startsWith('src/') && !/\.test\.ts$/.test(file);
  for (const [file, dependencies] of Object.entries(tree)) {
    if (!isSource(file)) continue;
    for (const dependency of dependencies ?? []) {
      if (!dependency.id || !isSource(dependency.id)) continue;
      const [from, to] = [unitOf(file), unitOf(dependency.id)];
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, new Set());
      edges.get(key)!.add(`${file} -> ${dependency.id}`);
    }
  }
  const pairs = new Map<string, string[]>();
  for (const key of edges.keys()) {
    const [from, to] = key.split(' -> ') as [string, string];
    if (from > to || !edges.has(`${to} -> ${from}`)) continue;
    pairs.set(`${from} <-> ${to}`, [...edges.get(key)!, ...edges.get(`${to} -> ${from}`)!].sort());
  }
  return pairs;
}

function main(): void {
  const [treeFile, allowFile] = process.argv.slice(2);
  if (!treeFile || !allowFile) throw new Error('usage: folder-cycles.ts <dpdm.json> <allow-list.json>');
  const { tree } = JSON.parse(fs.readFileSync(treeFile, 'utf8')) as DpdmOutput;
  const allowed = new Set<string>(fs.existsSync(allowFile) ? (JSON.parse(fs.readFileSync(allowFile, 'utf8')) as string[]) : []);
  const pairs = mutualPairs(tree);
  const unexpected = [...pairs.keys()].filter((pair) => !allowed.has(pair));
  const gone = [...allowed].filter((pair) => !pairs.has(pair));
  for (const pair of unexpected) {
    console.error(`[check:cycles] folders import each other: ${pair}\n${pairs.get(pair)!.map((edge) => `    ${edge}`).join('\n')}`);
  }
  for (const pair of gone) console.error(`[check:cycles] ${pair} no longer import each other: remove it from ${allowFile}`);
  console.log(`[check:cycles] folders: ${pairs.size} pair(s) importing each other, ${pairs.size - unexpected.length} on the allow-list to untangle`);
  if (unexpected.length || gone.length) process.exitCode = 1;
}

main();
