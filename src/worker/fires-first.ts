// Workflow task slots that put an automation's fire ahead of the runs already going (runs never
// delay another automation's fire: the automation targets in docs/design.md). One worker process serves both task queues on
// the same cores; in a burst of fires (1,000 automations due at 09:00) each run's tasks compete
// with the next automations' fire tasks for the CPU, and every fire waits for the runs before it.
//
// The main queue's worker takes its slots from `mainSlots` (a fixed number, counted); the runs
// queue's from `runSlots`, which grants `reservedForRuns` slots at any time (runs always make
// progress) and the rest only while no main-queue task is running. So while fires are being
// handled the runs worker works with `reservedForRuns` slots (WORKER_RUN_TASKS_DURING_FIRES), and
// it takes the others back as soon as the main queue is quiet: the whole burst costs the same
// CPU, but the fires come first.
import type { CustomSlotSupplier, SlotPermit, SlotReleaseContext, WorkflowSlotInfo } from '@temporalio/worker';

interface Waiter {
  grant: () => void;
}

export class FiresFirst {
  /** Main-queue tasks being handled now (slots marked used, not released). */
  private mainBusy = 0;
  /** Slots handed out and not yet released, per queue (a poller holds one while it polls). */
  private mainHeld = 0;
  private runsHeld = 0;
  private readonly mainWaiters: Waiter[] = [];
  private readonly runWaiters: Waiter[] = [];

  constructor(
    private readonly mainMax: number,
    private readonly runsMax: number,
    private readonly reservedForRuns: number,
  ) {}

  /** The main queue's slots: `mainMax` at most, each one in use counted. */
  readonly mainSlots: CustomSlotSupplier<WorkflowSlotInfo> = {
    type: 'custom',
    reserveSlot: (_ctx, signal) => this.wait(this.mainWaiters, () => this.tryMain(), signal),
    tryReserveSlot: () => this.tryMain(),
    markSlotUsed: () => {
      this.mainBusy += 1;
    },
    releaseSlot: (ctx: SlotReleaseContext<WorkflowSlotInfo>) => {
      this.mainHeld -= 1;
      if (ctx.slotInfo) this.mainBusy -= 1;
      this.wake();
    },
  };

  /** The runs queue's slots: `reservedForRuns` always, up to `runsMax` while the main queue is idle. */
  readonly runSlots: CustomSlotSupplier<WorkflowSlotInfo> = {
    type: 'custom',
    reserveSlot: (_ctx, signal) => this.wait(this.runWaiters, () => this.tryRun(), signal),
    tryReserveSlot: () => this.tryRun(),
    markSlotUsed: () => undefined,
    releaseSlot: () => {
      this.runsHeld -= 1;
      this.wake();
    },
  };

  private tryMain(): SlotPermit | null {
    if (this.mainHeld >= this.mainMax) return null;
    this.mainHeld += 1;
    return {};
  }

  private tryRun(): SlotPermit | null {
    const limit = this.mainBusy > 0 ? Math.min(this.reservedForRuns, this.runsMax) : this.runsMax;
    if (this.runsHeld >= limit) return null;
    this.runsHeld += 1;
    return {};
  }

  private wait(queue: Waiter[], attempt: () => SlotPermit | null, signal: AbortSignal): Promise<SlotPermit> {
    const permit = attempt();
    if (permit) return Promise.resolve(permit);
    return new Promise<SlotPermit>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          const granted = attempt();
          if (!granted) return;
          signal.removeEventListener('abort', onAbort);
          queue.splice(queue.indexOf(waiter), 1);
          resolve(granted);
        },
      };
      const onAbort = () => {
        queue.splice(queue.indexOf(waiter), 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
    });
  }

  private wake(): void {
    for (const waiter of [...this.mainWaiters]) waiter.grant();
    for (const waiter of [...this.runWaiters]) waiter.grant();
  }
}
