// Email channel: the run output as a plain-text message through the mailer (SMTP). The Message-ID
// derives from the delivery id, so a repeat is recognisable as the same message.
import type { Mailer } from '../mail/mailer.js';
import type { ChannelMessage, DeliveryReceipt } from './types.js';

export async function sendRunEmail(mailer: Mailer, to: string, message: ChannelMessage): Promise<DeliveryReceipt> {
  const sent = await mailer.send({
    to,
    subject: `[Automation] ${message.automationName}`,
    text: `${message.output}\n\n--\nRun ${message.runId} (${message.trigger}) started ${message.startedAt}`,
    messageId: `<${message.deliveryId.replace(':', '.')}@automations.ai-workspace>`,
    headers: { 'X-Service-Delivery-Id': message.deliveryId },
  });
  return `smtp ${sent.messageId}`;
}
