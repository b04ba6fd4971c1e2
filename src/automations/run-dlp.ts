// The DLP step of a run: the system prompt and the trigger context (a webhook body) are scanned
// under the organization's policy before anything goes upstream. A block fails the run with
// `dlp_blocked` naming the detector types only; mask and log are applied by the gateway's own scan
// of the request it sends.
import type { AppDeps } from '../runtime-deps.js';
import { AppError } from '../errors.js';
import { inspectMessages } from '../gateway/dlp/index.js';

/** Throws AppError('dlp_blocked') when the organization's policy blocks the text. */
export async function scanRunInputForDlp(deps: Pick<AppDeps, 'gateway'>, organizationId: string, texts: string[]): Promise<void> {
  const verdict = await inspectMessages(
    deps.gateway.dlpPolicies,
    organizationId,
    texts.filter((text) => text.length > 0).map((content) => ({ role: 'user' as const, content })),
  );
  if (verdict.blocked.length > 0) {
    throw new AppError('dlp_blocked', `Blocked by the DLP policy: ${verdict.blocked.join(', ')}`);
  }
}
