// The `channel_deliveries` records: one row per delivered answer, of an automation run
// (`run_id`) or of a webhook execution (`execution_id`), keyed by the delivery id, so a retried
// delivery activity finds what was already sent and does not send it again.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChannelType } from '../channels/types.js';

/** What a delivery belongs to: exactly one of the two. */
export type DeliveryOwner = { runId: string } | { executionId: string };

/** The receipt of a delivery already recorded, or null. */
export async function recordedReceipt(em: EntityManager, deliveryId: string): Promise<string | null> {
  const rows = await em.getConnection().execute<{ receipt: string }[]>('select "receipt" from "channel_deliveries" where "id" = ? limit 1', [deliveryId]);
  return rows[0]?.receipt ?? null;
}

export async function recordDelivery(
  em: EntityManager,
  delivery: { deliveryId: string; owner: DeliveryOwner; channelType: ChannelType; receipt: string; deliveredAt: Date },
): Promise<void> {
  const runId = 'runId' in delivery.owner ? delivery.owner.runId : null;
  const executionId = 'executionId' in delivery.owner ? delivery.owner.executionId : null;
  await em.getConnection().execute(
    'insert into "channel_deliveries" ("id", "run_id", "execution_id", "channel_type", "receipt", "delivered_at") values (?, ?, ?, ?, ?, ?) on conflict ("id") do nothing',
    [delivery.deliveryId, runId, executionId, delivery.channelType, delivery.receipt.slice(0, 500), delivery.deliveredAt],
  );
}
