// Bookkeeping that the client need not wait for (the budget settlement, the audit and usage
// record, metering, the cache write), run once the answer is on its way. Work queued during one
// turn of the event loop runs together in that turn's check phase (setImmediate): after the route
// wrote the answer it got in the same turn, and before any later I/O. A sequential request saved
// this work's time (about 60 µs of its critical path on the benchmark machine); under load one
// immediate serves every answer of the turn. flush() runs what is still queued (shutdown).
export class AfterAnswer {
  private queued: Array<() => void> = [];
  private scheduled: NodeJS.Immediate | undefined;

  /** `failed` hears of work that threw; the rest of the turn's work still runs. */
  constructor(private readonly failed: (error: unknown) => void) {}

  defer(work: () => void): void {
    this.queued.push(work);
    this.scheduled ??= setImmediate(this.runQueued);
  }

  /** Runs the queued work now. */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.runQueued();
  }

  private readonly runQueued = (): void => {
    this.scheduled = undefined;
    const queued = this.queued;
    this.queued = [];
    for (const work of queued) {
      try {
        work();
      } catch (error) {
        // One failed record must not take the others (or the process) with it.
        this.failed(error);
      }
    }
  };
}
