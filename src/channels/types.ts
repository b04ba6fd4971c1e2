// What every output channel receives: the run's output plus a delivery id that stays the same
// across retries, so the receiving side (and our own delivery record) can recognise a repeat.
import type { ChannelType } from '../automations/entities.js';

export interface ChannelMessage {
  /** `<runId>:<channelIndex>`: stable across activity retries. */
  deliveryId: string;
  automationId: string;
  automationName: string;
  runId: string;
  trigger: string;
  startedAt: string;
  output: string;
}

export interface ChannelTarget {
  type: ChannelType;
  target: string;
  /** Plaintext webhook signing secret (decrypted just for the delivery). */
  secret?: string | undefined;
}

/** What the channel answered, kept as the delivery receipt (Slack ts, SMTP id, HTTP status). */
export type DeliveryReceipt = string;

/** A delivery failure that retrying cannot fix (bad token, unknown channel, 4xx). */
export class PermanentDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentDeliveryError';
  }
}
