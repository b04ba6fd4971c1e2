// The soak's memory reports (bench/automations/memory-probe.mjs, one directory per process, taken
// at the end of the warm-up, every few minutes after and at the end): where each process's memory
// went, per minute (RSS, anonymous memory, the V8 heap of the main thread and of the workflow
// threads, each after a full GC), and, with heap snapshots (first and last report only), what grew
// in each heap by constructor (bench/automations/heap-diff.ts).
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
  at: string;
  process: { rssMb: number; anonymousMb: number };
  main: HeapSummary;
  threads: (HeapSummary & { index: number })[];
}

/** Least-squares slope per minute of `value` over the reports' times. */
function slope(reports: ProbeReport[], value: (report: ProbeReport) => number): number {
  const points = reports.map((report) => [Date.parse(report.at) / 60_000, value(report)] as const);
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const sxx = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return sxx === 0 ? 0 : points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0) / sxx;
}

export interface ProbeVerdict {
  pid: string;
  reports: number;
  rssSlope: number;
}

/**
 * Prints, per process, its memory after a full GC at every report from the end of the warm-up on
 * (first -> last, and the least-squares slope per minute over all of them); returns the RSS slopes,
 * which a young generation's size at the moment of a sample cannot swing.
 */
export function printProbeReports(dir: string, labelOf: (pid: number) => string = String): ProbeVerdict[] {
  const rows: string[][] = [];
  const verdicts: ProbeVerdict[] = [];
  const diffs: [string, string, string, number][] = [];
  for (const pid of fs.readdirSync(dir).filter((name) => /^\d+$/.test(name))) {
    const files = fs.readdirSync(path.join(dir, pid)).filter((file) => /^\d+\.json$/.test(file)).sort();
    if (files.length < 2) continue;
    const reports = files.map((file) => JSON.parse(fs.readFileSync(path.join(dir, pid, file), 'utf8')) as ProbeReport);
    const [first, last] = [reports[0]!, reports.at(-1)!];
    const minutes = (Date.parse(last.at) - Date.parse(first.at)) / 60_000;
    const threadsUsed = (report: ProbeReport) => report.threads.reduce((sum, thread) => sum + thread.usedMb, 0);
    const span = (value: (report: ProbeReport) => number, digits = 0) => `${value(first).toFixed(digits)} -> ${value(last).toFixed(digits)} (**${slope(reports, value).toFixed(2)}**)`;
    verdicts.push({ pid, reports: reports.length, rssSlope: slope(reports, (report) => report.process.rssMb) });
    rows.push([
      labelOf(Number(pid)),
      `${reports.length} over ${minutes.toFixed(1)} min`,
      span((report) => report.process.rssMb),
      span((report) => report.process.anonymousMb),
      span((report) => report.main.usedMb, 1),
      last.threads.length ? `${span(threadsUsed, 1)}; contexts ${first.threads.map((t) => t.contexts).join('+')} -> ${last.threads.map((t) => t.contexts).join('+')}` : '-',
    ]);
    const label = (file: string) => file.replace('.json', '');
    const [a, b] = [label(files[0]!), label(files.at(-1)!)];
    for (const snapshot of fs.readdirSync(path.join(dir, pid)).filter((file) => file.startsWith(`${a}-`) && file.endsWith('.heapsnapshot'))) {
      const later = snapshot.replace(`${a}-`, `${b}-`);
      if (fs.existsSync(path.join(dir, pid, later))) diffs.push([`${pid} ${snapshot.slice(a.length + 1, -'.heapsnapshot'.length)}`, path.join(dir, pid, snapshot), path.join(dir, pid, later), minutes]);
    }
  }
  console.log('Memory after a full GC, from the end of the warm-up to the end (MiB: first -> last, and the least-squares slope in MiB/min over every report):\n');
  printTable(['process', 'reports', 'RSS', 'anonymous', 'main heap used', 'workflow threads: heap used'], rows);
  for (const [name, before, after, minutes] of diffs) {
    console.log(`Heap growth per minute, process ${name}:\n`);
    console.log(execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/automations/heap-diff.ts'), before, after, String(minutes), '20'], { cwd: root, maxBuffer: 1 << 26 }).toString());
  }
  return verdicts;
}
