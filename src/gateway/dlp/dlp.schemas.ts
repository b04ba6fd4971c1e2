// PUT /dlp/policy body: the detectors to change and their new actions.
import { z } from 'zod';
import { badRequest } from '../../errors.js';
import { DETECTOR_TYPES, type DetectorType } from './detectors.js';
import { DLP_ACTIONS, type DlpAction } from './policy.js';

const updateSchema = z.strictObject({
  detectors: z.record(z.string(), z.enum(DLP_ACTIONS, { error: `action must be one of ${DLP_ACTIONS.join(', ')}` })),
});

export function parseDlpPolicyUpdate(body: unknown): Partial<Record<DetectorType, DlpAction>> {
  const parsed = updateSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const param = issue.code === 'unrecognized_keys' ? String(issue.keys[0]) : issue.path.map(String).join('.');
    throw badRequest(issue.message, param || 'detectors');
  }
  for (const type of Object.keys(parsed.data.detectors)) {
    if (!(DETECTOR_TYPES as readonly string[]).includes(type)) {
      throw badRequest(`Unknown detector '${type}'; known detectors: ${DETECTOR_TYPES.join(', ')}`, `detectors.${type}`);
    }
  }
  return parsed.data.detectors as Partial<Record<DetectorType, DlpAction>>;
}

/** The PUT /dlp/policy body as parsed above (for the OpenAPI document). */
export { updateSchema as dlpPolicyUpdateBody };
