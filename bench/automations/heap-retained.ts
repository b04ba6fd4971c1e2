// What one object of a class keeps alive in a V8 heap snapshot: the dominator tree (Cooper,
// Harvey and Kennedy's iterative algorithm) from the snapshot's root, the retained size of every
// object named `name`, and for the first one the breakdown of what it retains, a few levels
// deep (edge name, node), largest first.
//
//   npx tsx bench/automations/heap-retained.ts snapshot.heapsnapshot ReusableVMWorkflow [depth] [rows]
import fs from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const [file, target, depthArg, rowsArg] = process.argv.slice(2);
if (!file || !target) throw new Error('usage: heap-retained.ts snapshot name [depth] [rows]');
const depth = Number(depthArg ?? 3);
const rowsPerLevel = Number(rowsArg ?? 12);
const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Snapshot;
const meta = data.snapshot.meta;
const nodeWidth = meta.node_fields.length;
const edgeWidth = meta.edge_fields.length;
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const count = data.nodes.length / nodeWidth;
const typeOf = (n: number) => nodeTypes[data.nodes[n * nodeWidth + meta.node_fields.indexOf('type')]!]!;
const nameOf = (n: number) => data.strings[data.nodes[n * nodeWidth + meta.node_fields.indexOf('name')]!] ?? '';
const selfSize = (n: number) => data.nodes[n * nodeWidth + meta.node_fields.indexOf('self_size')]!;
const edgeCountAt = meta.node_fields.indexOf('edge_count');
const firstEdge = new Uint32Array(count + 1);
for (let n = 0; n < count; n += 1) firstEdge[n + 1] = firstEdge[n]! + data.nodes[n * nodeWidth + edgeCountAt]!;
const edgeType = (e: number) => edgeTypes[data.edges[e * edgeWidth]!]!;
const edgeTo = (e: number) => data.edges[e * edgeWidth + 2]! / nodeWidth;
const edgeName = (e: number) => {
  const type = edgeType(e);
  const value = data.edges[e * edgeWidth + 1]!;
  return type === 'element' || type === 'hidden' ? `[${value}]` : (data.strings[value] ?? '');
};
// Weak edges do not retain.
const retains = (e: number) => edgeType(e) !== 'weak';

// Post-order DFS from the root (node 0).
const order = new Int32Array(count).fill(-1);
const postOrder: number[] = [];
{
  const stack: number[] = [0];
  const cursor = new Uint32Array(count);
  const visited = new Uint8Array(count);
  visited[0] = 1;
  for (let n = 0; n < count; n += 1) cursor[n] = firstEdge[n]!;
  while (stack.length > 0) {
    const n = stack.at(-1)!;
    if (cursor[n]! < firstEdge[n + 1]!) {
      const e = cursor[n]!;
      cursor[n] = e + 1;
      if (!retains(e)) continue;
      const to = edgeTo(e);
      if (!visited[to]) {
        visited[to] = 1;
        stack.push(to);
      }
    } else {
      stack.pop();
      order[n] = postOrder.length;
      postOrder.push(n);
    }
  }
}
// Predecessors (reachable ones only).
const predecessors: number[][] = Array.from({ length: count }, () => []);
for (let n = 0; n < count; n += 1) {
  if (order[n] === -1) continue;
  for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += 1) if (retains(e) && order[edgeTo(e)] !== -1) predecessors[edgeTo(e)]!.push(n);
}
const idom = new Int32Array(count).fill(-1);
idom[0] = 0;
const intersect = (a: number, b: number) => {
  while (a !== b) {
    while (order[a]! < order[b]!) a = idom[a]!;
    while (order[b]! < order[a]!) b = idom[b]!;
  }
  return a;
};
for (let changed = true; changed;) {
  changed = false;
  for (let i = postOrder.length - 2; i >= 0; i -= 1) {
    const n = postOrder[i]!;
    let next = -1;
    for (const p of predecessors[n]!) {
      if (idom[p] === -1) continue;
      next = next === -1 ? p : intersect(p, next);
    }
    if (next !== -1 && idom[n] !== next) {
      idom[n] = next;
      changed = true;
    }
  }
}
const retained = new Float64Array(count);
for (const n of postOrder) {
  retained[n]! += selfSize(n);
  if (n !== 0) retained[idom[n]!]! += retained[n]!;
}
const children: number[][] = Array.from({ length: count }, () => []);
for (const n of postOrder) if (n !== 0) children[idom[n]!]!.push(n);

/** The name of the edge from the dominator to n, when there is a direct one. */
function via(dominator: number, n: number): string {
  for (let e = firstEdge[dominator]!; e < firstEdge[dominator + 1]!; e += 1) if (edgeTo(e) === n) return edgeName(e);
  return '~';
}

const targets = postOrder.filter((n) => nameOf(n) === target && typeOf(n) === 'object');
const sizes = targets.map((n) => retained[n]!).sort((a, b) => a - b);
process.stdout.write(`${targets.length} × ${target}: retained median ${(sizes[Math.floor(sizes.length / 2)]! / 1024).toFixed(1)} KB, ` +
  `min ${((sizes[0] ?? 0) / 1024).toFixed(1)} KB, max ${((sizes.at(-1) ?? 0) / 1024).toFixed(1)} KB, total ${(sizes.reduce((a, b) => a + b, 0) / 1048576).toFixed(1)} MB ` +
  `(heap ${(retained[0]! / 1048576).toFixed(1)} MB)\n`);
const median = targets.find((n) => retained[n] === sizes[Math.floor(sizes.length / 2)]);
function show(n: number, level: number): void {
  if (level > depth) return;
  const grouped = new Map<string, { size: number; count: number; sample: number }>();
  for (const child of children[n]!) {
    const key = `${via(n, child)} -> ${typeOf(child)} ${nameOf(child).slice(0, 60)}`;
    const group = grouped.get(key) ?? { size: 0, count: 0, sample: child };
    group.size += retained[child]!;
    group.count += 1;
    grouped.set(key, group);
  }
  for (const [key, group] of [...grouped].sort((a, b) => b[1].size - a[1].size).slice(0, rowsPerLevel)) {
    process.stdout.write(`${'  '.repeat(level)}${(group.size / 1024).toFixed(1)} KB ${group.count > 1 ? `(${group.count}) ` : ''}${key.replaceAll('\n', ' ')}\n`);
    if (group.count === 1) show(group.sample, level + 1);
  }
}
if (median !== undefined) show(median, 1);
