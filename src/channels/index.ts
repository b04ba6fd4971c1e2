// Output channels of automation runs: Slack, email and signed webhooks. `createChannelSender`
// binds them to their settings once per process; the run activity calls `send` per channel with
// the channel's decrypted secret (a webhook's signing secret, a Slack channel's bot token).
import type { Config } from '../config.js';
import type { Clock } from '../clock.js';
import type { Mailer } from '../mail/mailer.js';
import { sendRunEmail } from './email.js';
import { webhookDispatcher } from './safe-target.js';
import { postToSlack } from './slack.js';
import type { ChannelMessage, ChannelTarget, DeliveryReceipt } from './types.js';
import { postWebhook } from './webhook.js';

export { PermanentDeliveryError, type ChannelMessage, type ChannelTarget } from './types.js';

export interface ChannelSender {
  send(channel: ChannelTarget, message: ChannelMessage): Promise<DeliveryReceipt>;
}

export function createChannelSender(deps: { config: Config; mailer: Mailer; clock: Clock }): ChannelSender {
  const allowPrivateTargets = deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? false;
  const dispatcher = webhookDispatcher(allowPrivateTargets);
  return {
    async send(channel, message) {
      switch (channel.type) {
        case 'slack':
          return postToSlack({ apiUrl: deps.config.SLACK_API_URL, botToken: channel.secret }, channel.target, message);
        case 'email':
          return sendRunEmail(deps.mailer, channel.target, message);
        case 'webhook':
          return postWebhook({ dispatcher, allowPrivateTargets, now: deps.clock.now() }, channel.target, channel.secret ?? '', message);
      }
    },
  };
}
