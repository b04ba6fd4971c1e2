// Group commit for writes a caller must wait for: each caller's promise settles once its own row
// is committed, but rows that arrive in the same turn of the event loop, or while a write is in
// flight, go together in the next statement. A lone caller is written on the next turn (no timer);
// under load N callers share one statement, one round trip and one commit: a statement's system
// calls and round trip, not its rows, were what made a stored answer cost more than an unstored
// one (the stored Responses API answers, responses.service.ts).

export interface GroupCommitOptions {
  /** Rows in one statement at most (a statement's parameters and a batch's JSON stay bounded). */
  maxBatch?: number;
  /**
   * Under load (rows waited while a statement was in flight), the next statement starts no sooner
   * than this after the previous one started, so the rows of that time share it. A row that finds
   * nothing in flight goes on the next turn all the same. Default 0.
   */
  minSpacingMs?: number;
}

interface Pending<T> {
  row: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<T> {
  private queue: Pending<T>[] = [];
  private writing = false;
  private readonly maxBatch: number;
  private readonly minSpacingMs: number;

  /** `write` commits every row it is given, or none (one statement). */
  constructor(
    private readonly write: (rows: T[]) => Promise<void>,
    options: GroupCommitOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 100;
    this.minSpacingMs = options.minSpacingMs ?? 0;
  }

  /** Resolves once the row is committed; rejects with the write's error when it is not. */
  add(row: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      if (this.writing) return;
      // Answers finished in the same turn (one poll of the sockets) share the first statement.
      this.writing = true;
      setImmediate(() => void this.drain());
    });
  }

  /** Writes batches until nothing waits; one write in flight at a time. */
  private async drain(): Promise<void> {
    try {
      let started = performance.now();
      await this.commit(this.queue.splice(0, this.maxBatch));
      while (this.queue.length > 0) {
        const wait = started + this.minSpacingMs - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        started = performance.now();
        await this.commit(this.queue.splice(0, this.maxBatch));
      }
    } finally {
      this.writing = false;
    }
  }

  /** One statement for the batch; when it fails, each row alone, so one bad row fails only its own caller. */
  private async commit(batch: Pending<T>[]): Promise<void> {
    try {
      await this.write(batch.map((pending) => pending.row));
      for (const pending of batch) pending.resolve();
      return;
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
    }
    for (const pending of batch) {
      try {
        await this.write([pending.row]);
        pending.resolve();
      } catch (error) {
        pending.reject(error);
      }
    }
  }
}
