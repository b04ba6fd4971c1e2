// Channels as automations and assistants store them. A Slack channel posts with its
// organization's own bot token (SECURITY.md's third round): the service holds no workspace-wide token a
// tenant could aim at any channel of the operator's workspace (fake approval requests included),
// so a tenant reaches only the channels its own Slack app was invited to. The token is write-only:
// encrypted at rest like a webhook's signing secret, never shown, kept when the owner saves the
// same target again without it.
import type { SecretBox } from '../crypto/secrets.js';
import { badRequest } from '../errors.js';
import type { StoredChannel } from './types.js';

/** A Slack bot (`xoxb-`) or user (`xoxp-`) token, as Slack issues them. */
export const SLACK_TOKEN_PATTERN = /^xox[bp]-[A-Za-z0-9-]{1,250}$/;
export const SLACK_TOKEN_MESSAGE = "must be the organization's own Slack bot token (xoxb-…)";

/**
 * A Slack channel as stored: its token encrypted; without one, the token the same target had
 * before (`previous`: the channels being replaced). 400 naming `param` when there is none.
 */
export function storedSlackChannel(
  secrets: SecretBox,
  channel: { target: string; token?: string | undefined },
  previous: readonly StoredChannel[],
  param: string,
): StoredChannel {
  if (channel.token) return { type: 'slack', target: channel.target, encryptedSecret: secrets.encrypt(channel.token) };
  const kept = previous.find((old) => old.type === 'slack' && old.target === channel.target && old.encryptedSecret);
  if (kept) return kept;
  throw badRequest(
    `A Slack channel posts with your organization's own Slack bot token: give ${param} (an xoxb- token of a Slack app in your workspace, invited to ${channel.target})`,
    param,
  );
}
