// The input scan of an agent run: the system prompt (its skill's included) and the trigger's
// context (a webhook body) are scanned under the organization's DLP policy before anything goes
// upstream. A block fails the run with `dlp_blocked` (permanent) naming the detector types only;
// mask and log are applied by the gateway's own scan of each request it sends.
import type { AppDeps } from '../runtime-deps.js';
import { AppError } from '../errors.js';
import { inspectMessages } from '../gateway/dlp/index.js';
import { toActivityFailure } from './retry.js';

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

/** The scan as an activity step: a block is a permanent activity failure. */
export async function scanAgentInput(deps: Pick<AppDeps, 'gateway'>, organizationId: string, texts: string[]): Promise<void> {
  try {
    await scanRunInputForDlp(deps, organizationId, texts);
  } catch (error) {
    throw toActivityFailure(error);
  }
}
