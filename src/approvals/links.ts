// Signed approval links: the credential sent to a run's channels, like a webhook URL.
// A link names one request and one decision; its signature (HMAC-SHA256 under a key derived from
// SECRET_KEY for this purpose) covers the request id, the decision, the request's expiry and the
// channel it was sent to, so it cannot be turned into the other decision, used for another
// request, stretched past the expiry or claimed for another channel. It is single-use because a
// request is decided once (a second use is 409). `GET` only shows a confirmation page, `POST`
// decides: link scanners that follow `GET` never decide.
import type { AppDeps } from '../runtime-deps.js';
import { AppError, notFound } from '../errors.js';
import { decide } from './approvals.service.js';
import { ToolApproval } from '../approval-policy/entities.js';
import { approvalView } from '../approval-policy/views.js';

export const LINK_DECISIONS = ['approve', 'deny'] as const;
export type LinkDecision = (typeof LINK_DECISIONS)[number];
const PURPOSE = 'approval-link';

type Deps = Pick<AppDeps, 'config' | 'secrets' | 'orm' | 'clock' | 'temporal' | 'logger'>;

export interface LinkParams {
  id: string;
  decision: string;
  expires: unknown;
  channel: unknown;
  sig: unknown;
}

function signedText(id: string, decision: LinkDecision, expiresMs: number, channel: string): string {
  return `${id}\n${decision}\n${expiresMs}\n${channel}`;
}

/** The link that `decision`s the request, for the channel it is sent to (`slack:#ops`, `email:a@b.c`...). */
export function approvalLink(deps: Pick<AppDeps, 'config' | 'secrets'>, approval: Pick<ToolApproval, 'id' | 'expiresAt'>, decision: LinkDecision, channel: string): string {
  const expires = approval.expiresAt.getTime();
  const sig = deps.secrets.sign(PURPOSE, signedText(approval.id, decision, expires, channel));
  const query = new URLSearchParams({ expires: String(expires), channel, sig });
  return `${deps.config.publicBaseUrl}/approval-links/${approval.id}/${decision}?${query.toString()}`;
}

/** The request a link names, once its signature and expiry check out (404 for no such request, else 403 or 410). */
export async function openLink(deps: Deps, params: LinkParams): Promise<{ approval: ToolApproval; decision: LinkDecision; channel: string }> {
  // The path's id and decision are well-formed here (validated against the route registry).
  const decision = LINK_DECISIONS.find((candidate) => candidate === params.decision)!;
  const approval = await deps.orm.em.fork().findOne(ToolApproval, { id: params.id });
  if (!approval) throw notFound('Approval');
  const expires = typeof params.expires === 'string' && /^\d{1,15}$/.test(params.expires) ? Number(params.expires) : undefined;
  const { channel, sig } = params;
  if (expires === undefined || typeof channel !== 'string' || typeof sig !== 'string'
    || !deps.secrets.verify(PURPOSE, signedText(params.id, decision, expires, channel), sig)) {
    throw new AppError('forbidden', 'This approval link is not valid', { param: 'sig' });
  }
  if (approval.expiresAt.getTime() !== expires || expires <= deps.clock.now().getTime()) {
    throw new AppError('gone', 'This approval link has expired', { param: 'expires' });
  }
  return { approval, decision, channel };
}

/** POST: decides as the link says (409 once the request is decided: a link is single-use). */
export async function decideByLink(deps: Deps, params: LinkParams) {
  const { approval, decision, channel } = await openLink(deps, params);
  const decided = await decide(deps, approval, {
    status: decision === 'approve' ? 'approved' : 'denied',
    via: 'link',
    channel,
    reason: decision === 'deny' ? `denied from a link sent to ${channel}` : null,
  });
  return approvalView(decided);
}

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The confirmation page a GET shows: the call, and one button that POSTs the decision. */
export function confirmationPage(approval: ToolApproval, decision: LinkDecision): string {
  const verb = decision === 'approve' ? 'Approve' : 'Deny';
  const state = approval.status === 'pending' ? '' : `<p><strong>This request is already ${escape(approval.status)}.</strong></p>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>${verb} a tool call</title></head><body>
<h1>${verb} a tool call?</h1>
<p>Tool: <code>${escape(approval.tool)}</code></p>
<p>Arguments:</p><pre>${escape(approval.arguments)}</pre>
<p>The request expires at ${escape(approval.expiresAt.toISOString())}.</p>
${state}<form method="post"><button type="submit">${verb}</button></form>
</body></html>`;
}

export function decidedPage(status: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Decided</title></head><body><h1>The tool call is ${escape(status)}.</h1></body></html>`;
}
