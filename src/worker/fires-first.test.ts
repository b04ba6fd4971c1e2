// The slots that put automations' fires ahead of runs: what each queue's worker may take, when.
import { describe, expect, it } from 'vitest';
import type { CustomSlotSupplier, SlotPermit, SlotReserveContext, WorkflowSlotInfo } from '@temporalio/worker';
import { FiresFirst } from './fires-first.js';

const context = { slotType: 'workflow', taskQueue: 'q', workerIdentity: 'w', workerBuildId: '', isSticky: false } satisfies SlotReserveContext;
const task: WorkflowSlotInfo = { type: 'workflow', workflowType: 'automationWorkflow', isSticky: false };

function take(slots: CustomSlotSupplier<WorkflowSlotInfo>, times: number): SlotPermit[] {
  return Array.from({ length: times }, () => slots.tryReserveSlot(context)).filter((permit): permit is SlotPermit => permit !== null);
}

/** Marks a main-queue slot used by a task, as the SDK does when a polled task arrives. */
function handle(gate: FiresFirst, permit: SlotPermit): () => void {
  gate.mainSlots.markSlotUsed({ slotInfo: task, permit });
  return () => gate.mainSlots.releaseSlot({ slotInfo: task, permit });
}

describe('FiresFirst', () => {
  it('gives the main queue its slots up to its bound, and the runs all of theirs while no fire is handled', () => {
    const gate = new FiresFirst(3, 5, 2);
    expect(take(gate.mainSlots, 4)).toHaveLength(3);
    // Slots held by idle pollers are not fires being handled: the runs get every slot.
    expect(take(gate.runSlots, 6)).toHaveLength(5);
  });

  it('holds runs to their share while a main-queue task is handled, and gives the rest back after it', async () => {
    const gate = new FiresFirst(3, 5, 2);
    const [fire] = take(gate.mainSlots, 1);
    const done = handle(gate, fire!);
    expect(take(gate.runSlots, 5)).toHaveLength(2);
    const abort = new AbortController();
    let granted = false;
    const waiting = gate.runSlots.reserveSlot(context, abort.signal).then((permit) => {
      granted = true;
      return permit;
    });
    await Promise.resolve();
    expect(granted).toBe(false);
    done();
    await expect(waiting).resolves.toBeDefined();
    // Three held now; two more are free while the main queue is quiet.
    expect(take(gate.runSlots, 5)).toHaveLength(2);
  });

  it('never holds runs below their share, even when fires never stop', () => {
    const gate = new FiresFirst(3, 5, 2);
    for (const permit of take(gate.mainSlots, 3)) handle(gate, permit);
    const runs = take(gate.runSlots, 5);
    expect(runs).toHaveLength(2);
    gate.runSlots.releaseSlot({ permit: runs[0]! });
    expect(take(gate.runSlots, 5)).toHaveLength(1);
  });

  it('a main-queue slot freed wakes a waiting main-queue poller; an aborted wait leaves the counts as they were', async () => {
    const gate = new FiresFirst(1, 1, 1);
    const [held] = take(gate.mainSlots, 1);
    const aborted = new AbortController();
    const abandoned = gate.mainSlots.reserveSlot(context, aborted.signal);
    aborted.abort(new Error('poller stopped'));
    await expect(abandoned).rejects.toThrow('poller stopped');
    const waiting = gate.mainSlots.reserveSlot(context, new AbortController().signal);
    gate.mainSlots.releaseSlot({ permit: held! });
    await expect(waiting).resolves.toBeDefined();
    expect(take(gate.mainSlots, 1)).toHaveLength(0);
  });
});
