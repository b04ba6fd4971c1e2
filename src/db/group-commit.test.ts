import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

/** A write the test finishes by hand, recording each statement's rows. */
function manualWriter(fail: (rows: number[]) => boolean = () => false) {
  const statements: number[][] = [];
  const finish: Array<() => void> = [];
  const write = (rows: number[]) =>
    new Promise<void>((resolve, reject) => {
      statements.push(rows);
      finish.push(() => (fail(rows) ? reject(new Error(`bad rows ${rows.join(',')}`)) : resolve()));
    });
  const next = async () => {
    while (finish.length === 0) await new Promise((resolve) => setImmediate(resolve));
    finish.shift()!();
  };
  return { statements, write, next };
}

describe('GroupCommit', () => {
  it('writes the rows of one turn together on the next, and those that arrive during a write in the statement after', async () => {
    const writer = manualWriter();
    const commits = new GroupCommit<number>(writer.write);
    const settled: number[] = [];
    const first = [1, 2].map((row) => commits.add(row).then(() => settled.push(row)));
    expect(writer.statements).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writer.statements).toEqual([[1, 2]]);
    const rest = [3, 4, 5].map((row) => commits.add(row).then(() => settled.push(row)));
    await writer.next();
    await Promise.all(first);
    expect(settled).toEqual([1, 2]);
    await writer.next();
    await Promise.all(rest);
    expect(writer.statements).toEqual([[1, 2], [3, 4, 5]]);
    expect(settled).toEqual([1, 2, 3, 4, 5]);
  });

  it('bounds a statement to maxBatch rows', async () => {
    const writer = manualWriter();
    const commits = new GroupCommit<number>(writer.write, { maxBatch: 2 });
    const all = [1, 2, 3, 4, 5].map((row) => commits.add(row));
    for (let i = 0; i < 3; i++) await writer.next();
    await Promise.all(all);
    expect(writer.statements).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('spaces statements minSpacingMs apart while rows wait behind one in flight; a row that finds none in flight goes at once', async () => {
    const writer = manualWriter();
    const commits = new GroupCommit<number>(writer.write, { minSpacingMs: 50 });
    const first = commits.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    const started = performance.now();
    const second = commits.add(2);
    await writer.next();
    await first;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(writer.statements).toEqual([[1]]);
    const third = commits.add(3);
    await writer.next();
    await Promise.all([second, third]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(40);
    expect(writer.statements).toEqual([[1], [2, 3]]);
    // Nothing in flight: the next row goes on the next turn, however recent the last statement.
    const alone = commits.add(4);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writer.statements).toEqual([[1], [2, 3], [4]]);
    await writer.next();
    await alone;
  });

  it('fails only the caller of a bad row: a failed batch is written again row by row', async () => {
    const writer = manualWriter((rows) => rows.includes(3));
    const commits = new GroupCommit<number>(writer.write);
    const outcomes = [1, 2, 3, 4].map((row) => commits.add(row).then(() => 'ok', (error: Error) => error.message));
    for (let i = 0; i < 5; i++) await writer.next();
    expect(await Promise.all(outcomes)).toEqual(['ok', 'ok', 'bad rows 3', 'ok']);
    expect(writer.statements).toEqual([[1, 2, 3, 4], [1], [2], [3], [4]]);
  });
});
