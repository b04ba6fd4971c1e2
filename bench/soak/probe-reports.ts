// The soak's memory reports (bench/automations/memory-probe.mjs, one directory per process): where
// each process's memory went between the end of the warm-up and the end, per minute (RSS,
// anonymous memory, the V8 heap of the main thread and of each workflow thread, after a full GC),
// and, with heap snapshots, what grew in each heap by constructor (bench/automations/heap-diff.ts).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable } from '../markdown-table.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface HeapSummary {
  usedMb: number;
  contexts: number;
}

interface ProbeReport {
  process: { rssMb: number; anonymousMb: number };
  main: HeapSummary;
  threads: (HeapSummary & { index: number })[];
}

export function printProbeReports(dir: string, minutes: number): void {
  const rows: string[][] = [];
  const diffs: [string, string, string][] = [];
  for (const pid of fs.readdirSync(dir).filter((name) => /^\d+$/.test(name))) {
    const files = fs.readdirSync(path.join(dir, pid)).filter((file) => /^\d+\.json$/.test(file)).sort();
    if (files.length < 2) continue;
    const [first, last] = [files[0]!, files.at(-1)!].map((file) => JSON.parse(fs.readFileSync(path.join(dir, pid, file), 'utf8')) as ProbeReport);
    const perMinute = (a: number, b: number) => ((b - a) / minutes).toFixed(2);
    rows.push([
      pid,
      `${first!.process.rssMb.toFixed(0)} -> ${last!.process.rssMb.toFixed(0)} (${perMinute(first!.process.rssMb, last!.process.rssMb)})`,
      `${first!.process.anonymousMb.toFixed(0)} -> ${last!.process.anonymousMb.toFixed(0)} (${perMinute(first!.process.anonymousMb, last!.process.anonymousMb)})`,
      `${first!.main.usedMb.toFixed(1)} -> ${last!.main.usedMb.toFixed(1)} (${perMinute(first!.main.usedMb, last!.main.usedMb)})`,
      last!.threads.map((thread) => {
        const before = first!.threads.find((t) => t.index === thread.index);
        return before ? `#${thread.index} ${before.usedMb.toFixed(1)} -> ${thread.usedMb.toFixed(1)} (${perMinute(before.usedMb, thread.usedMb)}), contexts ${before.contexts} -> ${thread.contexts}` : `#${thread.index} ${thread.usedMb.toFixed(1)}`;
      }).join('; ') || '-',
    ]);
    const label = (file: string) => file.replace('.json', '');
    const [a, b] = [label(files[0]!), label(files.at(-1)!)];
    for (const snapshot of fs.readdirSync(path.join(dir, pid)).filter((file) => file.startsWith(`${a}-`) && file.endsWith('.heapsnapshot'))) {
      const later = snapshot.replace(`${a}-`, `${b}-`);
      if (fs.existsSync(path.join(dir, pid, later))) diffs.push([`${pid} ${snapshot.slice(a.length + 1, -'.heapsnapshot'.length)}`, path.join(dir, pid, snapshot), path.join(dir, pid, later)]);
    }
  }
  console.log(`Memory after a full GC, end of warm-up -> end (MiB, and per minute over ${minutes.toFixed(1)} min):\n`);
  printTable(['pid', 'RSS', 'anonymous', 'main heap used', 'workflow threads: heap used, contexts'], rows);
  for (const [name, before, after] of diffs) {
    console.log(`Heap growth per minute, process ${name}:\n`);
    console.log(execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/automations/heap-diff.ts'), before, after, String(minutes), '20'], { cwd: root, maxBuffer: 1 << 26 }).toString());
  }
}
