// DLP scanning speed against baselines measured in the same run (docs/design.md "Targets":
// 1 MiB of adversarial input per detector <= 20 ms, ordinary text >= 200 MB/s, the event loop
// never blocked > 50 ms by a scan).
//  1. Each detector alone on 1 MiB of each of its known-bad shapes (src/gateway/dlp/adversarial.ts):
//     the worst shape's time; the old backtracking engine on its own worst shape at 16 KiB, against
//     this engine on that shape.
//  2. Ordinary chat text (1 MiB of prose with numbers, dates, URLs, an e-mail now and then), all
//     detectors: throughput against a plain indexOf pass over the same text and the old engine.
//  3. The longest event-loop stall during an async scan of 1 MiB that mixes every bad shape, against
//     the stall of the same scan run synchronously.
// Times are medians of wall-clock runs; CPU time (process.cpuUsage) is shown beside them because
// on a shared machine a long run is often descheduled. Usage: npm run bench:dlp
import { originalScan } from '../../test/helpers/dlp-original.js';
import { ADVERSARIAL, COMMON_SHAPES } from '../../src/gateway/dlp/adversarial.js';
import { DETECTOR_TYPES, type DetectorType } from '../../src/gateway/dlp/detectors.js';
import { scanText, scanTextAsync } from '../../src/gateway/dlp/scanner.js';
import { printTable as table } from '../markdown-table.js';

const MIB = 1024 * 1024;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

function measure(run: () => unknown, runs = RUNS): { wall: number; cpu: number } {
  run();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    run();
    walls.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { wall: median(walls), cpu: median(cpus) };
}

const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);

function adversarial(): void {
  console.log('## 1 MiB of adversarial input per detector (target <= 20 ms)\n');
  const rows: string[][] = [];
  for (const type of DETECTOR_TYPES) {
    const types = new Set<DetectorType>([type]);
    const shapes = Object.entries({ ...ADVERSARIAL[type], ...COMMON_SHAPES });
    let worst = { name: '', wall: 0, cpu: 0 };
    for (const [name, generate] of shapes) {
      const text = generate(MIB);
      const time = measure(() => scanText(text, types), 3);
      if (time.wall > worst.wall) worst = { name, ...time };
    }
    // The old engine at 16 KiB (1 MiB would take minutes), on its own worst shape, and this engine on that shape.
    let oldWorst = { name: '', wall: 0, newWall: 0 };
    for (const [name, generate] of shapes) {
      const small = generate(16 * 1024);
      const old = measure(() => originalScan(small, types), 1);
      if (old.wall > oldWorst.wall) oldWorst = { name, wall: old.wall, newWall: measure(() => scanText(small, types), 3).wall };
    }
    rows.push([
      type, worst.name, ms(worst.wall), ms(worst.cpu), worst.wall <= 20 ? 'yes' : 'NO',
      oldWorst.name, ms(oldWorst.wall), ms(oldWorst.newWall), `${(oldWorst.wall / Math.max(oldWorst.newWall, 0.001)).toFixed(0)}x`,
    ]);
  }
  table(['detector', 'worst shape', '1 MiB ms', 'cpu ms', '<= 20 ms', 'old engine: worst shape', 'old 16 KiB ms', 'new 16 KiB ms', 'old / new'], rows);
}

/** Chat-like prose: sentences of common words, now and then a date, an amount, a URL or an address. */
function ordinaryText(size: number): string {
  const words = 'the of and to in is that for it as was with be by on not this are or at from have an but they which you one were all we when there can if more will would about so out up what their into has time only new some could these two may first then do any like my now over such our man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three'.split(' ');
  let text = '';
  for (let i = 0; text.length < size; i++) {
    text += words[(i * 7919) % words.length];
    if (i % 41 === 0) text += ` on 2024-10-${String((i % 28) + 1).padStart(2, '0')}`;
    if (i % 67 === 0) text += ` for $${i % 1000}.50 (${i % 100}%)`;
    if (i % 211 === 0) text += ' see https://docs.example.com/guide/section-4';
    if (i % 997 === 0) text += ' mail jane.doe@example.com';
    text += i % 13 === 0 ? '.\n' : i % 7 === 0 ? ', ' : ' ';
  }
  return text.slice(0, size);
}

function ordinary(): void {
  console.log('## Ordinary chat text, 1 MiB, all detectors (target >= 200 MB/s)\n');
  const text = ordinaryText(MIB);
  const found = scanText(text).length;
  const indexOf = measure(() => text.indexOf('\u0000'));
  const scan = measure(() => scanText(text));
  const old = measure(() => originalScan(text), 3);
  const mbps = (time: { wall: number }) => (MIB / 1e6 / (time.wall / 1000)).toFixed(0);
  table(['scan', 'ms', 'cpu ms', 'MB/s', 'vs this engine'], [
    ['plain indexOf pass (floor)', ms(indexOf.wall), ms(indexOf.cpu), mbps(indexOf), `${(indexOf.wall / scan.wall).toFixed(3)}x`],
    [`all detectors (${found} findings)`, ms(scan.wall), ms(scan.cpu), mbps(scan), '1x'],
    ['old engine', ms(old.wall), ms(old.cpu), mbps(old), `${(old.wall / scan.wall).toFixed(1)}x`],
  ]);
}

async function eventLoop(): Promise<void> {
  console.log('## Longest event-loop stall while scanning 1 MiB of mixed bad shapes, all detectors (target <= 50 ms)\n');
  const shapes = DETECTOR_TYPES.flatMap((type) => Object.values(ADVERSARIAL[type]));
  const text = shapes.map((generate) => generate(Math.ceil(MIB / shapes.length))).join(' ').slice(0, MIB);
  const syncStall = measure(() => scanText(text), 3).wall;
  let longest = 0;
  for (let round = 0; round < 3; round++) {
    let last = performance.now();
    let stall = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last);
      last = now;
    }, 1);
    last = performance.now();
    await scanTextAsync(text);
    stall = Math.max(stall, performance.now() - last);
    clearInterval(ticker);
    longest = Math.max(longest, stall);
  }
  table(['scan', 'longest stall ms'], [
    ['scanText (synchronous: the whole scan is one stall)', ms(syncStall)],
    ['scanTextAsync (yields between steps: one detector over a 64 KiB slice)', ms(longest)],
  ]);
}

console.log(`DLP benchmark, node ${process.version}, ${RUNS} runs per figure (median)\n`);
adversarial();
ordinary();
await eventLoop();
