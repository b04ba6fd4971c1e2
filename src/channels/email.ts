// Email channel: the run output as a plain-text message through the mailer (SMTP). The Message-ID
// derives from the delivery id, so a repeat is recognisable as the same message.
import type { Mailer } from '../mail/mailer.js';
import { messageLabel, type ChannelMessage, type DeliveryReceipt } from './types.js';

export async function sendRunEmail(mailer: Mailer, to: string, message: ChannelMessage): Promise<DeliveryReceipt> {
  const label = messageLabel(message);
  const sent = await mailer.send({
    to,
    subject: label.title,
    text: `${message.output}\n\n--\n${label.reference}`,
    messageId: `<${message.deliveryId.replace(':', '.')}@automations.ai-workspace>`,
    headers: { 'X-Service-Delivery-Id': message.deliveryId },
  });
  return `smtp ${sent.messageId}`;
}
