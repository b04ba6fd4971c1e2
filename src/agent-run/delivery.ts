// Delivery of an agent run's answer to one channel, for both kinds of run: at most once per
// delivery id (the `channel_deliveries` record, written after the send, is checked first), as the
// owner while they may still act, with the outgoing DLP policy applied to everything that leaves
// (the answer and the automation's or assistant's name), and failures classified for retry: a
// channel that refuses for good (bad token, 4xx) fails the run at once with `delivery_failed`.
import { ApplicationFailure } from '@temporalio/activity';
import type { AppDeps } from '../runtime-deps.js';
import { PermanentDeliveryError, type ChannelMessage, type ChannelSender } from '../channels/index.js';
import type { StoredChannel } from '../channels/types.js';
import { guardOutgoingText } from '../gateway/dlp/outgoing.js';
import { assertOwnerActive } from '../identity/run-principal.js';
import { recordDelivery, recordedReceipt, type DeliveryOwner } from './delivery-records.js';
import { toActivityFailure } from './retry.js';

export interface DeliveryRequest {
  /** `<runId or executionId>:<channelIndex>`: derived, never random, so the same on every attempt. */
  deliveryId: string;
  /** The run the record belongs to (an automation run or a webhook execution). */
  owner: DeliveryOwner;
  organizationId: string;
  /** The user the run acts as (checked to be active before anything is sent). */
  ownerId: string;
  channel: StoredChannel;
  /** The answer and the automation's or assistant's name, before the outgoing DLP policy. */
  output: string;
  name: string;
  /** The message each channel receives, from the guarded answer and name. */
  message: (guarded: { output: string; name: string }) => ChannelMessage;
}

export interface DeliveryResult {
  deliveryId: string;
  receipt: string;
  /** True when an earlier attempt had already delivered it (nothing sent now). */
  repeated: boolean;
}

export async function deliverOnce(
  deps: Pick<AppDeps, 'orm' | 'secrets' | 'clock' | 'gateway'>,
  sender: ChannelSender,
  request: DeliveryRequest,
): Promise<DeliveryResult> {
  const { deliveryId, channel } = request;
  const em = deps.orm.em.fork();
  const earlier = await recordedReceipt(em, deliveryId);
  if (earlier !== null) return { deliveryId, receipt: earlier, repeated: true };
  let receipt: string;
  try {
    // A delivery acts for the owner too: not once they are disabled or removed.
    await assertOwnerActive(em, request.organizationId, request.ownerId);
    const source = 'runId' in request.owner
      ? { type: 'run' as const, id: request.owner.runId }
      : { type: 'webhook_execution' as const, id: request.owner.executionId };
    const outgoing = { organizationId: request.organizationId, destination: `channel:${channel.type}`, source };
    const output = await guardOutgoingText(deps, { ...outgoing, text: request.output });
    const name = await guardOutgoingText(deps, { ...outgoing, text: request.name });
    receipt = await sender.send(
      { type: channel.type, target: channel.target, secret: channel.encryptedSecret ? deps.secrets.decrypt(channel.encryptedSecret) : undefined },
      request.message({ output, name }),
    );
  } catch (error) {
    if (error instanceof PermanentDeliveryError) throw ApplicationFailure.nonRetryable(`${channel.type}: ${error.message}`, 'delivery_failed');
    throw toActivityFailure(error);
  }
  await recordDelivery(em, { deliveryId, owner: request.owner, channelType: channel.type, receipt, deliveredAt: deps.clock.now() });
  return { deliveryId, receipt, repeated: false };
}
