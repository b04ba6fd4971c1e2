// Compares two V8 heap snapshots (from workflow-heap.ts): total self size, and the growth per
// added workflow by node type and constructor or function name, largest first.
//
//   npx tsx bench/automations/heap-diff.ts before.heapsnapshot after.heapsnapshot <added workflows> [rows]
import fs from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

function summarize(file: string): { total: number; groups: Map<string, { size: number; count: number }> } {
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Snapshot;
  const fields = data.snapshot.meta.node_fields;
  const types = data.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const groups = new Map<string, { size: number; count: number }>();
  let total = 0;
  for (let i = 0; i < data.nodes.length; i += width) {
    const type = types[data.nodes[i + typeAt]!]!;
    let name = data.strings[data.nodes[i + nameAt]!] ?? '';
    // Strings and numbers: group by type only (their "name" is their value).
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string' || type === 'number' || type === 'bigint') name = '';
    else if (name.length > 80) name = `${name.slice(0, 80)}…`;
    const key = `${type} ${name}`;
    const size = data.nodes[i + sizeAt]!;
    total += size;
    const group = groups.get(key) ?? { size: 0, count: 0 };
    group.size += size;
    group.count += 1;
    groups.set(key, group);
  }
  return { total, groups };
}

const [beforeFile, afterFile, addedArg, rowsArg] = process.argv.slice(2);
if (!beforeFile || !afterFile || !addedArg) throw new Error('usage: heap-diff.ts before after addedWorkflows [rows]');
const added = Number(addedArg);
const before = summarize(beforeFile);
const after = summarize(afterFile);
const rows = [...new Set([...before.groups.keys(), ...after.groups.keys()])].map((key) => {
  const a = before.groups.get(key) ?? { size: 0, count: 0 };
  const b = after.groups.get(key) ?? { size: 0, count: 0 };
  return { key, size: (b.size - a.size) / added, count: (b.count - a.count) / added };
}).sort((x, y) => y.size - x.size);
process.stdout.write(`heap: ${(before.total / 1048576).toFixed(1)} MB -> ${(after.total / 1048576).toFixed(1)} MB; ` +
  `${((after.total - before.total) / added / 1024).toFixed(1)} KB per added workflow\n\n`);
process.stdout.write('| bytes per workflow | objects per workflow | node |\n|---:|---:|---|\n');
for (const row of rows.slice(0, Number(rowsArg ?? 40))) {
  process.stdout.write(`| ${row.size.toFixed(0)} | ${row.count.toFixed(1)} | ${row.key.replaceAll('|', '\\|')} |\n`);
}
